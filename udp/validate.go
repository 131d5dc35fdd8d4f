package udp

import (
	"errors"

	"netcubes/internal/valid"
)

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("udp: invalid config")

// Validate reports the first field out of its range, naming it, its value
// and the range (the error wraps ErrInvalidConfig). 0 is in every range: it
// means DefaultConfig's value. Listen and Dial refuse an invalid Config.
func (c Config) Validate() error {
	const most = valid.Finite
	n := func(name string, v int, hi float64) valid.Field {
		return valid.Field{Name: name, V: float64(v), Hi: hi}
	}
	return valid.Check(ErrInvalidConfig,
		n("TimeoutTicks", c.TimeoutTicks, most), n("RetryTicks", c.RetryTicks, most),
		n("KeepAliveTicks", c.KeepAliveTicks, most), n("SilentTicks", c.SilentTicks, most),
		n("CookieTicks", c.CookieTicks, most), n("QueueBytes", c.QueueBytes, most),
		n("ReceiveBufferBytes", c.ReceiveBufferBytes, 1<<30),
		n("MaxClients", c.MaxClients, MaxClients),
		n("DeniesPerSecond", c.DeniesPerSecond, most), n("ChallengesPerSecond", c.ChallengesPerSecond, most),
	)
}
