package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/internal/xdg"
)

// The live progress line goes to stderr only when stderr is a terminal, and
// is cleared before the table is printed.
func TestProbeProgressOnlyOnTerminal(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "mcpsync.hcl")
	if err := os.WriteFile(store, []byte("server \"fx\" {\n  command = \"mcp-fixture\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tty := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		a := newTestApp(dir, &stdout, &stderr)
		a.Getenv, a.LookupEnv = os.Getenv, os.LookupEnv // the fixture server is found on PATH
		a.stderrTTY = tty
		if code := a.Run(t.Context(), []string{"--no-color", "--store", store, "probe"}); code != 0 {
			t.Fatalf("tty=%v: exit %d: %s", tty, code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "✓ fx") {
			t.Errorf("tty=%v: stdout %q", tty, stdout.String())
		}
		switch {
		case !tty && stderr.Len() != 0:
			t.Errorf("no terminal, yet stderr got %q", stderr.String())
		case tty && (!strings.Contains(stderr.String(), "probing 1 server… 1 done") || !strings.HasSuffix(stderr.String(), "\r\x1b[K")):
			t.Errorf("terminal: stderr %q, want the progress line, cleared at the end", stderr.String())
		}
	}
}

// newTestApp is an App run in-process, with its home (and so every XDG
// directory) in dir and no environment, that writes to stdout and stderr.
func newTestApp(dir string, stdout, stderr *bytes.Buffer) *App {
	getenv := func(k string) string {
		if k == "HOME" {
			return dir
		}
		return ""
	}
	return &App{Stdout: stdout, Stderr: stderr, Stdin: strings.NewReader(""),
		Getenv: getenv, LookupEnv: func(string) (string, bool) { return "", false },
		Cwd: dir, GOOS: "linux", Dirs: xdg.Resolve(getenv)}
}
