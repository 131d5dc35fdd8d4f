package link

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"netcubes/internal/valid"
)

// Design note: every figure of a Config is described once, here: its name
// (as the flags and the talk tracks say it), its unit and the range a value
// may take. Validate, the wire (serialize.go), the talk tracks' link command,
// the flags and the keys all read this table, so a range is written once
// and cannot disagree between them. Adding an impairment is a field of
// Config, one row here, and what the link does with it (link.go); the key
// or flag that drives it reads its row.

// ErrInvalidConfig is a link setting out of its range (or not a number).
var ErrInvalidConfig = errors.New("link: invalid config")

// Field is one figure of a Config.
type Field uint8

// The fields, in the order the wire writes them and a talk track lists
// them. The ones before NumEditable are the figures a talk track (the link
// command) and the keys may change; the rest are limits set in code.
const (
	FieldLatency Field = iota
	FieldJitter
	FieldLoss
	FieldDuplicate
	FieldReorder
	FieldReorderExtra
	FieldBurstIn
	FieldBurstOut
	FieldBurstLoss
	FieldCap
	FieldQueueMs
	FieldQueueBytes
	FieldMTU
	FieldCorrupt
	FieldTCP
	FieldMinRTO
	FieldMaxRTO
	FieldMaxInFlight
	FieldMaxPacket
	NumFields
)

// NumEditable ends the editable fields.
const NumEditable = FieldMinRTO

// FieldInfo describes a field: Name is how flags and talk tracks call it,
// Unit its unit ("" for the on/off tcp), and Lo..Hi the values it may take.
// KeyHi is as far as a relative step (+N, what a key does) takes it: the
// keys stop there, short of Hi, where a larger value would only be a
// slip of a finger on stage.
type FieldInfo struct {
	Name, Unit string
	Lo, Hi     float64
	KeyHi      float64
}

// Ranges, with why they end where they do.
const (
	maxMs      = 5000    // a one-way delay of 5 s: beyond, nothing in the demo still works
	maxQueueMs = 60_000  // a minute of queue (or of retransmission timeout)
	maxKbps    = 1e6     // 1 Gbit/s: no strategy comes near
	maxBytes   = 1 << 30 // a queue of 1 GB
	maxTicks   = 1 << 30 // a cap step of 207 days: a test's "for ever"
)

var fieldInfo = [NumFields]FieldInfo{
	FieldLatency:      {"latency", "ms", 0, maxMs, 1000},
	FieldJitter:       {"jitter", "ms", 0, maxMs, 500},
	FieldLoss:         {"loss", "%", 0, 100, 50},
	FieldDuplicate:    {"dup", "%", 0, 100, 100},
	FieldReorder:      {"reorder", "%", 0, 100, 100},
	FieldReorderExtra: {"reorder-extra", "ms", 0, maxMs, maxMs},
	FieldBurstIn:      {"burst-in", "%", 0, 100, 100},
	FieldBurstOut:     {"burst-out", "%", 0, 100, 100},
	FieldBurstLoss:    {"burst-loss", "%", 0, 100, 100},
	FieldCap:          {"cap", "kbit/s", 0, maxKbps, maxKbps},
	FieldQueueMs:      {"queue-ms", "ms", 0, maxQueueMs, maxQueueMs},
	FieldQueueBytes:   {"queue-bytes", "bytes", 0, maxBytes, maxBytes},
	FieldMTU:          {"mtu", "bytes", 0, 65535, 65535},
	FieldCorrupt:      {"corrupt", "%", 0, 100, 100},
	FieldTCP:          {"tcp", "", 0, 1, 1},
	FieldMinRTO:       {"min-rto", "ms", 0, maxQueueMs, maxQueueMs},
	FieldMaxRTO:       {"max-rto", "ms", 0, maxQueueMs, maxQueueMs},
	FieldMaxInFlight:  {"max-in-flight", "packets", 0, 1 << 20, 1 << 20},
	FieldMaxPacket:    {"max-packet", "bytes", 0, DefaultMaxPacketBytes, DefaultMaxPacketBytes},
}

// Info describes f.
func (f Field) Info() FieldInfo {
	if f < NumFields {
		return fieldInfo[f]
	}
	return FieldInfo{Name: "field" + strconv.Itoa(int(f))}
}

func (f Field) String() string { return f.Info().Name }

