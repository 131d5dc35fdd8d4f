package predict

import (
	"regexp"
	"strings"
	"testing"
)

// TestTagTallyReads: the tally on the Mode line names how many tags were
// judged (and how many of those the client saw as hits) next to the grants
// and the agreement counted over them, so "3 seen as hits of 5 · granted 0
// · agree 100 %" cannot read as a contradiction; and the note after the
// tag key, written a tick before the tag is made, states no tally that
// lags the Mode line's ("0 so far" beside "1 seen as hits of 1").
func TestTagTallyReads(t *testing.T) {
	st := New(DefaultConfig())
	st.stats.Tags = TagStats{Tags: 5, SeenHits: 3, Verdicts: 2, SeenHitsJudged: 0, AgreeOn: 2, AgreeOff: 2}
	line := st.tagsText()
	for _, want := range []string{"3 seen as hits of 5", "judged 2 (0 seen as hits)", "granted 0 with compensation, 0 without", "agree 100 % with, 100 % without"} {
		if !strings.Contains(line, want) {
			t.Errorf("Mode line %q: no %q", line, want)
		}
	}
	st.stats.Tags = TagStats{Tags: 1, SeenHits: 1}
	if line := st.tagsText(); !strings.Contains(line, "none judged yet") || strings.Contains(line, "granted") {
		t.Errorf("before any verdict: %q", line)
	}
	for _, c := range st.othersControls() {
		if c.Key != TagKey {
			continue
		}
		c.Do(1)
		if note := c.Value(); regexp.MustCompile(`[0-9]`).MatchString(note) {
			t.Errorf("the note after %s states a count before the tag is made: %q", TagKey, note)
		}
	}
}
