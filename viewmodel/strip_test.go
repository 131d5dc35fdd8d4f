package viewmodel

import (
	"testing"
)

func TestBuildStrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(f *Facts)
		title string
		sub   string
		want  []Span
	}{
		{"measured", func(f *Facts) {
			f.Metrics = Metrics{HasRTT: true, RTTms: 215, RTTSamples: 20, LossSamples: 40, Loss: 0.051,
				Valid: true, PosRMSCm: 0.04, PosMaxCm: 1, DelayMs: 183, HasNow: true}
		}, "CLIENT 2 of 4", "player 2 (push bot)", []Span{{"intercontinental", RoleAccent}, {"RTT 215 ms", RoleText},
			{"loss 5.1 %", RoleText}, {"error 0.0 cm RMS", RoleGood}, {"shows 183 ms ago", RoleAccent}}},
		{"nothing yet", nil, "CLIENT 2 of 4", "player 2 (push bot)", []Span{{"intercontinental", RoleAccent},
			{"RTT measuring…", RoleText}, {"loss measuring…", RoleText}, {"error: nothing shown yet", RoleDim}}},
		{"an outage, a strategy's own error", func(f *Facts) {
			f.Outage = true
			f.Metrics = Metrics{Valid: true, ErrorOf: "the player only", ErrorTicks: 1000, PosRMSCm: 12, PosMaxCm: 30}
		}, "CLIENT 2 of 4", "player 2 (push bot)", []Span{{"intercontinental", RoleAccent}, {"RTT measuring…", RoleText},
			{"loss measuring…", RoleText}, {"OUTAGE", RoleBad}, {"error 12.0 cm RMS", RoleBad}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Facts{HasLeft: true, HasRight: true, Client: 1, ClientID: 1, Clients: 4, Players: 4}
			if tc.edit != nil {
				tc.edit(&f)
			}
			a := AppFacts{LinkName: "intercontinental", ClientTitle: "client 2 · player 2 (push bot) · intercontinental link"}
			st := BuildStrip(&f, &a)
			if st.Title != tc.title || st.Sub != tc.sub || st.Player != 2 {
				t.Errorf("title %q sub %q player %d", st.Title, st.Sub, st.Player)
			}
			if len(st.Figures) != len(tc.want) {
				t.Fatalf("figures %q, want %q", st.Figures, tc.want)
			}
			for i := range tc.want {
				if st.Figures[i] != tc.want[i] {
					t.Errorf("figure %d: %+v, want %+v", i, st.Figures[i], tc.want[i])
				}
			}
		})
	}
}