// Check refuses x for f, naming the field, its value and its range.
func (f Field) Check(x float64) error {
	in := f.Info()
	if err := valid.Check(ErrInvalidConfig, valid.Field{Name: in.Name, V: x, Lo: in.Lo, Hi: in.Hi}); err != nil {
		return err
	}
	if f == FieldMTU && x > 0 && x < minMTU {
		return fmt.Errorf("%w: mtu = %v, want 0 (datagrams whole) or %d..65535", ErrInvalidConfig, x, minMTU)
	}
	return nil
}

// FieldByName finds the editable field a talk track calls name.
func FieldByName(name string) (Field, bool) {
	for f := Field(0); f < NumEditable; f++ {
		if fieldInfo[f].Name == name {
			return f, true
		}
	}
	return 0, false
}

// EditableNames lists the editable fields' names, for a message.
func EditableNames() string {
	var s []string
	for f := Field(0); f < NumEditable; f++ {
		s = append(s, f.String())
	}
	return strings.Join(s, " ")
}

// ref points at f in c: exactly one of the three is set.
func (c *Config) ref(f Field) (*float64, *int, *bool) {
	switch f {
	case FieldLatency:
		return &c.LatencyMs, nil, nil
	case FieldJitter:
		return &c.JitterMs, nil, nil
	case FieldLoss:
		return &c.LossPercent, nil, nil
	case FieldDuplicate:
		return &c.DuplicatePercent, nil, nil
	case FieldReorder:
		return &c.ReorderPercent, nil, nil
	case FieldReorderExtra:
		return &c.ReorderExtraMs, nil, nil
	case FieldBurstIn:
		return &c.Burst.GoodToBadPercent, nil, nil
	case FieldBurstOut:
		return &c.Burst.BadToGoodPercent, nil, nil
	case FieldBurstLoss:
		return &c.Burst.BadLossPercent, nil, nil
	case FieldCap:
		return &c.BandwidthKbps, nil, nil
	case FieldQueueMs:
		return &c.QueueLimitMs, nil, nil
	case FieldQueueBytes:
		return nil, &c.QueueLimitBytes, nil
	case FieldMTU:
		return nil, &c.MTUBytes, nil
	case FieldCorrupt:
		return &c.CorruptPercent, nil, nil
	case FieldTCP:
		return nil, nil, &c.TCPLike
	case FieldMinRTO:
		return &c.MinRTOMs, nil, nil
	case FieldMaxRTO:
		return &c.MaxRTOMs, nil, nil
	case FieldMaxInFlight:
		return nil, &c.MaxInFlight, nil
	case FieldMaxPacket:
		return nil, &c.MaxPacketBytes, nil
	}
	panic("link: no field " + f.String())
}

// Get reads f of c as a number (tcp: 1 on, 0 off).
func (c *Config) Get(f Field) float64 {
	x, i, b := c.ref(f)
	switch {
	case x != nil:
		return *x
	case i != nil:
		return float64(*i)
	case *b:
		return 1
	}
	return 0
}

// Set sets f of c to x (tcp: on unless 0).
func (c *Config) Set(f Field, x float64) {
	switch p, i, b := c.ref(f); {
	case p != nil:
		*p = x
	case i != nil:
		*i = int(x)
	default:
		*b = x != 0
	}
}

// Validate returns nil when every field and every step of the cap schedule
// is in its range, else an error naming the first that is not, with its
// value and range, wrapping ErrInvalidConfig.
func (c Config) Validate() error {
	for f := Field(0); f < NumFields; f++ {
		if err := f.Check(c.Get(f)); err != nil {
			return err
		}
	}
	for k, st := range c.CapSchedule.Steps {
		if err := valid.Check(ErrInvalidConfig,
			valid.Field{Name: fmt.Sprintf("cap schedule step %d kbit/s", k+1), V: st.Kbps, Hi: maxKbps},
			valid.Field{Name: fmt.Sprintf("cap schedule step %d ticks", k+1), V: float64(st.Ticks), Hi: maxTicks},
		); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks both directions.
func (p Pair) Validate() error {
	if err := p.Down.Validate(); err != nil {
		return fmt.Errorf("down: %w", err)
	}
	if err := p.Up.Validate(); err != nil {
		return fmt.Errorf("up: %w", err)
	}
	return nil
}
