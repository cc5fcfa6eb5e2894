package formats

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

func TestReadApprovalsSpellings(t *testing.T) {
	a := Approvals{Path: "cli.json", Key: "kiroAgent.mcpApprovedEnvVars"}
	for _, src := range []string{
		`{"kiroAgent.mcpApprovedEnvVars": ["A", "B"]}`,
		"{\n  // comment\n  \"kiroAgent\": {\"mcpApprovedEnvVars\": [\"A\", \"B\",]},\n}",
	} {
		got, err := ReadApprovals(a, []byte(src))
		if err != nil || !got["A"] || !got["B"] || len(got) != 2 {
			t.Errorf("ReadApprovals(%s) = %v, %v; want A and B", src, got, err)
		}
	}
	if _, err := ReadApprovals(a, []byte(`{"kiroAgent.mcpApprovedEnvVars": [`)); err == nil {
		t.Error("a broken file gave no error")
	}
	names, fields := UnapprovedRefs(canonical.Server{Name: "s", Env: map[string]string{"K": "${A}", "L": "${C}"}, Args: []string{"--x=${C}"}},
		map[string]bool{"A": true})
	if len(names) != 1 || names[0] != "C" || len(fields["C"]) != 2 {
		t.Errorf("UnapprovedRefs = %v %v; want C in args[0] and env.L", names, fields)
	}
}

// FuzzReadApprovals: any bytes give a list or an error, never a panic and
// never both.
func FuzzReadApprovals(f *testing.F) {
	f.Add([]byte(`{"kiroAgent.mcpApprovedEnvVars": ["A"]}`))
	f.Add([]byte(`{"kiroAgent": {"mcpApprovedEnvVars": ["A", 1, null]}}`))
	f.Add([]byte(`{"kiroAgent": 3}`))
	f.Add([]byte(`[]`))
	a := Approvals{Path: "cli.json", Key: "kiroAgent.mcpApprovedEnvVars"}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadApprovals(a, data)
		if err != nil && got != nil {
			t.Fatalf("both a list and an error: %v %v", got, err)
		}
	})
}
