package spec

import "testing"

// builtinFileNames reads the names a spec's paths end in; a path made
// whole by env() is any name.
func TestBuiltinFileNames(t *testing.T) {
	names, anyFile := builtinFileNames("cursor")
	if anyFile || !names["mcp.json"] || len(names) != 1 {
		t.Errorf("cursor: %v, any %v", names, anyFile)
	}
	if _, anyFile := builtinFileNames("gemini"); !anyFile {
		t.Error(`gemini: path = env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", …) is not any file name`)
	}
	names, anyFile = builtinFileNames("claude-code")
	if anyFile || !names[".claude.json"] || !names[".mcp.json"] || !names["managed-mcp.json"] {
		t.Errorf("claude-code: %v, any %v", names, anyFile)
	}
}
