package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/gctune"
	"github.com/mcpsync/mcpsync/internal/xdg"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/watch"
)

// The watch loop, run in-process on real files in a temporary home: a
// store and the user files of Cursor, VS Code, Codex and Claude Code.

const e2eStore = `server "fetch" {
  command = "uvx"
  args    = ["mcp-server-fetch"]
}

server "github" {
  url = "https://api.githubcopilot.com/mcp/"
}
`

// lockedBuffer is a bytes.Buffer safe for the watch goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type watchEnv struct {
	tb     testing.TB
	home   string
	app    *App
	stdout *lockedBuffer
	stderr *lockedBuffer
	cycles chan bool // one per reconcile: whether it wrote files
	writes atomic.Int64
	cancel context.CancelFunc
	done   chan error
}

func (e *watchEnv) path(rel string) string { return filepath.Join(e.home, rel) }

var (
	cursorFile = ".cursor/mcp.json"
	vscodeFile = ".config/Code/User/mcp.json"
	codexFile  = ".codex/config.toml"
	claudeFile = ".claude.json"
	storeFile  = ".config/mcpsync/mcpsync.hcl"
)

// newWatchEnv builds the home and the App; startWatch runs the loop.
func newWatchEnv(tb testing.TB) *watchEnv {
	tb.Helper()
	home := tb.TempDir()
	e := &watchEnv{tb: tb, home: home, stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, cycles: make(chan bool, 1000)}
	e.write(storeFile, e2eStore)
	e.write(cursorFile, "{\n  \"mcpServers\": {}\n}\n")
	e.write(vscodeFile, "{\n  // mine\n  \"servers\": {}\n}\n")
	e.write(codexFile, "model = \"o3\"\n")
	e.write(claudeFile, "{\n  \"numStartups\": 3\n}\n")
	env := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME": filepath.Join(home, ".local", "state"), "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
	}
	getenv := func(k string) string { return env[k] }
	e.app = &App{Stdin: strings.NewReader(""), Stdout: e.stdout, Stderr: e.stderr, Getenv: getenv,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Dirs:      xdg.Resolve(getenv), Cwd: home, GOOS: runtime.GOOS,
		Hooks: engine.Hooks{BeforeSyncWrite: func(paths []string) { e.writes.Add(int64(len(paths))) }}}
	return e
}

func (e *watchEnv) write(rel, data string) {
	e.tb.Helper()
	p := e.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		e.tb.Fatal(err)
	}
}

// save writes the way editors save: a new file renamed over the old one.
func (e *watchEnv) save(rel, data string) {
	e.tb.Helper()
	p := e.path(rel)
	if err := os.WriteFile(p+".swp", []byte(data), 0o600); err != nil {
		e.tb.Fatal(err)
	}
	if err := os.Rename(p+".swp", p); err != nil {
		e.tb.Fatal(err)
	}
}

func (e *watchEnv) read(rel string) string {
	data, _ := os.ReadFile(e.path(rel))
	return string(data)
}

func (e *watchEnv) startWatch(debounce time.Duration, once bool) {
	e.tb.Helper()
	o := watchOptions{sync: engine.SyncOptions{Scope: canonical.ScopeUser}, debounce: debounce, once: once,
		onCycle: func(wrote bool) { e.cycles <- wrote }}
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel, e.done = cancel, make(chan error, 1)
	go func() { e.done <- e.app.runWatch(ctx, o) }()
	e.tb.Cleanup(e.stop)
	e.nextCycle() // the first sync, at start
}

func (e *watchEnv) stop() {
	if e.cancel == nil {
		return
	}
	e.cancel()
	if err := <-e.done; err != nil {
		e.tb.Errorf("watch returned %v", err)
	}
	e.cancel = nil
}

// nextCycle waits for the next reconcile and returns whether it wrote.
func (e *watchEnv) nextCycle() bool {
	e.tb.Helper()
	select {
	case wrote := <-e.cycles:
		return wrote
	case <-time.After(10 * time.Second):
		e.tb.Fatalf("no sync within 10s\nstdout:\n%s\nstderr:\n%s", e.stdout, e.stderr)
	}
	return false
}

