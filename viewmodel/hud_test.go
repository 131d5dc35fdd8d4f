package viewmodel

import (
	"slices"
	"strings"
	"testing"

	"netcubes/link"
)

// oneProcess is the facts of a plain one-process session with one client.
func oneProcess() Facts {
	return Facts{
		Entry: "3  State synchronization", Mode: "adaptive smoothing · 256 kbit/s", Explain: "both sides simulate",
		HasLeft: true, HasRight: true, Clients: 1, Players: 1,
		Budgeted: true, BudgetKbps: 256,
		Metrics: Metrics{SentKbps: 120, Clients: 1},
	}
}

func TestBuildHUDWords(t *testing.T) {
	measured := Metrics{HasRTT: true, RTTms: 117, RTTSamples: 50,
		RTTParts: RTTParts{Known: true, LinkMs: 100, HeldMs: 17}, LossSamples: 100, Loss: 0.05, SentKbps: 300, Clients: 1,
		Valid: true, PosRMSCm: 1.25, PosMaxCm: 12, OrientMaxDeg: 3, DelayMs: 150, HasNow: true, NowRMSCm: 3, NowMaxCm: 1.5}
	for _, tc := range []struct {
		name  string
		edit  func(f *Facts, a *AppFacts)
		check func(t *testing.T, h *HUD)
	}{
		{"title and settings", nil, func(t *testing.T, h *HUD) {
			if h.Title != "3  State synchronization" || !slices.Equal(h.Mode, []string{"adaptive smoothing", "256 kbit/s"}) {
				t.Errorf("title %q, mode %q", h.Title, h.Mode)
			}
		}},
		{"within the budget is good", nil, func(t *testing.T, h *HUD) {
			if h.Band.Kbps != "120 kbit/s" || h.Band.KbpsRole != RoleGood || h.Band.Trailer != "sent with headers · budget 256 kbit/s" {
				t.Errorf("%+v", h.Band)
			}
		}},
		{"over the budget is bad, error figures and lag", func(f *Facts, a *AppFacts) { f.Metrics = measured; f.Links.Down.LatencyMs = 50 },
			func(t *testing.T, h *HUD) {
				if h.Band.KbpsRole != RoleBad {
					t.Errorf("300 of 256 kbit/s: %v", h.Band.KbpsRole)
				}
				e := h.Err
				if e.State != ErrorShown || e.Role != RoleBad || !slices.Equal(e.Parts, []string{"1.2 cm RMS", "12.0 cm max", "3.0°"}) {
					t.Errorf("error %+v", e)
				}
				if e.Lag != "150 ms ago" || e.LagRole != RoleAccent || e.NowRole != RoleGood || len(e.NowParts) != 2 {
					t.Errorf("lag %+v", e)
				}
				if h.Net.RTT != "RTT 117 ms" || h.Net.Loss != "loss 5.0 %" || h.Net.RTTWhy != "RTT = 2 × 50 ms on the link +17 ms held for ticks" {
					t.Errorf("net %+v", h.Net)
				}
			}},
		{"a left with nobody in the slot says so, not a loss of nothing", func(f *Facts, a *AppFacts) {
			f.HasRight, f.NoRight = false, "no client yet"
			f.Metrics.LossSamples, f.Metrics.HasRTT = 100, false
		}, func(t *testing.T, h *HUD) {
			if h.Net.RTT != "no client yet" || h.Net.Loss != "" || h.Net.RTTWhy != "" || h.Net.LossNote != "" {
				t.Errorf("net %+v", h.Net)
			}
		}},
		{"nothing to compare yet", nil, func(t *testing.T, h *HUD) {
			if h.Err.State != ErrorWaiting || h.Err.Waiting != "Error: waiting for the right" || h.Net.RTT != "RTT measuring…" {
				t.Errorf("%+v %+v", h.Err, h.Net)
			}
		}},
		{"status: a jump, the script, recording", func(f *Facts, a *AppFacts) {
			a.Jump, a.JumpDone, a.Script, a.Recording = "going back to 0:05", 0.5, "tour 1:02/12:00", true
		}, func(t *testing.T, h *HUD) {
			got := ""
			for _, s := range h.Status {
				got += s.Text
			}
			if got != "going back to 0:05 · 50 %  script tour 1:02/12:00  ● REC  H help" {
				t.Errorf("status %q", got)
			}
		}},
		{"several clients: whose screen, its swatch", func(f *Facts, a *AppFacts) {
			f.Clients, f.Players, f.Client, f.ClientID = 4, 4, 2, 2
			f.Metrics.Clients, f.Metrics.ServerSentKbps = 4, 480
			a.ClientTitle = "client 3 · player 3 (gather bot) · mobile"
		}, func(t *testing.T, h *HUD) {
			if h.Right.Title != "RIGHT · CLIENT 3 of 4" || h.Right.Player != 3 || h.Right.Sub != "player 3 (gather bot) · mobile · Tab: next" {
				t.Errorf("right %+v", h.Right)
			}
			if h.Left.Sub != "the server: 4 players, 4 clients" || h.Left.Player != 0 {
				t.Errorf("left %+v", h.Left)
			}
			if h.Band.Clients != "client 3's link · the server sends 480 kbit/s to 4 clients" {
				t.Errorf("clients %q", h.Band.Clients)
			}
		}},
		{"outage is the alarm", func(f *Facts, a *AppFacts) { f.Outage = true; f.Metrics.Rejected = 3 }, func(t *testing.T, h *HUD) {
			if !h.Net.Outage || h.Net.Alarm.Role != RoleBad {
				t.Errorf("%+v", h.Net.Alarm)
			}
		}},
		{"a right process: received, the left's facts", func(f *Facts, a *AppFacts) {
			f.HasLeft, f.RemoteFacts, f.StrategyFacts = false, "sent 12 cubes", "mine"
		}, func(t *testing.T, h *HUD) {
			if !slices.Equal(h.Band.Facts, []string{"left: sent 12 cubes"}) || !strings.HasPrefix(h.Band.Trailer, "received") {
				t.Errorf("%+v", h.Band)
			}
		}},
		{"TCP-like: unacked, not loss", func(f *Facts, a *AppFacts) { f.Links.Down = link.Config{TCPLike: true} }, func(t *testing.T, h *HUD) {
			if !strings.HasPrefix(h.Net.Loss, "unacked") || h.Net.LossNote == "" {
				t.Errorf("%+v", h.Net)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, a := oneProcess(), AppFacts{LinkName: "LAN"}
			if tc.edit != nil {
				tc.edit(&f, &a)
			}
			h := BuildHUD(&f, &a)
			tc.check(t, &h)
		})
	}
}
