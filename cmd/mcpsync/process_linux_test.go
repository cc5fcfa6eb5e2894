package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// BenchmarkProcess holds the goals of whole runs of the built mcpsync, a
// process each, against a floor measured in the same run where there is
// one (Linux: it reads the peak resident memory from the kernel).
//
//   - start: 'mcpsync version' and 'mcpsync list' (an empty store),
//     alternating with a Go hello world built here: x-hello at most 3.
//     start-only is the same mcpsync built to return as main begins
//     (startOnly): what the binary costs before any of its work.
//     ms-version-cgo is version built with the C library linked (plain
//     go build), for comparison.
//
// Every mcpsync here is built as the README installs it: static
// (CGO_ENABLED=0, installedBinary).
//
//   - servers=50: a fresh export to Claude Code, Cursor, VS Code, Codex
//     and OpenCode's project files: x-12MiB, its peak resident memory
//     over 12 MiB, at most 1. MiB-peak-start-only is the peak of the
//     start-only build on the same command line: what the binary holds
//     before the export does anything. x-naive, its time over the naive
//     program's (naiveExportSource: the same five files from the same
//     servers, nothing checked or kept, run in turn with it), at most 3,
//     the goal as it was measured: a process each.
//     x-naive-durable is over the same program writing as safely
//     (synced and renamed into place), for comparison.
//
//   - servers=10000: a fresh export to every client's project file (not
//     with -short): x-3s and x-300MB, its time and peak resident memory
//     over those, at most 1.
//
//   - servers=10000,clients=4: the job bench/peer-export.sh times against
//     ruler and rulesync (Claude Code, Cursor, Codex and OpenCode), not
//     with -short: its time and peak resident memory, fresh, and, as
//     ms-edited and MiB-peak-edited, right after the store was edited (a
//     comment added), so that the store is read where it changed (from the
//     parse of the text before and its last lines) rather than whole from
//     the parse cache. No goal: the peers run in the script; these hold
//     what the heap's tuning (internal/gctune) gives at that size.
//
// The exports run through a peakRunner, so that what a run reports is its
// own peak, not this test binary's (see peakRunnerSource).
//
//	go test ./cmd/mcpsync -run '^$' -bench Process -benchtime 5x
//
// With MCPSYNC_BENCH_BASE naming another build of mcpsync (an earlier
// commit's, say), each export job runs it too, in turn with this one
// (this then the base, the base then this, iteration by iteration) on the
// same project, each with a cache directory of its own: ms-base,
// MiB-peak-base and x-base (this build's time over the base's) are a
// before-and-after measured in one run, as a change's figures should be
// on a machine whose speed drifts:
//
//	git worktree add /tmp/base <commit>
//	(cd /tmp/base && CGO_ENABLED=0 go build -o /tmp/base/mcpsync ./cmd/mcpsync)
//	MCPSYNC_BENCH_BASE=/tmp/base/mcpsync go test ./cmd/mcpsync -run '^$' -bench 'Process/servers=50$' -benchtime 40x
func BenchmarkProcess(b *testing.B) {
	bin, startOnly := installedBinary(b), startOnlyBinary(b)
	b.Run("start", func(b *testing.B) {
		hello, start, withCgo := helloWorld(b), startOnly, mcpsyncBinary(b)
		home := b.TempDir()
		env := sandboxEnv(home)
		var hw, floor, version, list, versionCgo time.Duration
		for range b.N * 10 { // a start is short: ten of each per iteration
			hw += timeRun(b, env, home, hello).took
			floor += timeRun(b, env, home, start, "version").took
			version += timeRun(b, env, home, bin, "version").took
			list += timeRun(b, env, home, bin, "list").took
			versionCgo += timeRun(b, env, home, withCgo, "version").took
		}
		n := time.Duration(b.N * 10)
		b.ReportMetric(float64((hw/n).Microseconds())/1000, "ms-hello")
		b.ReportMetric(float64((floor/n).Microseconds())/1000, "ms-start-only")
		b.ReportMetric(float64((version/n).Microseconds())/1000, "ms-version")
		b.ReportMetric(float64((list/n).Microseconds())/1000, "ms-list")
		b.ReportMetric(float64((versionCgo/n).Microseconds())/1000, "ms-version-cgo")
		// start-only-x-hello is no goal: it is the part of the others that
		// main does not reach, what this binary costs to start at all.
		b.ReportMetric(float64(floor)/float64(hw), "start-only-x-hello")
		benchgoal.Ratio(b, "version-x-hello", float64(version)/float64(hw), 3)
		benchgoal.Ratio(b, "list-x-hello", float64(list)/float64(hw), 3)
	})
	for _, job := range []struct {
		name    string
		servers int
		clients func() string
		edited  bool // each iteration also runs right after an edit of the store
	}{
		{"servers=50", 50, func() string { return "claude-code,cursor,vscode,codex,opencode" }, false},
		{"servers=10000", 10000, func() string { return strings.Join(clientIDs(b, bin), ",") }, false},
		{"servers=10000,clients=4", 10000, func() string { return "claude-code,cursor,codex,opencode" }, true},
	} {
		b.Run(job.name, func(b *testing.B) {
			if job.servers == 10000 && testing.Short() {
				b.Skip("10,000 servers: not with -short")
			}
			home := b.TempDir()
			proj := filepath.Join(home, "proj")
			write(b, filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
			write(b, filepath.Join(proj, "mcpsync.hcl"), []byte(benchStore(job.servers)))
			env := sandboxEnv(home)
			clients := job.clients()
			runner := peakRunner(b)
			freshWith := func(bin string, env []string) run {
				freshProject(home, proj)
				return measuredRun(b, runner, env, proj, bin, "export", "--scope", "project", "--to", clients)
			}
			fresh := func() run { return freshWith(bin, env) }
			fresh() // the store's first read, cached for the runs timed
			base, baseEnv := os.Getenv("MCPSYNC_BENCH_BASE"), append(slices.Clip(env), "XDG_CACHE_HOME="+filepath.Join(home, ".cache-base"))
			if base != "" {
				freshWith(base, baseEnv)
			}
			var baseTook, baseEditedTook time.Duration
			var basePeak int64
			baseRun := func(edited bool) {
				if base != "" {
					r := freshWith(base, baseEnv)
					if edited { // the base parses the edited store too, as this build did: the next fresh runs of both find it cached
						baseEditedTook += r.took
						return
					}
					baseTook, basePeak = baseTook+r.took, max(basePeak, r.maxRSS)
				}
			}
			// At 50 servers the naive program runs too, plain and
			// durable, alternating with mcpsync, into a folder of its own.
			var naive, input, naiveDir string
			if job.servers == 50 {
				naive, input, naiveDir = buildGoProgram(b, "naive", naiveExportSource), naiveInput(b, job.servers), b.TempDir()
			}
			// The edit adds a comment, which the next iteration's fresh run
			// then finds in the parse cache.
			storePath := filepath.Join(proj, "mcpsync.hcl")
			var took, naiveTook, durableTook, editedTook time.Duration
			var peak, editedPeak int64
			for i := range b.N {
				if i%2 == 1 {
					baseRun(false) // the base first every other time: ABBA
				}
				r := fresh()
				took, peak = took+r.took, max(peak, r.maxRSS)
				if i%2 == 0 {
					baseRun(false)
				}
				if job.edited {
					store, err := os.ReadFile(storePath)
					if err != nil {
						b.Fatal(err)
					}
					write(b, storePath, fmt.Appendf(store, "# edit %d\n", i))
					if i%2 == 1 {
						baseRun(true)
					}
					r := fresh()
					editedTook, editedPeak = editedTook+r.took, max(editedPeak, r.maxRSS)
					if i%2 == 0 {
						baseRun(true)
					}
				}
				if naive != "" {
					naiveRun := func(args ...string) time.Duration { // into an empty folder, as fresh does
						os.RemoveAll(naiveDir)
						os.MkdirAll(naiveDir, 0o755)
						return measuredRun(b, runner, env, naiveDir, naive, append([]string{input}, args...)...).took
					}
					naiveTook += naiveRun()
					durableTook += naiveRun("-durable")
				}
			}
			took /= time.Duration(b.N)
			b.ReportMetric(float64(took.Microseconds())/1000, "ms")
			b.ReportMetric(float64(peak)/(1<<20), "MiB-peak")
			if base != "" {
				baseTook /= time.Duration(b.N)
				b.ReportMetric(float64(baseTook.Microseconds())/1000, "ms-base")
				b.ReportMetric(float64(basePeak)/(1<<20), "MiB-peak-base")
				b.ReportMetric(float64(took)/float64(baseTook), "x-base")
				if job.edited {
					b.ReportMetric(float64((baseEditedTook/time.Duration(b.N)).Microseconds())/1000, "ms-base-edited")
				}
			}
			if job.servers == 50 {
				naiveTook, durableTook = naiveTook/time.Duration(b.N), durableTook/time.Duration(b.N)
				b.ReportMetric(float64(naiveTook.Microseconds())/1000, "ms-naive")
				b.ReportMetric(float64(durableTook.Microseconds())/1000, "ms-naive-durable")
				benchgoal.Ratio(b, "x-naive", float64(took)/float64(naiveTook), 3)
				b.ReportMetric(float64(took)/float64(durableTook), "x-naive-durable")
				start := measuredRun(b, runner, env, proj, startOnly, "export", "--scope", "project", "--to", clients)
				b.ReportMetric(float64(start.maxRSS)/(1<<20), "MiB-peak-start-only")
				benchgoal.Ratio(b, "x-12MiB", float64(peak)/(12<<20), 1)
				return
			}
			if job.edited {
				b.ReportMetric(float64((editedTook/time.Duration(b.N)).Microseconds())/1000, "ms-edited")
				b.ReportMetric(float64(editedPeak)/(1<<20), "MiB-peak-edited")
				return
			}
			benchgoal.Ratio(b, "x-3s", took.Seconds()/3, 1)
			benchgoal.Ratio(b, "x-300MB", float64(peak)/300e6, 1)
		})
	}
}

// freshProject leaves proj with its store and .git only, and home with no
// state: the next export writes every client file new.
func freshProject(home, proj string) {
	entries, _ := os.ReadDir(proj)
	for _, e := range entries {
		if e.Name() != "mcpsync.hcl" && e.Name() != ".git" {
			os.RemoveAll(filepath.Join(proj, e.Name()))
		}
	}
	os.RemoveAll(filepath.Join(home, ".local", "state"))
}

// run is one process's wall time and peak resident memory (bytes).
type run struct {
	took   time.Duration
	maxRSS int64
}

// timeRun runs name with args in dir and env, and fails b if it fails.
func timeRun(b *testing.B, env []string, dir, name string, args ...string) run {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	t := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	took := time.Since(t)
	return run{took, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10} // Linux: KiB
}

// sandboxEnv is the environment of a run on a machine whose home is home.
func sandboxEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"API_KEY=k", "TOKEN=t", "NO_COLOR=1")
}