// quiet checks that no reconcile writes anything for d.
func (e *watchEnv) quiet(d time.Duration) {
	e.tb.Helper()
	deadline := time.After(d)
	for {
		select {
		case wrote := <-e.cycles:
			if wrote {
				e.tb.Fatalf("a sync wrote files when nothing changed\nstdout:\n%s", e.stdout)
			}
		case <-deadline:
			return
		}
	}
}

// settle waits for the sync that wrote a change, then checks that nothing
// writes for d afterwards.
func (e *watchEnv) settle(d time.Duration) {
	e.tb.Helper()
	for !e.nextCycle() {
	}
	e.quiet(d)
}

// waitFor polls until every file holds its text.
func (e *watchEnv) waitFor(text string, rels ...string) {
	e.tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if e.allHold(text, rels) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	for _, r := range rels {
		e.tb.Logf("%s:\n%s", r, e.read(r))
	}
	e.tb.Fatalf("%q did not reach every file\nstdout:\n%s\nstderr:\n%s", text, e.stdout, e.stderr)
}

func (e *watchEnv) allHold(text string, rels []string) bool {
	for _, r := range rels {
		if !strings.Contains(e.read(r), text) {
			return false
		}
	}
	return true
}

func (e *watchEnv) snapshot(rels ...string) map[string]string {
	out := map[string]string{}
	for _, r := range rels {
		out[r] = e.read(r)
	}
	return out
}

func (e *watchEnv) unchanged(before map[string]string) {
	e.tb.Helper()
	for r, data := range before {
		if got := e.read(r); got != data {
			e.tb.Errorf("%s changed:\n%s\n--- was ---\n%s", r, got, data)
		}
	}
}

// cursorWith is Cursor's file with fetch's args set.
func cursorWith(args string) string {
	return `{
  "mcpServers": {
    "fetch": {
      "command": "uvx",
      "args": ["mcp-server-fetch", "` + args + `"]
    },
    "github": {
      "url": "https://api.githubcopilot.com/mcp/"
    }
  }
}
`
}

var others = []string{vscodeFile, codexFile, claudeFile, storeFile}

func TestWatchPropagatesARenameStyleSave(t *testing.T) {
	e := newWatchEnv(t)
	e.startWatch(50*time.Millisecond, false)
	e.waitFor(`mcp-server-fetch`, cursorFile, vscodeFile, codexFile, claudeFile)
	e.quiet(200 * time.Millisecond)

	e.save(cursorFile, cursorWith("--ignore-robots-txt"))
	e.waitFor(`"--ignore-robots-txt"`, vscodeFile, codexFile, claudeFile, storeFile)
	e.settle(300 * time.Millisecond) // its own writes do not start another round
	if !strings.Contains(e.stdout.String(), "fetch: changed in cursor -> store, claude-code, codex, vscode\n") {
		t.Errorf("log:\n%s", e.stdout)
	}
	if !strings.Contains(e.read(vscodeFile), "// mine") {
		t.Errorf("VS Code's comment is gone:\n%s", e.read(vscodeFile))
	}
}

