package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// gcHeap is a GODEBUG=gctrace=1 line's heap sizes: at the start, the end
// and live after the collection, in MB.
var gcHeap = regexp.MustCompile(`(?m)^gc \d+ .* (\d+)->(\d+)->(\d+) MB`)

// reserved runs mcpsync with args in dir and reports whether its heap
// held hugeheap's reservation (512 MB, dropped at once): a collection
// that started on a heap of 500 MB or more.
func reserved(t *testing.T, env []string, dir string, args ...string) bool {
	t.Helper()
	return reservedWith(t, env, dir, "", args...)
}

// reservedWith is reserved with stdin as the run's standard input.
func reservedWith(t *testing.T, env []string, dir, stdin string, args ...string) bool {
	t.Helper()
	cmd := exec.Command(mcpsyncBinary(t), args...)
	cmd.Dir, cmd.Env = dir, append(env, "GODEBUG=gctrace=1")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcpsync %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, m := range gcHeap.FindAllStringSubmatch(string(out), -1) {
		if start, _ := strconv.Atoi(m[1]); start >= 500 {
			return true
		}
	}
	return false
}

// markingProject is a project of 1,000 servers in a sandboxed home, and
// its environment; it skips t unless an export there marks its heap (the
// machine leaves transparent huge pages to each program, and it is safe).
func markingProject(t *testing.T) (env []string, proj string) {
	t.Helper()
	home := t.TempDir()
	env = sandboxEnv(home)
	proj = filepath.Join(home, "proj")
	write(t, filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
	write(t, filepath.Join(proj, "mcpsync.hcl"), []byte(benchStore(1000)))
	if !reserved(t, env, proj, "export", "--scope", "project", "--to", "cursor") {
		t.Skip("an export did not mark its heap: transparent huge pages are not left to each program here (or it is not safe to ask)")
	}
	return env, proj
}

// TestHeapMarkedByWork: a run marks its heap for huge pages once what it
// reads is large (internal/hugeheap.InputThreshold), whatever the
// command: the store, a client's file, a config pasted on stdin. On a
// small store the marking costs an export a quarter of its time and 4
// MiB of its peak and gains nothing, so a small run does not mark.
func TestHeapMarkedByWork(t *testing.T) {
	env, proj := markingProject(t)
	if !reserved(t, env, proj, "list", "--scope", "project") {
		t.Error("list did not mark its heap for a store of 1,000 servers")
	}
	if !reserved(t, env, proj, "sync", "--scope", "project") {
		t.Error("sync did not mark its heap for a store of 1,000 servers")
	}
	// A project of its own, whose clients' files hold no server yet: the
	// one above holds Cursor's file of 1,000 servers, large input.
	small := filepath.Join(t.TempDir(), "small")
	write(t, filepath.Join(small, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
	write(t, filepath.Join(small, "mcpsync.hcl"), []byte(benchStore(10)))
	for _, args := range [][]string{
		{"list", "--scope", "project"},
		{"--store", filepath.Join(small, "mcpsync.hcl"), "status"},
		{"export", "--scope", "project", "--to", "cursor,codex"},
		{"sync", "--scope", "project"},
	} {
		if reserved(t, env, small, args...) {
			t.Errorf("mcpsync %s marked its heap for a store of 10 servers", strings.Join(args, " "))
		}
	}
	// A client's file is input too: Cursor's, written from 1,000 servers,
	// read by an export of a small store to it.
	write(t, filepath.Join(proj, "mcpsync.hcl"), []byte(benchStore(10)))
	if !reserved(t, env, proj, "export", "--scope", "project", "--to", "cursor", "--dry-run") {
		t.Error("an export to a Cursor file of 1,000 servers did not mark its heap")
	}
	// A paste: 1,000 servers on stdin, as Claude Desktop's JSON.
	var paste strings.Builder
	paste.WriteString(`{"mcpServers": {`)
	for i := range 1000 {
		if i > 0 {
			paste.WriteString(",\n")
		}
		fmt.Fprintf(&paste, `"pasted-%04d": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/%d"]}`, i, i)
	}
	paste.WriteString("}}\n")
	if !reservedWith(t, env, proj, paste.String(), "add", "--dry-run", "-") {
		t.Error("add - with 1,000 servers pasted did not mark its heap")
	}
	if reservedWith(t, env, proj, `{"mcpServers": {"one": {"command": "npx"}}}`, "add", "--dry-run", "-") {
		t.Error("add - with one server pasted marked its heap")
	}
}

// TestHeapMarkedWhateverTheGlobalFlags: the global flags before the
// command do not change what marks the heap. -v is --verbose, and a
// store's file may be named like a command: 'mcpsync -v export' and
// 'mcpsync --store version export' are exports, and mark their heap as
// one (they were taken for 'mcpsync version' and left unmarked: a no-op
// export of 10,000 servers with -v took 2.3 times as long).
func TestHeapMarkedWhateverTheGlobalFlags(t *testing.T) {
	env, proj := markingProject(t)
	if !reserved(t, env, proj, "-v", "export", "--scope", "project", "--to", "cursor") {
		t.Error("mcpsync -v export did not mark its heap")
	}
	write(t, filepath.Join(proj, "version"), []byte(benchStore(1000)))
	if !reserved(t, env, proj, "--store", "version", "export", "--to", "cursor") {
		t.Error("mcpsync --store version export did not mark its heap")
	}
	if reserved(t, env, proj, "--store", "version", "--json", "version") {
		t.Error("mcpsync --json version marked its heap")
	}
}

// TestHeapNotMarkedByReexport: an export that rewrites the files of a
// small project after an edit of the store does not mark its heap. It
// marked in two ways: the export reads each file again before it writes
// it, and those reads counted as input, so that a re-export of 50 servers
// to five clients crossed the threshold after its work was done and the
// marking made it 20 ms slower; and a re-export of 100 servers reads five
// clients' files as well as the store, 87 KB together, and marking for it
// cost 10 ms (internal/hugeheap.InputsThreshold).
func TestHeapNotMarkedByReexport(t *testing.T) {
	env, _ := markingProject(t)
	for _, n := range []int{50, 100} {
		proj := filepath.Join(t.TempDir(), "proj")
		write(t, filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
		store := filepath.Join(proj, "mcpsync.hcl")
		write(t, store, []byte(benchStore(n)))
		export := []string{"export", "--scope", "project", "--to", "claude-code,cursor,vscode,codex,opencode"}
		if reserved(t, env, proj, export...) {
			t.Fatalf("the first export of %d servers marked its heap", n)
		}
		edited := strings.Replace(benchStore(n), `"/srv/0"`, `"/srv/0-edited"`, 1)
		if edited == benchStore(n) {
			t.Fatal("the edit changed nothing")
		}
		write(t, store, []byte(edited))
		if reserved(t, env, proj, export...) {
			t.Errorf("the export of an edit to %d servers marked its heap", n)
		}
	}
}
