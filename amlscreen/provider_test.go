package amlscreen

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// Didit's AML screening is read from a v3 decision (aml_screenings[]), a v1/v2 one (aml) and a
// webhook that nests the decision; hits Didit itself ruled false positives are left out, and a
// decision without an AML step records no provider screening.
func TestProviderRecordReadsDiditsShapes(t *testing.T) {
	t.Parallel()
	subject := Subject{Kind: SubjectPerson, Name: "Ana Ruiz"}
	cases := map[string]string{
		"v3":      `{"aml_screenings":[{"status":"In Review","hits":[{"id":"h1","caption":"Ana Ruiz","match_score":95,"datasets":["PEP"]},{"id":"h2","review_status":"False Positive"}]}]}`,
		"v2":      `{"aml":{"status":"In Review","total_hits":1,"hits":[{"id":"h1","caption":"Ana Ruiz","score":0.95}]}}`,
		"webhook": `{"webhook_type":"status.updated","decision":{"aml_screenings":[{"status":"Approved","hits":[{"id":"h1","caption":"Ana Ruiz","match_score":95}]}]}}`,
	}
	for name, raw := range cases {
		r, ok := providerRecord(json.RawMessage(raw), subject)
		require.True(t, ok, name)
		require.Equal(t, SourceProvider, r.Source)
		require.Len(t, r.Hits, 1, name)
		require.Equal(t, "h1", r.Hits[0].EntryID)
		require.InDelta(t, 0.95, r.Hits[0].Score, 0.0001, name)
		require.False(t, r.Hits[0].Blocking)
		require.Equal(t, 1, r.CandidateCount)
	}
	for _, raw := range []string{``, `{"aml_screenings":[]}`, `{"aml":{"status":"Not Started"}}`, `not json`} {
		_, ok := providerRecord(json.RawMessage(raw), subject)
		require.False(t, ok, raw)
	}
	r, ok := providerRecord(json.RawMessage(`{"aml_screenings":[{"status":"Approved","total_hits":0,"hits":[]}]}`), subject)
	require.True(t, ok, "a screening without hits is recorded with none")
	require.Zero(t, r.CandidateCount)
}
