package spec

import (
	"slices"
	"testing"
)

// builtinPathTails reads the literal ends of a spec's paths; a path made
// whole by env() may be any file.
func TestBuiltinPathTails(t *testing.T) {
	tails, anyFile := builtinPathTails("cursor")
	if anyFile || !slices.Equal(tails, []string{"/.cursor/mcp.json", "/.cursor/mcp.json"}) {
		t.Errorf("cursor: %q, any %v", tails, anyFile)
	}
	if _, anyFile := builtinPathTails("gemini"); !anyFile {
		t.Error(`gemini: path = env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", …) is not any file name`)
	}
	tails, anyFile = builtinPathTails("claude-code")
	for _, want := range []string{"/.claude.json", "/.mcp.json", "/etc/claude-code/managed-mcp.json"} {
		if anyFile || !slices.Contains(tails, want) {
			t.Errorf("claude-code: %q lacks %q (any %v)", tails, want, anyFile)
		}
	}
}