// helloWorld builds the floor of a start: a Go program that prints a line.
func helloWorld(b *testing.B) string {
	return buildGoProgram(b, "hello", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n")
}

// buildGoProgram builds a program of one file, source, as name (static:
// CGO_ENABLED=0) and returns where.
func buildGoProgram(b *testing.B, name, source string) string {
	b.Helper()
	dir := b.TempDir()
	write(b, filepath.Join(dir, "go.mod"), []byte("module "+name+"\n\ngo 1.22\n"))
	write(b, filepath.Join(dir, "main.go"), []byte(source))
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", name, err, out)
	}
	return bin
}

// installedBinary builds cmd/mcpsync as the README installs it: static,
// with no C library to load at each start (CGO_ENABLED=0).
func installedBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "mcpsync")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startOnlyBinary builds cmd/mcpsync as installedBinary does, with
// main.startOnly set: the same code, whose main returns at once.
func startOnlyBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "mcpsync-start-only")
	cmd := exec.Command("go", "build", "-ldflags", "-X main.startOnly=1", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// clientIDs names every client the built mcpsync knows.
func clientIDs(b *testing.B, bin string) []string {
	b.Helper()
	out, err := exec.Command(bin, "clients", "--json").Output()
	if err != nil {
		b.Fatalf("mcpsync clients --json: %v", err)
	}
	var clients []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &clients); err != nil {
		b.Fatal(err)
	}
	ids := make([]string, len(clients))
	for i, c := range clients {
		ids[i] = c.ID
	}
	return ids
}
