package spec

import (
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
