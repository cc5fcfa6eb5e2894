package codex

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpsync/mcpsync/canonical"
)

// realCodex finds a Codex CLI to check our output against: $MCPSYNC_CODEX,
// or the pinned one the interop test installs under the user cache.
//
// It runs whenever that Codex is there (the interop test installs it on
// the first full run; .ci/run runs this test again after it), and not under
// -short or with MCPSYNC_INTEROP=0: each check starts Codex, which takes
// most of a second.
func realCodex(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MCPSYNC_CODEX"); p != "" {
		return p
	}
	if testing.Short() || os.Getenv("MCPSYNC_INTEROP") == "0" {
		t.Skip("SKIP: -short or MCPSYNC_INTEROP=0 skips the checks against the real Codex CLI")
	}
	if cache, err := os.UserCacheDir(); err == nil {
		p := filepath.Join(cache, "mcpsync-test", "npm-clients", "node_modules", ".bin", "codex")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("SKIP: no Codex CLI yet: set MCPSYNC_CODEX, or run go test ./interop once to install it")
	return ""
}

// TestRealCodexAcceptsEdits gives every file Encode writes in the golden
// cases to the real Codex CLI (codex mcp list --json) and checks that it
// loads every server, with the transport we meant. Where Encode refused
// (the case's input has errors), Codex must refuse the file too.
func TestRealCodexAcceptsEdits(t *testing.T) {
	codex := realCodex(t)
	files, _ := filepath.Glob("../../testdata/clients/codex/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want.edited") || len(f.Data) == 0 {
				continue
			}
			data := f.Data
			if strings.Contains(f.Name, ".crlf") {
				data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
			}
			if strings.Contains(f.Name, ".nonl") {
				data = bytes.TrimRight(data, "\r\n")
			}
			t.Run(filepath.Base(file), func(t *testing.T) { checkWithCodex(t, codex, data) })
		}
	}
}

// TestRealCodexAgreesOnCorpus: on every real file and sample, mcpsync
// reports an error exactly when Codex refuses the file, and otherwise reads
// the servers Codex lists.
func TestRealCodexAgreesOnCorpus(t *testing.T) {
	codex := realCodex(t)
	files := corpusFiles(t)
	if len(files) == 0 {
		t.Skip("shared corpus not found at " + sharedDir)
	}
	for path, data := range files {
		t.Run(filepath.Base(path), func(t *testing.T) { checkWithCodex(t, codex, data) })
	}
}

func checkWithCodex(t *testing.T, codex string, data []byte) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "mcp", "list", "--json")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	set, ds := Adapter().Decode(userLoc, data)
	if ds.HasErrors() {
		if err == nil {
			t.Fatalf("mcpsync finds errors Codex does not:\n%s\nfile:\n%s", ds.Err(), data)
		}
		return
	}
	if err != nil && !bytes.Contains(stderr.Bytes(), []byte("mcp_servers")) {
		t.Skipf("Codex refuses this file for a reason outside mcp_servers, which mcpsync does not check: %s",
			firstCause(stderr.String()))
	}
	if err != nil {
		t.Fatalf("codex mcp list --json: %v\n%s\nfile:\n%s", err, stderr.Bytes(), data)
	}
	var listed []struct {
		Name      string `json:"name"`
		Transport struct {
			Type string `json:"type"`
		} `json:"transport"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &listed); err != nil {
		t.Fatalf("codex mcp list --json: %v\n%s", err, stdout.Bytes())
	}
	var names []string
	for _, l := range listed {
		names = append(names, l.Name)
		srv, ok := set.Get(l.Name)
		want := map[canonical.Transport]string{canonical.Stdio: "stdio", canonical.HTTP: "streamable_http"}[srv.Transport]
		if !ok || l.Transport.Type != want {
			t.Errorf("codex lists %s as %s; mcpsync reads %+v", l.Name, l.Transport.Type, srv)
		}
	}
	slices.Sort(names)
	want := set.Names()
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("codex lists %v, mcpsync reads %v", names, want)
	}
}

// firstCause returns the line after "Caused by:" in Codex's error output.
func firstCause(s string) string {
	_, after, ok := strings.Cut(s, "Caused by:")
	if !ok {
		return strings.TrimSpace(s)
	}
	for _, l := range strings.Split(after, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
