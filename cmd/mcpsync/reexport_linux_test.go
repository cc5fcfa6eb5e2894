package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkProcessReexport times the export a user runs most: the store
// just edited, and every client's file, the state and the backups of the
// earlier writes already in place. Each iteration moves one server's
// argument back or forth and exports the 50 servers to the five clients
// of BenchmarkProcess, so that each run changes one entry in every file
// (and reads the store where it changed: the parse cache holds the parse
// of the text before the edit, and that text, store.ParseCached),
// backs the five files up and prunes the backups, twenty per file. ms-fresh
// is the first export of the same servers, timed in turn: x-fresh, the
// re-export over it.
//
// With MCPSYNC_BENCH_BASE set to another build of mcpsync, that build
// runs the same job in a home of its own, in turn (ABBA): ms-base, x-base.
func BenchmarkProcessReexport(b *testing.B) {
	const clients = "claude-code,cursor,vscode,codex,opencode"
	bin := installedBinary(b)
	runner := peakRunner(b)
	type sandbox struct {
		bin, home, proj string
		env             []string
		store           [2][]byte // the store and its edit, in turn
		runs            int
	}
	newSandbox := func(bin string) *sandbox {
		home := b.TempDir()
		s := &sandbox{bin: bin, home: home, proj: filepath.Join(home, "proj"), env: sandboxEnv(home)}
		orig := benchStore(50)
		s.store = [2][]byte{[]byte(orig), []byte(strings.Replace(orig, `"/srv/0"`, `"/srv/0-edited"`, 1))}
		write(b, filepath.Join(s.proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
		return s
	}
	reexport := func(s *sandbox) run {
		s.runs++
		write(b, filepath.Join(s.proj, "mcpsync.hcl"), s.store[s.runs%2])
		return measuredRun(b, runner, s.env, s.proj, s.bin, "export", "--scope", "project", "--to", clients)
	}
	fresh := func(s *sandbox) run {
		freshProject(s.home, s.proj)
		write(b, filepath.Join(s.proj, "mcpsync.hcl"), s.store[0])
		return measuredRun(b, runner, s.env, s.proj, s.bin, "export", "--scope", "project", "--to", clients)
	}
	own := newSandbox(bin)
	var base *sandbox
	if path := os.Getenv("MCPSYNC_BENCH_BASE"); path != "" {
		base = newSandbox(path)
	}
	// Twenty-one writes of every file: the backups are at the retention's
	// twenty per file, and the next write prunes one.
	history := func(s *sandbox) {
		fresh(s)
		for range 21 {
			reexport(s)
		}
	}
	history(own)
	if base != nil {
		history(base)
	}
	first := newSandbox(bin) // the fresh exports: each empties its state and backups
	var took, freshTook, baseTook time.Duration
	var peak int64
	jobs := []func(){
		func() { r := reexport(own); took, peak = took+r.took, max(peak, r.maxRSS) },
		func() { freshTook += fresh(first).took },
	}
	if base != nil {
		jobs = append(jobs, func() { baseTook += reexport(base).took })
	}
	for i := range b.N {
		for j := range jobs { // in turn, and back every other time (ABBA)
			if i%2 == 1 {
				j = len(jobs) - 1 - j
			}
			jobs[j]()
		}
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64((took/n).Microseconds())/1000, "ms")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak")
	b.ReportMetric(float64((freshTook/n).Microseconds())/1000, "ms-fresh")
	b.ReportMetric(float64(took)/float64(freshTook), "x-fresh")
	if base != nil {
		b.ReportMetric(float64((baseTook/n).Microseconds())/1000, "ms-base")
		b.ReportMetric(float64(took)/float64(baseTook), "x-base")
	}
}
