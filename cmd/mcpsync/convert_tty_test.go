package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// convert writes the client's bytes exactly into a pipe or a file (OpenCode,
// like opencode itself, ends its file without a newline); on a terminal one
// newline is added so that the shell prompt does not start on the last line.
func TestConvertEndsWithNewlineOnlyOnTerminal(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "cursor.json")
	if err := os.WriteFile(in, []byte(`{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "srv"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	outputs := map[bool]string{}
	for _, tty := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		a := newTestApp(dir, &stdout, &stderr)
		a.stdoutTTY = tty
		if code := a.Run(t.Context(), []string{"convert", "--from", "cursor", "--to", "opencode", in}); code != 0 {
			t.Fatalf("tty=%v: exit %d: %s", tty, code, stderr.String())
		}
		outputs[tty] = stdout.String()
	}
	pipe, term := outputs[false], outputs[true]
	if !strings.Contains(pipe, `"type": "local"`) || strings.HasSuffix(pipe, "\n") {
		t.Errorf("into a pipe: %q, want OpenCode's bytes with no final newline", pipe)
	}
	if term != pipe+"\n" {
		t.Errorf("on a terminal: %q, want the same bytes and one newline", term)
	}
}

// A diff is a file's exact bytes into a pipe (git apply takes it), and on a
// terminal its control characters are escaped like every other output: a
// comment in a client's file cannot redraw the screen through a dry run.
func TestDiffIsEscapedOnlyOnTerminal(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, ".config", "mcpsync", "mcpsync.hcl")
	cursor := filepath.Join(dir, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(store), 0o755)
	os.MkdirAll(filepath.Dir(cursor), 0o755)
	os.WriteFile(store, []byte("server \"x\" {\n  command = \"npx\"\n}\n"), 0o600)
	os.WriteFile(cursor, []byte("{\n  // shared \x1b[2J\x1b]0;owned\a\n  \"mcpServers\": {}\n}\n"), 0o600)
	outputs := map[bool]string{}
	for _, tty := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		a := newTestApp(dir, &stdout, &stderr)
		a.stdoutTTY = tty
		if code := a.Run(t.Context(), []string{"--no-color", "export", "--to", "cursor", "--dry-run"}); code != 0 {
			t.Fatalf("tty=%v: exit %d: %s", tty, code, stderr.String())
		}
		outputs[tty] = stdout.String()
	}
	if strings.ContainsAny(outputs[true], "\x1b\a") || !strings.Contains(outputs[true], `// shared \x1b[2J\x1b]0;owned\x07`) {
		t.Errorf("on a terminal the diff is not escaped:\n%q", outputs[true])
	}
	if !strings.Contains(outputs[false], "// shared \x1b[2J\x1b]0;owned\a") {
		t.Errorf("into a pipe the diff is not the file's bytes:\n%q", outputs[false])
	}
}
