package viewmodel

import (
	"fmt"
	"strings"

	"netcubes/link"
)

// Design note: the HUD is one value per tick. The session hands the facts
// of a client (Facts: what its strategy says, its metrics, its links), the
// app adds its own (AppFacts: a jump in time, pause, the script, the link's
// name), and BuildHUD words them: every line the HUD shows, already
// written, with its colour as a meaning (Role), never as a pixel. The app
// then only lays the words out (which fit, which wrap, which go first on
// a small window) and draws them; what to say is decided here, where a
// test reads it without a window.

// Role is what a piece of text means, and so its colour on screen.
type Role uint8

const (
	RoleText   Role = iota // plain text
	RoleDim                // labels, explanations
	RoleAccent             // settings the presenter can change, a wait
	RoleGood               // within the budget, small error
	RoleBad                // over the budget, large error, an alarm
)

// Span is a run of text with its role.
type Span struct {
	Text string
	Role Role
}

// Facts are one client's facts, as the session has them this tick.
type Facts struct {
	Entry   string // the menu entry: "2  Snapshot compression"
	Mode    string // the strategy's settings, parts joined by " · "
	Alarm   string // the strategy's alarm ("" none): the end of the settings, red
	Explain string // one line of explanation

	Metrics Metrics
	Links   link.Pair // the client's links, down (server → client) and up

	HasLeft, HasRight bool // this process has the left, the right
	Checksum, Outage  bool
	// NoRight, in a left process, says why this client has no figures
	// measured on a real link ("no client yet": no right has joined any
	// slot; "" when a right is in this client's slot, and elsewhere).
	NoRight string

	// Budgeted says the strategy has a budget: BudgetKbps, kept unless
	// BudgetOff (the sender ignores it now).
	Budgeted   bool
	BudgetKbps float64
	BudgetOff  bool
	// StrategyFacts is the strategy's own facts line; RemoteFacts, the
	// left's as its control datagrams carry them to a right process;
	// RightFacts, the right's own line when the strategy has one
	// (HasRightFacts).
	StrategyFacts, RemoteFacts, RightFacts string
	HasRightFacts                          bool
	// KeyLead and KeyParts are the strategy's key figures (KeyParts nil:
	// none).
	KeyLead  string
	KeyParts []string

	// Client is the client's index, ClientID its id (player ClientID+1's
	// client), Clients and Players how many there are; PlayersElsewhere:
	// the players are driven from other processes.
	Client, ClientID, Clients, Players int
	PlayersElsewhere                   bool
	// SideLabels are the strategy's own names of the two views when the
	// right owns the player (RightDriven).
	RightDriven bool
	SideLabels  [4]string

	// Timeline is the shown client's packets, Frame the session's frame;
	// a machine that runs ahead of its inputs marks its frames (HasLane).
	Timeline               []PacketRecord
	Frame                  int
	HasLane                bool
	LaneFinal, LanePresent int
}

// AppFacts are what the app adds: the presenter's state of the run.
type AppFacts struct {
	Jump               string // a jump in time under way ("" none), JumpDone its progress 0..1
	JumpDone           float64
	Paused, Slow       bool
	Script             string // "name 1:02/12:00" of a playing script ("" none)
	Recording          bool
	LinkName           string   // the client's link as the presenter named it
	Restored           bool     // the presenter's link just came back
	LinkDescs          []string // the link's numbers, one line per direction when they differ
	ClientTitle        string   // "client 2 · player 2 (push bot) · mobile"
	Ghost              bool     // the ghost overlay is on
	NetStatus, Refused string   // two processes: what is real, and a refusal
}

// HUD is everything the HUD says this tick.
type HUD struct {
	Title   string   // strategy entry
	Mode    []string // its settings, as parts
	Alarm   string   // the last part, red ("" none)
	Explain string
	Status  []Span // right-aligned in the top bar

	Left, Right ViewLabel
	Net         Network
	Band        Bandwidth
	Err         ErrorFigures

	Timeline               []PacketRecord
	Frame                  int
	HasLane                bool
	LaneFinal, LanePresent int
}

// ViewLabel names a view: whose it is and what it shows; Player is the
// player (1..8) whose colour goes beside the title (0: none).
type ViewLabel struct {
	Title, Sub string
	Player     int
}

