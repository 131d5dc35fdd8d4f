package strategy

import (
	"io"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: the headless bench (cmd/bench) prints, per strategy, the
// tables that strategy's articles talk about. What is worth measuring is
// strategy knowledge, so each strategy writes its own tables (Benched) in
// its own package; the bench owns only the scenario (script, seed, preset,
// frame count), the progress bar and the CSV, and offers them through
// Bench. It runs the sections of every strategy in the catalog, in menu
// order, once per section name. A section fills a Table (table.go), the
// figures with their units and the text printed for them, and hands it to
// Print: the bench prints it and draws its charts from the same figures.

// Bench is the headless bench as a strategy's tables use it.
type Bench interface {
	// Out is where the tables go: a section prints its tables with Print,
	// and anything else it has to say here.
	Out() io.Writer
	// Print writes t to Out and keeps it for the bench's charts (-plots:
	// t.Charts and t.Tradeoff).
	Print(t *Table) error
	// Preset is the bench's network conditions (-preset).
	Preset() link.Preset
	// FrameLimit is the ticks every run is held to (-frames), or 0 when
	// the runs play their script's length. A section with a timeline of
	// its own (the cap step, the other players' scenarios) squeezes it
	// into this many ticks, and says so under its table.
	FrameLimit() int
	// NewRun builds a session on conditions c whose only strategy is st,
	// with the bench's seed, at frame 0.
	NewRun(c link.Config, st Strategy) (Run, error)
	// Play steps r through the bench's scenario (its script, for its frame
	// count), calling tick (may be nil) after every step, advancing the
	// progress bar and writing CSV rows; it returns the run's summary.
	Play(section, name string, r Run, tick func()) Summary
}

// Run is a session as a bench table sees it (game.Session).
type Run interface {
	Step(in cubes.Input)
	Frame() int
	Left() *cubes.World
	Metrics() *viewmodel.Metrics
	RightView() *viewmodel.View
	// LeftAt is cube i of the left at (fractional) frame t from the
	// session's history, false when no longer kept.
	LeftAt(t float64, i int) (mgl64.Vec3, mgl64.Quat, bool)
	// Restart starts the right side and the links over, as a switch to
	// the strategy does; the left world carries on.
	Restart()
}

// BenchSection is one table of the bench, selected with -only by its name.
type BenchSection struct {
	Name string
	Run  func(b Bench) error
}

// Benched is implemented by a strategy with bench tables. Strategies that
// share a section (the two snapshot entries) return it under the same
// name; the bench runs it once.
type Benched interface {
	BenchSections() []BenchSection
}

// Summary is what every bench run measures: the bandwidth of the packets
// the left sent, exactly.
type Summary struct {
	Frames      int     // ticks played
	KbpsPeak    float64 // highest one-second bandwidth, IP/UDP headers included
	Packets     int     // packets sent left → right
	PacketBytes int     // their payload bytes, without IP/UDP headers
}

// Add records one tick's metrics.
func (s *Summary) Add(m *viewmodel.Metrics) {
	s.Frames++
	s.KbpsPeak = max(s.KbpsPeak, m.SentKbps)
	if m.LastPacketFrame == m.Frame {
		s.Packets++
		s.PacketBytes += m.LastPacketBytes
	}
}

// AvgWireKbps is the exact average bandwidth over the run: every packet's
// bytes plus 28 bytes of IP and UDP header, over the run's duration.
func (s *Summary) AvgWireKbps() float64 {
	bits := float64(s.PacketBytes+s.Packets*wire.PacketHeaderBytes) * 8
	return bits / (float64(max(1, s.Frames)) / wire.TicksPerSecond) / 1000
}
