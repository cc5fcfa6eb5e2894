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
