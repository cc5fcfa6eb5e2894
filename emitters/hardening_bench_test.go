package emitters_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// plan200 is the plan of BenchmarkPlanExport200: a 200-server store to
// every client's user file.
func plan200(b testing.TB) *emitters.Plan {
	reg := all.NewRegistry(all.Options{})
	home := b.TempDir()
	env := formats.Env{Home: home, OS: "linux", Getenv: func(string) string { return "" }}
	var targets []emitters.Target
	for _, ad := range reg.All() {
		for _, loc := range ad.Locations(env) {
			if loc.Scope == canonical.ScopeUser && !loc.ReadOnly {
				targets = append(targets, emitters.Target{Adapter: ad, Location: loc})
				break
			}
		}
	}
	p := emitters.PlanExport(targets, emitters.ExportOptions{Servers: store200()})
	if err := p.Err(); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkDiffPlain200 renders the diff of plan200 unmasked (--show-secrets).
func BenchmarkDiffPlain200(b *testing.B) {
	p := plan200(b)
	b.ReportAllocs()
	for b.Loop() {
		if p.Diff(emitters.DiffOptions{}) == "" {
			b.Fatal("empty diff")
		}
	}
}

// BenchmarkDiffMasked200 renders the same diff masked, as diff and export
// --dry-run print it: the plan's own secrets and every line rule.
func BenchmarkDiffMasked200(b *testing.B) {
	p := plan200(b)
	b.ReportAllocs()
	for b.Loop() {
		if p.Diff(emitters.DiffOptions{Mask: p.SecretMask()}) == "" {
			b.Fatal("empty diff")
		}
	}
}

// BenchmarkDiffMaskedX200 times the masked and the plain diff of plan200
// in turn, with a fresh SecretMask each time (as each command makes one):
// x-plain, the masked diff's time over the plain one's, at most 2. It was
// 3.4 before the mask remembered the lines it had masked.
func BenchmarkDiffMaskedX200(b *testing.B) {
	p := plan200(b)
	var plain, masked time.Duration
	for range b.N {
		t0 := time.Now()
		p.Diff(emitters.DiffOptions{})
		t1 := time.Now()
		p.Diff(emitters.DiffOptions{Mask: p.SecretMask()})
		plain, masked = plain+t1.Sub(t0), masked+time.Since(t1)
	}
	b.ReportMetric(float64(plain.Microseconds())/1000/float64(b.N), "ms-plain")
	b.ReportMetric(float64(masked.Microseconds())/1000/float64(b.N), "ms-masked")
	benchgoal.Ratio(b, "x-plain", float64(masked)/float64(plain), 2)
}

// BenchmarkFingerprint200 times the fingerprint of plan200 (what serve
// names a plan by) and its plain diff (what it named a plan by before)
// in turn: x-diff, the first over the second, at most 0.5.
func BenchmarkFingerprint200(b *testing.B) {
	p := plan200(b)
	var fingerprint, diff time.Duration
	for range b.N {
		t0 := time.Now()
		if p.Fingerprint() == "" {
			b.Fatal("no fingerprint")
		}
		t1 := time.Now()
		p.Diff(emitters.DiffOptions{})
		fingerprint, diff = fingerprint+t1.Sub(t0), diff+time.Since(t1)
	}
	b.ReportMetric(float64(fingerprint.Microseconds())/1000/float64(b.N), "ms-fingerprint")
	b.ReportMetric(float64(diff.Microseconds())/1000/float64(b.N), "ms-diff")
	benchgoal.Ratio(b, "x-diff", float64(fingerprint)/float64(diff), 0.5)
}

// backups makes n applies of one-line changes to 4 files, as a long-used
// machine would have: n backup directories.
func backups(b *testing.B, n int) string {
	dir := b.TempDir()
	stateDir := filepath.Join(dir, "state")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var paths []string
	for i := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("f%d.json", i))
		os.WriteFile(p, []byte("v0\n"), 0o600)
		paths = append(paths, p)
	}
	for i := range n {
		p := paths[i%len(paths)]
		before, _ := os.ReadFile(p)
		plan := emitters.PlanWrite(p, "", before, []byte(fmt.Sprintf("v%d\n", i+1)))
		if _, err := emitters.Apply(plan, emitters.ApplyOptions{StateDir: stateDir, Command: "export",
			Now: func() time.Time { return t0.Add(time.Duration(i) * time.Minute) }, Retention: &emitters.Retention{}}); err != nil {
			b.Fatal(err)
		}
	}
	return stateDir
}

// BenchmarkListBackups200 lists 200 backups (what restore --list reads).
func BenchmarkListBackups200(b *testing.B) {
	stateDir := backups(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		bs, err := emitters.ListBackups(stateDir)
		if err != nil || len(bs) != 200 {
			b.Fatal(len(bs), err)
		}
	}
}

// BenchmarkPruneBackupsKept80 is the pruning after every apply when
// nothing is old enough to go: 80 backups, 20 per file.
func BenchmarkPruneBackupsKept80(b *testing.B) {
	stateDir := backups(b, 80)
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		if touched, err := emitters.PruneBackups(stateDir, emitters.DefaultRetention, now); err != nil || len(touched) != 0 {
			b.Fatal(touched, err)
		}
	}
}

// BenchmarkPlanRestoreAll200 plans undoing the last of 200 applies.
func BenchmarkPlanRestoreAll200(b *testing.B) {
	stateDir := backups(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		p, err := emitters.PlanRestore(stateDir, emitters.RestoreOptions{All: true})
		if err != nil || len(p.Changes()) != 1 {
			b.Fatal(err)
		}
	}
}