// TestWatch200RapidEdits: a burst of edits ends with every file holding the
// last one, after a handful of syncs (debounce), and then nothing moves.
func TestWatch200RapidEdits(t *testing.T) {
	e := newWatchEnv(t)
	debounce := 100 * time.Millisecond
	e.startWatch(debounce, false)
	e.waitFor(`mcp-server-fetch`, cursorFile, vscodeFile, codexFile, claudeFile)
	e.quiet(3 * debounce)
	start := e.writes.Load()
	for i := range 200 {
		e.save(cursorFile, cursorWith(fmt.Sprintf("--edit=%d", i)))
		if i%10 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	e.waitFor(`--edit=199"`, vscodeFile, codexFile, claudeFile, storeFile)
	e.settle(5 * debounce)
	writes := e.writes.Load() - start
	t.Logf("200 edits, %d file writes by mcpsync", writes)
	if writes > 40 {
		t.Errorf("%d file writes for 200 edits: the debounce does not hold bursts together", writes)
	}
	for _, r := range append(others, cursorFile) {
		if data := e.read(r); strings.Count(data, "--edit=") != 1 {
			t.Errorf("%s does not end with the last edit alone:\n%s", r, data)
		}
	}
	run, err := e.app.engine().Sync(engine.SyncOptions{Scope: canonical.ScopeUser, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := run.Result; r.Changed() || len(r.Outcomes) > 0 || len(r.Conflicts) > 0 {
		t.Errorf("not converged: %+v %+v", r.Outcomes, r.Conflicts)
	}
}

func TestWatchDeleteAndRecreate(t *testing.T) {
	e := newWatchEnv(t)
	e.startWatch(50*time.Millisecond, false)
	e.waitFor(`mcp-server-fetch`, cursorFile, vscodeFile)
	before := e.snapshot(others...)
	if err := os.Remove(e.path(cursorFile)); err != nil {
		t.Fatal(err)
	}
	if e.nextCycle() {
		t.Errorf("a deleted file made mcpsync write")
	}
	e.unchanged(before) // a missing file is not "every server removed"
	e.write(cursorFile, cursorWith("--recreated"))
	e.waitFor(`"--recreated"`, vscodeFile, codexFile, claudeFile, storeFile)
}

func TestWatchHalfWrittenFileIsNotPropagated(t *testing.T) {
	e := newWatchEnv(t)
	debounce := 40 * time.Millisecond
	e.startWatch(debounce, false)
	e.waitFor(`mcp-server-fetch`, cursorFile, vscodeFile)
	before := e.snapshot(others...)
	full := cursorWith("--complete")
	e.write(cursorFile, full[:len(full)/2]) // a client caught mid-write
	// first attempt plus 5 retries, 2×debounce apart; all not ready
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(e.stderr.String(), "waiting for the next change") {
		time.Sleep(5 * time.Millisecond)
	}
	e.unchanged(before)
	if !strings.Contains(e.stderr.String(), cursorFile+":") || !strings.Contains(e.stderr.String(), "nothing was synced") {
		t.Errorf("the broken file was not reported once the retries ran out\nstdout:\n%s\nstderr:\n%s", e.stdout, e.stderr)
	}
	e.write(cursorFile, full)
	e.waitFor(`"--complete"`, vscodeFile, codexFile, claudeFile, storeFile)
}

func TestWatchDirectoryCreatedLater(t *testing.T) {
	e := newWatchEnv(t)
	e.startWatch(50*time.Millisecond, false)
	e.waitFor(`mcp-server-fetch`, cursorFile)
	if _, err := os.Stat(e.path(".config/opencode")); err == nil {
		t.Fatal("OpenCode's directory exists already")
	}
	e.write(".config/opencode/opencode.jsonc", `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "time": {"type": "local", "command": ["uvx", "mcp-server-time"]}
  }
}
`)
	e.waitFor(`mcp-server-time`, cursorFile, vscodeFile, codexFile, claudeFile, storeFile)
	e.waitFor(`mcp-server-fetch`, ".config/opencode/opencode.jsonc")
	e.settle(100 * time.Millisecond)
	if !strings.Contains(e.stdout.String(), "time: added in opencode -> store, claude-code, codex, cursor, vscode") {
		t.Errorf("log:\n%s", e.stdout)
	}
}

// TestWatchWaitsForTheLock: while another mcpsync holds the state lock,
// watch writes nothing; it writes once the lock is free.
func TestWatchWaitsForTheLock(t *testing.T) {
	e := newWatchEnv(t)
	e.startWatch(30*time.Millisecond, false)
	e.waitFor(`mcp-server-fetch`, cursorFile, codexFile)
	lock, err := ledger.Acquire(e.app.Dirs.State, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	before := e.snapshot(others...)
	e.save(cursorFile, cursorWith("--after-lock"))
	time.Sleep(300 * time.Millisecond)
	e.unchanged(before)
	lock.Unlock()
	e.waitFor(`"--after-lock"`, vscodeFile, codexFile, claudeFile, storeFile)
}

func TestWatchOnce(t *testing.T) {
	e := newWatchEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	once := watchOptions{sync: engine.SyncOptions{Scope: canonical.ScopeUser}, debounce: 30 * time.Millisecond, once: true}
	// the first sync at start propagates the store: --once ends there
	if err := e.app.runWatch(ctx, once); err != nil {
		t.Fatal(err)
	}
	e.waitFor(`mcp-server-fetch`, cursorFile, vscodeFile, codexFile, claudeFile)
	// in step now: --once waits for a change, propagates it and ends
	done := make(chan error, 1)
	go func() { done <- e.app.runWatch(ctx, once) }()
	select {
	case err := <-done:
		t.Fatalf("watch --once ended with nothing to do: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	e.save(cursorFile, cursorWith("--v2"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("watch --once did not end after a propagation")
	}
	e.waitFor(`"--v2"`, vscodeFile, codexFile, claudeFile, storeFile)
}

// BenchmarkWatchLatency measures, over at least 100 rename-style saves of
// Cursor's file with the watch loop running over four clients (Cursor, VS
// Code, Codex, Claude Code) and the store (of 2, 50 and 1,000 servers,
// the edit always to one of them), the time from the save to the
// moment VS Code's, Codex's and Claude Code's files all hold the edit. The
// latency includes the debounce: the default, watch.DefaultDebounce
// (50 ms), and 150 ms, the default it replaced, for the comparison. Each
// is reported as debounce-ms.
//
//	go test ./cmd/mcpsync -run '^$' -bench WatchLatency -benchtime 100x
func BenchmarkWatchLatency(b *testing.B) {
	for _, servers := range []int{2, 50, 1000} {
		for _, d := range []time.Duration{watch.DefaultDebounce, 150 * time.Millisecond} {
			b.Run(fmt.Sprintf("servers=%d/debounce=%s", servers, d), func(b *testing.B) { benchWatchLatency(b, d, servers) })
		}
	}
}

// extraServers are n more stdio servers, as the store and as Cursor's
// file hold them, for the watch benchmarks at size.
func extraServers(n int) (hcl, cursor string) {
	var h, c strings.Builder
	for i := range n {
		fmt.Fprintf(&h, "\nserver \"s%04d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-%d\"]\n}\n", i, i)
		fmt.Fprintf(&c, ",\n    \"s%04d\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg-%d\"]}", i, i)
	}
	return h.String(), c.String()
}

func benchWatchLatency(b *testing.B, debounce time.Duration, servers int) {
	defer gctune.Apply(os.LookupEnv)() // the collector as the mcpsync process runs it
	e := newWatchEnv(b)
	extraHCL, extraCursor := extraServers(max(servers-2, 0))
	e.write(storeFile, e2eStore+extraHCL)
	cursorWith := func(args string) string {
		return strings.Replace(cursorWith(args), "\n    }\n  }\n}\n", "\n    }"+extraCursor+"\n  }\n}\n", 1)
	}
	e.startWatch(debounce, false)
	e.waitFor(`mcp-server-fetch`, cursorFile, vscodeFile, codexFile, claudeFile)
	for len(e.cycles) > 0 {
		<-e.cycles
	}
	n := max(b.N, 100)
	lat := make([]time.Duration, 0, n)
	targets := []string{vscodeFile, codexFile, claudeFile}
	b.ResetTimer()
	for i := range n {
		want := fmt.Sprintf("--bench=%d", i)
		t0 := time.Now()
		e.save(cursorFile, cursorWith(want))
		for !e.allHold(`"`+want+`"`, targets) {
			if time.Since(t0) > 10*time.Second {
				b.Fatalf("edit %d did not arrive", i)
			}
			time.Sleep(200 * time.Microsecond)
		}
		lat = append(lat, time.Since(t0))
		for !e.nextCycle() { // the sync that wrote it has finished
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
	b.ReportMetric(ms(lat[(len(lat)*99)/100]), "p99-ms")
	b.ReportMetric(ms(debounce), "debounce-ms")
	b.ReportMetric(float64(len(lat)), "edits")
}