// Network is the network column: the conditions, RTT and loss, counters.
type Network struct {
	LinkName  string
	Restored  bool     // "link restored: NAME"
	Status    string   // two processes: what is real ("" none)
	Descs     []string // the link's numbers (secondary)
	RTT, Loss string   // key figures
	// RTTWhy and LossNote are lessons (never cut), their tails
	// explanations (secondary).
	RTTWhy, RTTTail, LossNote, LossTail string
	Packets                             string // counters (secondary)
	Corrupt                             Span   // damaged packets ("" none)
	Alarm                               Span   // outage, refusal, rejected packets ("" none)
	Outage                              bool   // the alarm is an outage (large)
	// More are further lines, in order, small (a figure added to the
	// column: see "Adding a HUD figure" in the README).
	More []Span
}

// Bandwidth is the bandwidth column: kbit/s, the budget, the strategy's
// own figures.
type Bandwidth struct {
	Kbps     string
	KbpsRole Role
	Trailer  string // "sent with headers · budget 256 kbit/s"
	Clients  string // the server's total with several clients (secondary; "" none)
	KeyLead  string
	KeyParts []string
	Facts    []string // the strategy's facts, as parts (never cut)
	Budget   float64  // kbit/s, the graph's line
	More     []Span   // further lines, small, above the graph
}

// ErrorState is what the error column can say.
type ErrorState uint8

const (
	ErrorWaiting   ErrorState = iota // nothing to compare yet
	ErrorMeasuring                   // figures not settled
	ErrorShown                       // figures
)

// ErrorFigures is the error column.
type ErrorFigures struct {
	State ErrorState
	Parts []string // "1.2 cm RMS", "3.4 cm max", "5.6°" (ErrorShown), "measuring…"
	Role  Role
	Of    string // what a strategy's own figures compare ("" the whole view)
	// LagLead and Lag: how far in the past the right shows the left.
	LagLead, Lag string
	LagRole      Role
	// NowParts is the error against the left now (RMS, max; nil: none);
	// the max goes when it does not fit.
	NowParts []string
	NowRole  Role
	Note     string // secondary ("" none)
	// Waiting and WaitingTail are said instead (ErrorWaiting).
	Waiting, WaitingTail string
	More                 []Span // further lines, small, at the end
}

// BuildHUD words the HUD of one client from its facts and the app's.
func BuildHUD(f *Facts, a *AppFacts) HUD {
	h := HUD{
		Title:    f.Entry,
		Mode:     strings.Split(f.Mode, " · "),
		Alarm:    f.Alarm,
		Explain:  f.Explain,
		Status:   statusSpans(a),
		Net:      networkFigures(f, a),
		Band:     bandwidthFigures(f),
		Err:      BuildError(&f.Metrics, f.HasLeft, f.HasRight),
		Timeline: f.Timeline, Frame: f.Frame,
		HasLane: f.HasLane, LaneFinal: f.LaneFinal, LanePresent: f.LanePresent,
	}
	h.Left, h.Right = viewLabels(f, a)
	return h
}

// statusSpans are the top bar's status, right-aligned: a jump in time,
// pause or slow motion, the script's position, the recording, the help key.
func statusSpans(a *AppFacts) []Span {
	var status []Span
	switch {
	case a.Jump != "":
		status = append(status, Span{fmt.Sprintf("%s · %.0f %%  ", a.Jump, 100*a.JumpDone), RoleAccent})
	case a.Paused:
		status = append(status, Span{"PAUSED  ", RoleBad})
	case a.Slow:
		status = append(status, Span{"SLOW ×¼  ", RoleAccent})
	}
	if a.Script != "" {
		status = append(status, Span{"script " + a.Script + "  ", RoleDim})
	}
	if a.Recording {
		status = append(status, Span{"● REC  ", RoleBad})
	}
	// (A capture says nothing here: its frames are the clip, and the
	// progress line on the terminal says it is capturing.)
	return append(status, Span{"H help", RoleAccent})
}

