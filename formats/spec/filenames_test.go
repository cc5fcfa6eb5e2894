package spec

import (
	"reflect"
	"slices"
	"testing"
)

// pathHints reads the literal ends of a spec's paths, per OS, and what an
// env() variable changes.
func TestPathHints(t *testing.T) {
	got := builtinPathHints("cursor")
	if len(got) != 2 || got[0].tail != "/.cursor/mcp.json" || got[0].unsetVar != "" {
		t.Errorf("cursor: %+v", got)
	}
	for _, h := range builtinPathHints("gemini") {
		if h.unsetVar == "GEMINI_CLI_SYSTEM_SETTINGS_PATH" {
			if h.tail != "" || h.unsetTail == "" || len(h.os) != 1 {
				t.Errorf("gemini managed: %+v: any file while the variable is set, its default's end while not, one OS", h)
			}
		}
	}
	var tails []string
	for _, h := range builtinPathHints("claude-code") {
		tails = append(tails, h.tail)
	}
	for _, want := range []string{"/.claude.json", "/.mcp.json", "/etc/claude-code/managed-mcp.json"} {
		if !slices.Contains(tails, want) {
			t.Errorf("claude-code: %q lacks %q", tails, want)
		}
	}
	pi := builtinPathHints("pi")
	if pi[0].tail != "/mcp.json" || pi[0].unsetVar != "PI_CODING_AGENT_DIR" || pi[0].unsetTail != "/.pi/agent/mcp.json" {
		t.Errorf("pi user: %+v", pi[0])
	}
}

// The hints MayRead uses are those read from each built-in spec's source,
// generated ahead (hintsOf): none missing, none stale.
func TestGeneratedPathHints(t *testing.T) {
	for _, id := range BuiltinIDs() {
		src, _ := BuiltinSource(id)
		want := pathHints(string(src))
		if got := hintsOf(id); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: hints %+v, its source's %+v", id, got, want)
		}
		if g, ok := generatedPathHints[id]; !ok || g.size != len(src) {
			t.Errorf("%s: no hints generated for its source of %d bytes: run go test ./formats/spec -run TestBuiltinGenIsCurrent -update", id, len(src))
		}
	}
}
