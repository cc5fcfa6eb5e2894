package main

import (
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
	cmd := exec.Command(mcpsyncBinary(t), args...)
	cmd.Dir, cmd.Env = dir, append(env, "GODEBUG=gctrace=1")
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

// markingProject is a project of 10 servers in a sandboxed home, and its
// environment; it skips t unless an export there marks its heap (the
// machine leaves transparent huge pages to each program, and it is safe).
func markingProject(t *testing.T) (env []string, proj string) {
	t.Helper()
	home := t.TempDir()
	env = sandboxEnv(home)
	proj = filepath.Join(home, "proj")
	write(t, filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
	write(t, filepath.Join(proj, "mcpsync.hcl"), []byte(benchStore(10)))
	if !reserved(t, env, proj, "export", "--scope", "project", "--to", "cursor") {
		t.Skip("an export did not mark its heap: transparent huge pages are not left to each program here (or it is not safe to ask)")
	}
	return env, proj
}

// TestHeapMarkedByWork: an export marks its heap for huge pages as it
// starts, whatever its size; list and status mark it only once what they
// read is large (internal/hugeheap.InputThreshold), because on a small
// store the marking costs them a sixth of their time and gains nothing.
func TestHeapMarkedByWork(t *testing.T) {
	env, proj := markingProject(t)
	if reserved(t, env, proj, "list", "--scope", "project") {
		t.Error("list marked its heap for a store of 10 servers")
	}
	if reserved(t, env, proj, "--store", filepath.Join(proj, "mcpsync.hcl"), "status") {
		t.Error("status marked its heap for a store of 10 servers")
	}
	write(t, filepath.Join(proj, "mcpsync.hcl"), []byte(benchStore(1000)))
	if !reserved(t, env, proj, "list", "--scope", "project") {
		t.Error("list did not mark its heap for a store of 1,000 servers")
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
	write(t, filepath.Join(proj, "version"), []byte(benchStore(10)))
	if !reserved(t, env, proj, "--store", "version", "export", "--to", "cursor") {
		t.Error("mcpsync --store version export did not mark its heap")
	}
	if reserved(t, env, proj, "--json", "version") {
		t.Error("mcpsync --json version marked its heap")
	}
}