// viewLabels are the two views' labels: whose view it is and what it
// shows, as the process, the strategy and the clients have it.
func viewLabels(f *Facts, a *AppFacts) (left, right ViewLabel) {
	left.Sub, right.Sub = "the authoritative simulation you drive", "rebuilt only from packets"
	switch {
	case !f.HasRight:
		left.Sub = "the authoritative simulation, this process; the right is another"
	case !f.HasLeft:
		right.Sub = "rebuilt only from UDP datagrams; the left is another process"
	}
	if a.Ghost && f.Metrics.Valid {
		right.Sub += " · green: the truth where it differs"
	}
	left.Title, right.Title = "LEFT", "RIGHT"
	if f.RightDriven {
		// The right owns the player: the strategy names the two sides.
		left.Title, left.Sub, right.Title, right.Sub = f.SideLabels[0], f.SideLabels[1], f.SideLabels[2], f.SideLabels[3]
	}
	n := f.Clients
	if n > 1 || f.PlayersElsewhere && f.Players > 1 {
		// Several clients: the right is one client's screen; say whose.
		id := f.ClientID
		right.Player = id + 1
		if right.Title == "CLIENT" {
			right.Title = fmt.Sprintf("CLIENT %d", id+1) // the strategy's own name for the right
		} else {
			right.Title += fmt.Sprintf(" · CLIENT %d", id+1)
		}
		right.Sub = strings.TrimPrefix(a.ClientTitle, fmt.Sprintf("client %d · ", id+1))
		if n > 1 {
			right.Title += fmt.Sprintf(" of %d", n)
			right.Sub += " · Tab: next"
			left.Sub = fmt.Sprintf("the server: %d players, %d clients", f.Players, n)
		}
	}
	return left, right
}

// networkFigures words the network column.
func networkFigures(f *Facts, a *AppFacts) Network {
	m := &f.Metrics
	lc := f.Links.Down
	n := Network{LinkName: a.LinkName, Restored: a.Restored, Status: a.NetStatus, Descs: a.LinkDescs}
	n.RTT, n.RTTWhy, n.RTTTail = DescribeRTT(m, lc, f.HasLeft && f.HasRight)
	n.Loss, n.LossNote, n.LossTail = DescribeLoss(m, lc)
	if f.NoRight != "" {
		// Nobody acks: a loss or an RTT would be a figure of nothing.
		n.RTT, n.RTTWhy, n.RTTTail = f.NoRight, "", ""
		n.Loss, n.LossNote, n.LossTail = "", "", ""
	}
	n.Packets = fmt.Sprintf("packets sent %d · delivered %d · lost %d", m.PacketsSent, m.PacketsDelivered, m.PacketsLost)
	if !f.HasLeft {
		n.Packets = fmt.Sprintf("packets received %d", m.PacketsReceived)
	}
	if m.Corrupted > 0 || f.Checksum {
		n.Corrupt = Span{CorruptLine(m, f.Checksum), RoleDim}
		if m.CorruptAccepted > 0 {
			n.Corrupt.Role = RoleBad // a damaged packet taken as valid
		}
	}
	switch {
	case f.Outage:
		n.Alarm, n.Outage = Span{"OUTAGE: all packets lost", RoleBad}, true
	case a.Refused != "":
		n.Alarm = Span{a.Refused, RoleBad}
	case m.Rejected > 0:
		n.Alarm = Span{Plural(int(m.Rejected), "packet") + " rejected by the decoder", RoleBad}
	}
	return n
}

// CorruptLine says what became of the packets the link damaged: the
// lesson of the checksum is in its last figure, the damaged packets taken
// as valid.
func CorruptLine(m *Metrics, checksum bool) string {
	if m.Corrupted == 0 {
		return "checksum on: a damaged packet is dropped"
	}
	s := fmt.Sprintf("damaged %d: ", m.Corrupted)
	if checksum || m.CorruptDropped > 0 {
		s += fmt.Sprintf("%d dropped by the checksum · ", m.CorruptDropped)
	}
	return s + fmt.Sprintf("%d refused · %d taken as valid", m.CorruptRefused, m.CorruptAccepted)
}

// ArticleTargetKbps is the bandwidth goal of the snapshot compression
// article, drawn as the budget line when a strategy has no budget of its
// own.
const ArticleTargetKbps = 256

