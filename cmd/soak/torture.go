package main

import (
	"fmt"
	"io"
	"math"
	"runtime"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/wire"
)

// The torture table (-torture): every strategy of the catalog plays the
// script once under each of a few hostile conditions, and one line says
// what got through and what it did to the right. It is the table the
// README's reliability section quotes.

// condition is one hostile network.
type condition struct {
	name string
	link link.Config
	// outage, when > 0, cuts both directions for that many ticks from
	// tick outageAt.
	outage, outageAt int
}

func conditions() []condition {
	tcp := link.PresetIntercontinental.Config()
	tcp.TCPLike, tcp.BandwidthKbps = true, 256
	return []condition{
		{name: "perfect", link: link.PresetPerfect.Config()},
		{name: "terrible", link: link.PresetTerrible.Config()},
		{name: "DSL", link: link.PresetDSL.Config()},
		{name: "congested", link: link.PresetCongested.Config()},
		{name: "TCP-like 256k", link: tcp},
		{name: "5 s outage", link: link.PresetIntercontinental.Config(), outage: 5 * wire.TicksPerSecond, outageAt: 10 * wire.TicksPerSecond},
	}
}

// tortureRow is one strategy under one condition.
type tortureRow struct {
	sent, delivered    uint64
	kbps               float64 // average sent, headers included
	maxDelayMs         float64 // the right's delay behind the left, at its worst
	rmsCm, maxCm       float64
	rejected, nan      int
	validTicks, frames int
}

func torture(w io.Writer, sc *cubes.Script, seed uint64) error {
	fmt.Fprintf(w, "torture: script %s (%d ticks) per run, seed %d\n", sc.Name, sc.Length, seed)
	fmt.Fprintf(w, "%-14s %-16s %9s %9s %10s %11s %9s %9s %8s %4s\n",
		"strategy", "network", "sent", "delivered", "kbit/s", "max delay", "RMS err", "max err", "rejected", "NaN")
	for i, id := range catalog.IDs() {
		for _, c := range conditions() {
			cfg := game.DefaultConfig()
			cfg.Seed = seed
			cfg.Strategies = catalog.All()
			cfg.Start = i
			cfg.Link = c.link
			s, err := game.New(cfg)
			if err != nil {
				return err
			}
			r := tortureRun(s, sc, c)
			fmt.Fprintf(w, "%-14s %-16s %9d %8.1f%% %10.1f %9.0f ms %6.2f cm %6.1f cm %8d %4d\n",
				id, c.name, r.sent, 100*float64(r.delivered)/math.Max(float64(r.sent), 1), r.kbps,
				r.maxDelayMs, r.rmsCm, r.maxCm, r.rejected, r.nan)
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "heap after all runs: %.0f MB, resident %.0f MB\n", float64(ms.HeapAlloc)/(1<<20), rssMB())
	return nil
}

func tortureRun(s *game.Session, sc *cubes.Script, c condition) tortureRow {
	var r tortureRow
	var sq float64
	for f := 0; f < sc.Length; f++ {
		if c.outage > 0 && f == c.outageAt {
			s.Outage(c.outage)
		}
		s.Step(sc.InputAt(f))
		m := s.Metrics()
		r.frames++
		r.kbps += m.SentKbps
		if !finiteAll(m.SentKbps, m.PosRMSCm, m.PosMaxCm, m.DelayMs, m.ShownFrame) {
			r.nan++
		}
		if m.Valid {
			r.validTicks++
			sq += m.PosRMSCm * m.PosRMSCm
			r.maxCm = math.Max(r.maxCm, m.PosMaxCm)
			r.maxDelayMs = math.Max(r.maxDelayMs, m.DelayMs)
		}
		for _, cv := range s.RightView().Cubes {
			if !finiteAll(cv.Position[0], cv.Position[1], cv.Position[2], cv.Orientation.W) {
				r.nan++
				break
			}
		}
		r.sent, r.delivered = m.PacketsSent, m.PacketsDelivered
		r.rejected = int(m.Rejected)
	}
	r.kbps /= float64(max(r.frames, 1))
	if r.validTicks > 0 {
		r.rmsCm = math.Sqrt(sq / float64(r.validTicks))
	}
	return r
}

func finiteAll(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
