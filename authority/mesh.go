package authority

import (
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: peer to peer. Each machine sends the cubes it owns straight
// to every other player's machine, over a link of its own per ordered
// pair (the sender's conditions: its client link's configuration), as
// well as to the host (which still judges and owns the default cubes).
// The relay's extra hop is gone, and each machine's upload grows with the
// number of peers: the comments' argument about peer-to-peer bandwidth,
// measured per machine here. A receiving machine applies what a peer
// says about that peer's cubes by the same rules as what the host relays
// (machine.apply): the lowest id wins, sequences drop stale news.

// mesh is the peer links of one room: links[a][b] carries machine a's
// packets to machine b.
type mesh struct {
	players int
	links   [][]*link.Link
	buf     []byte
	w       *wire.WriteStream
	up      [9]bytesWindow // bytes each machine sent to its peers, per tick
	in      Packet
}

// bytesWindow is a one-second count of bytes.
type bytesWindow struct{ b [wire.TicksPerSecond]int }

func (w *bytesWindow) open(f int)       { w.b[f%len(w.b)] = 0 }
func (w *bytesWindow) add(f int, n int) { w.b[f%len(w.b)] += n }

// kbps is the last second's rate with IP and UDP headers, kbit/s.
func (w *bytesWindow) kbps() float64 {
	n := 0
	for _, v := range w.b {
		n += v
	}
	return float64(n) * 8 / 1000
}

func (ms *mesh) reset(players int) {
	ms.players = players
	ms.links = nil
	ms.up = [9]bytesWindow{}
	if ms.buf == nil {
		ms.buf = make([]byte, 4096)
		ms.w = wire.NewWriteStream(ms.buf)
	}
}

// link is the link from machine a to machine b, built on first use with
// a's conditions and a seed of its own.
func (ms *mesh) link(a, b int, cfg link.Config) *link.Link {
	if ms.links == nil {
		ms.links = make([][]*link.Link, ms.players)
		for k := range ms.links {
			ms.links[k] = make([]*link.Link, ms.players)
		}
	}
	if ms.links[a][b] == nil {
		ms.links[a][b] = link.New(cfg, uint64(0x9e3779b97f4a7c15)^uint64(a*16+b+1))
	} else if ms.links[a][b].Config() != cfg {
		ms.links[a][b].SetConfig(cfg)
	}
	return ms.links[a][b]
}

// send puts machine p's packet (already filled) on its links to every
// other machine, framed with the frame it was sent at.
func (ms *mesh) send(st *Strategy, ctx strategy.Context, p *Packet) {
	a := ctx.Player()
	if a < 0 || a >= ms.players {
		return
	}
	f := ctx.Frame()
	ms.up[a].open(f)
	ms.w.Reset(ms.buf)
	frame := uint32(f)
	if wire.SerializeUint32(ms.w, &frame) != nil || p.Serialize(ms.w) != nil || ms.w.SerializeAlign() != nil {
		return
	}
	data := ms.w.Bytes()
	for b := range ms.players {
		if b == a {
			continue
		}
		ms.link(a, b, ctx.Link()).Send(wire.Tick(f), data) // the link keeps a copy
		ms.up[a].add(f, wire.WireBytes(len(data)))
	}
}

// deliver applies what reached machine b from its peers by now.
func (ms *mesh) deliver(st *Strategy, ctx strategy.Context) {
	b := ctx.Player()
	if b < 0 || b >= ms.players || ms.links == nil {
		return
	}
	now := ctx.Frame()
	for a := range ms.players {
		l := ms.links[a][b]
		if a == b || l == nil {
			continue
		}
		for _, d := range l.Receive(wire.Tick(now)) {
			ms.apply(st, a, d.Data, now)
		}
	}
}

// apply reads one peer packet: a hostile one is dropped whole.
func (ms *mesh) apply(st *Strategy, from int, data []byte, now int) {
	r := wire.NewReadStream(data)
	var frame uint32
	p := &ms.in
	*p = Packet{}
	if wire.SerializeUint32(r, &frame) != nil || p.Serialize(r) != nil {
		return
	}
	if p.FromHost || int(p.Sender) != from+1 || int(frame) > now || int(p.NumCubes) != st.m.w.NumCubes() {
		return
	}
	for k := range p.NumUpdates {
		u := &p.Updates[k]
		if u.Owner != p.Sender && !(u.Owner == p.Players+1) {
			continue
		}
		st.m.apply(st, u, int(frame), now, false)
	}
}