// bandwidthFigures words the bandwidth column.
func bandwidthFigures(f *Facts) Bandwidth {
	m := &f.Metrics
	budget, budgetName := float64(ArticleTargetKbps), "target"
	if f.Budgeted {
		budget, budgetName = f.BudgetKbps, "budget"
		if f.BudgetOff {
			budgetName = "budget (not kept)"
		}
	}
	b := Bandwidth{Kbps: FormatKbps(m.SentKbps), KbpsRole: RoleGood, Budget: budget}
	if m.SentKbps > budget*1.02 {
		b.KbpsRole = RoleBad
	}
	verb, facts := "sent", f.StrategyFacts
	if !f.HasLeft {
		// A right process receives; the sender's figures are the left's,
		// which its control datagrams carry.
		verb, facts = "received", f.RemoteFacts
		if facts != "" {
			facts = "left: " + facts
		}
		if f.HasRightFacts {
			facts = f.RightFacts
		}
	}
	b.Trailer = fmt.Sprintf("%s with headers · %s %s", verb, budgetName, FormatKbps(budget))
	if m.Clients > 1 {
		b.Clients = fmt.Sprintf("client %d's link · the server sends %s to %d clients", f.Client+1,
			FormatKbps(m.ServerSentKbps), m.Clients)
	}
	if len(f.KeyParts) > 0 {
		b.KeyLead, b.KeyParts = f.KeyLead, f.KeyParts
	}
	if facts != "" {
		// The strategy's own figures carry its lesson (the cubes state
		// sync never sends, lockstep's stall time): every part is kept.
		b.Facts = strings.Split(facts, " · ")
	}
	return b
}

// FormatKbps writes a bandwidth with a sensible unit.
func FormatKbps(k float64) string {
	if k >= 1000 {
		return fmt.Sprintf("%.2f Mbit/s", k/1000)
	}
	return fmt.Sprintf("%.0f kbit/s", k)
}

// errorRole colours an error by its largest figure: green to 2 cm,
// yellow to 10 cm, red beyond.
func errorRole(maxCm float64) Role {
	switch {
	case maxCm > 10:
		return RoleBad
	case maxCm > 2:
		return RoleAccent
	}
	return RoleGood
}

// LagLine says how far in the past the right shows the left: the other
// half of an error measured at the frame the right shows (a right a
// quarter-second behind can read 0.0 cm).
func LagLine(ms float64) (lead, figure string) {
	if ms < 0.5 {
		return "shows the left as it is ", "now"
	}
	return "shows the left as it was ", fmt.Sprintf("%.0f ms ago", ms)
}

// BuildError words the error column: the error against the truth, how far
// in the past the right shows the left and the error against the left now
// (the lag is half of the truth).
func BuildError(m *Metrics, hasLeft, hasRight bool) ErrorFigures {
	var e ErrorFigures
	switch {
	case m.Valid && m.ErrorMeasured():
		e.State, e.Role, e.Of = ErrorShown, errorRole(m.PosMaxCm), m.ErrorOf
		e.Parts = []string{fmt.Sprintf("%.1f cm RMS", m.PosRMSCm), fmt.Sprintf("%.1f cm max", m.PosMaxCm), fmt.Sprintf("%.1f°", m.OrientMaxDeg)}
		if m.ErrorOf != "" {
			return e
		}
		e.LagLead, e.Lag = LagLine(m.DelayMs)
		e.LagRole = RoleText
		if m.DelayMs >= 100 {
			e.LagRole = RoleAccent
		}
		if m.HasNow {
			// What the lag costs: the right against the left as it is.
			e.NowRole = errorRole(m.NowMaxCm)
			e.NowParts = []string{fmt.Sprintf("%.1f cm RMS", m.NowRMSCm), fmt.Sprintf("%.1f cm max", m.NowMaxCm)}
		}
		if !hasLeft {
			e.Note = "vs. the left's diagnostics (2 mm grid, outside the bandwidth)"
		}
		if m.TruthAgeMs >= 250 {
			// A full room shares one budget for the truth: the figures
			// are the last measured, held until the next truth (a few
			// ticks' hold between two truths is not worth a line).
			e.Note = fmt.Sprintf("measured %.1f s ago: the room's rights share the truth's bandwidth", m.TruthAgeMs/1000)
		}
	case m.Valid:
		e.State, e.Parts, e.Role, e.Of = ErrorMeasuring, []string{"measuring…"}, RoleDim, m.ErrorOf
	default:
		e.Waiting, e.WaitingTail = "Error: waiting for the right", "to show something"
		if !hasRight {
			e.Waiting, e.WaitingTail = "Error: measured on the right", "(its own process)"
		}
	}
	return e
}
