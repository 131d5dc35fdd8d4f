package authority

import (
	"fmt"
	"netcubes/diverge"
	"strings"

	"netcubes/cubes"
	"netcubes/strategy"
	"netcubes/wire"
)

// The presenter's handles: the steps on [ ], O the topology, C the cheat
// (the budget is a flag, -authority-budget); the HUD's facts line; the settings a right process needs.

func (st *Strategy) buildControls() []strategy.Control {
	return []strategy.Control{
		{Key: "O", Label: "topology", Help: "topology: relay through the host / peer to peer", Action: strategy.Toggle,
			Value: st.topology,
			Do:    func(int) { s := st.set; s.P2P = !s.P2P; st.SetSettings(s) }},
		{Key: "C", Label: "cheat", Help: "player 2 cheats: flings the cubes it owns (the host's check catches it)", Action: strategy.Toggle,
			Value: func() string { return strategy.OnOff(st.set.Cheat) },
			Do:    func(int) { s := st.set; s.Cheat = !s.Cheat; st.SetSettings(s) }},
		diverge.Control("the players'", func() diverge.Mode { return st.set.Divergence }, st.setDivergence),
	}
}

// setDivergence applies divergence mode m to the settings (the D key and
// the -diverge flag, shared with state sync and the 2004 prediction).
func (st *Strategy) setDivergence(m diverge.Mode) {
	s := st.set
	s.Divergence = m
	st.SetSettings(s)
}

// Controls implements strategy.Strategy.
func (st *Strategy) Controls() []strategy.Control { return st.controls }

// Flags implements strategy.Flagged.
func (st *Strategy) Flags() []strategy.Flag {
	return []strategy.Flag{
		strategy.IntFlag("authority-step", "distributed authority step 1-5 (default 3: the lowest id wins)", 1, NumSteps,
			func(n int) { s := st.set; s.Step = Step(n); st.SetSettings(s) }),
		strategy.IntFlag("authority-budget", "distributed authority: each machine's budget per peer, kbit/s (default 256)", MinKbps, MaxKbps,
			func(n int) { s := st.set; s.BandwidthKbps = n; st.SetSettings(s) }),
		strategy.ChoiceFlag("authority-topology", "distributed authority topology: relay or p2p", []string{"relay", "p2p"},
			func(i int) { s := st.set; s.P2P = i == 1; st.SetSettings(s) }),
		diverge.Flag(st.setDivergence),
	}
}

// SerializeSettings implements strategy.Shared.
func (st *Strategy) SerializeSettings(s wire.Stream) error {
	x := st.set
	kbps := int32(x.BandwidthKbps)
	s.SetCategory(wire.CategoryOther)
	if err := wire.SerializeInt(s, &x.Step, StepHost, StepReturn); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &x.P2P); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &x.Cheat); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &kbps, MinKbps, MaxKbps); err != nil {
		return err
	}
	div := int32(x.Divergence)
	if err := wire.SerializeInt(s, &div, 0, int32(diverge.NumModes)-1); err != nil {
		return err
	}
	if s.IsReading() {
		x.BandwidthKbps = int(kbps)
		x.Divergence = diverge.Mode(div)
		st.SetSettings(x)
	}
	return nil
}

// Facts implements strategy.Facts: the lesson's figures first (the HUD
// wraps between the parts): claims, conflicts and lost claims per second,
// the largest pop of the last 5 s, the cubes each player owns, then each
// machine's error against the host and (peer to peer) its upload.
func (st *Strategy) Facts() string {
	r := st.room
	h := &r.host
	var lost, pops int
	largest := 0.0
	for _, m := range r.machines {
		if m != nil {
			lost += m.stats.lost.perSecond()
			largest = max(largest, m.stats.pops.largest())
			pops++
		}
	}
	parts := []string{
		fmt.Sprintf("claims %d/s · conflicts %d/s · lost %d/s", h.stats.claims.perSecond(), h.stats.conflicts.perSecond(), h.stats.lost.perSecond()+lost),
		fmt.Sprintf("largest pop %.0f cm", largest*100),
	}
	var owned [9]int
	h.t.owned(&owned)
	var own []string
	for p := range h.players {
		own = append(own, fmt.Sprintf("P%d %d", p+1, owned[p]))
	}
	if len(own) > 0 {
		parts = append(parts, "owned "+strings.Join(own, " "))
	}
	if errs := st.machineErrors(); errs != "" {
		parts = append(parts, "error vs host cm "+errs)
	}
	if f := h.stats.Flags; f > 0 {
		parts = append(parts, fmt.Sprintf("cheats flagged %d", f))
	}
	if st.set.P2P {
		parts = append(parts, p2pLine(&r.mesh, h.players))
	} else if l := relayLine(&r.machines, h.players); l != "" {
		parts = append(parts, l)
	}
	return strings.Join(parts, " · ")
}

// machineErrors is each player's machine's RMS error against the host's
// world at the same frame, as drawn, in cm ("P1 0.4 P2 3.1"), or "" when
// the machines are not in this process.
func (st *Strategy) machineErrors() string {
	r := st.room
	left := r.host.left
	if left == nil {
		return ""
	}
	var out []string
	for p, m := range r.machines[:r.host.players] {
		if m == nil || m.w == nil || m.w.NumCubes() != left.NumCubes() {
			return ""
		}
		out = append(out, fmt.Sprintf("P%d %.1f", p+1, 100*machineErr(m, left)))
	}
	return strings.Join(out, " ")
}

// p2pLine is each machine's upload and download in peer to peer, kbit/s:
// a machine sends the same packet to each of its peers, so its upload is
// that packet's rate times the peers (the number the comments' argument
// is about) and each peer downloads one share of every other machine's.
func p2pLine(ms *mesh, players int) string {
	peers := players - 1
	if peers < 1 {
		return "P2P: no peers"
	}
	var perPeer [9]float64
	for p := range players {
		perPeer[p] = ms.up[p].kbps() / float64(peers)
	}
	var cols []string
	for b := range players {
		down := 0.0
		for a := range players {
			if a != b {
				down += perPeer[a]
			}
		}
		cols = append(cols, fmt.Sprintf("P%d %.0f/%.0f", b+1, perPeer[b]*float64(peers), down))
	}
	// Parts the HUD may wrap between (" · "): one per machine.
	cols[0] = fmt.Sprintf("P2P to %d peers each, up/down kbit/s %s", peers, cols[0])
	return strings.Join(cols, " · ")
}

// relayLine is each machine's traffic with the host in the last second,
// kbit/s with headers: up (its cubes and input) and down (the host's
// relay of everyone's). One part per machine, so the HUD wraps them whole.
func relayLine(machines *[cubes.MaxPlayers]*machine, players int) string {
	var cols []string
	for p := range min(players, len(machines)) {
		m := machines[p]
		if m == nil {
			continue
		}
		cols = append(cols, fmt.Sprintf("P%d %.0f/%.0f", p+1, m.up.kbps(), m.down.kbps()))
	}
	if len(cols) == 0 {
		return ""
	}
	cols[0] = "relay up/down kbit/s " + cols[0]
	return strings.Join(cols, " · ")
}
