package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// BenchmarkProcessScaling holds linear cost as a user gets it: each verb
// run by the built mcpsync, a process each (the collector tuned and the
// heap marked as main does them), at 1,000 and at 10,000 servers, on the
// five clients' project files. x-from-1000 is the cost at 10,000 over the
// cost at 1,000: at most 11 (10 is linear).
//
// engine's BenchmarkScaling times the engine calls alone, both sizes in
// one test process under the command's collector settings, where a call
// at 1,000 servers, with no process around it, runs almost without a
// collection (GOGC 400 on a small heap) and one at 10,000 under the memory
// limit; this one runs them as a user does, the start included. The 1,000
// server runs are repeated five times as often, so that neither size is
// timed from a handful of short runs.
//
//	go test ./cmd/mcpsync -run '^$' -bench ProcessScaling -benchtime 3x
func BenchmarkProcessScaling(b *testing.B) {
	if testing.Short() {
		b.Skip("10,000 servers: not with -short")
	}
	bin := mcpsyncBinary(b)
	const five = "claude-code,cursor,vscode,codex,opencode"
	type sandbox struct {
		home, proj, cursor, paste string
		env                       []string
	}
	clean := func(s sandbox) { freshProject(s.home, s.proj) }
	newSandbox := func(n int) sandbox {
		home := b.TempDir()
		s := sandbox{home: home, proj: filepath.Join(home, "proj"), env: sandboxEnv(home)}
		write(b, filepath.Join(s.proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
		write(b, filepath.Join(s.proj, "mcpsync.hcl"), []byte(benchStore(n)))
		timeRun(b, s.env, s.proj, bin, "export", "--scope", "project", "--to", five)
		// Cursor's file is what convert reads and what add pastes.
		data, err := os.ReadFile(filepath.Join(s.proj, ".cursor", "mcp.json"))
		if err != nil {
			b.Fatal(err)
		}
		s.cursor, s.paste = filepath.Join(home, "cursor.json"), filepath.Join(home, "paste.json")
		write(b, s.cursor, data)
		write(b, s.paste, data)
		return s
	}
	small, large := newSandbox(1000), newSandbox(10000)
	userStore := func(s sandbox) string { return filepath.Join(s.home, ".config", "mcpsync", "mcpsync.hcl") }
	off := map[string]bool{} // by project: whether disable-enable last switched its server off
	verbs := []struct {
		name  string
		setup func(s sandbox) // untimed, before each run
		args  func(s sandbox) []string
	}{
		{"export", clean, func(sandbox) []string { return []string{"export", "--scope", "project", "--to", five} }},
		{"noop-export", nil, func(sandbox) []string { return []string{"export", "--scope", "project", "--to", five} }},
		{"diff", nil, func(sandbox) []string { return []string{"diff", "--scope", "project", "--to", five} }},
		{"sync", nil, func(sandbox) []string { return []string{"sync", "--scope", "project", "--only", five} }},
		{"import", nil, func(sandbox) []string { return []string{"import", "--from", "cursor", "--scope", "project"} }},
		{"add", func(s sandbox) { os.Remove(userStore(s)) }, func(s sandbox) []string { return []string{"add", "--file", s.paste} }},
		{"convert", nil, func(s sandbox) []string { return []string{"convert", "--from", "cursor", "--to", "codex", s.cursor} }},
		// An edit of one server in the project's store, off and on in turn.
		{"disable-enable", nil, func(s sandbox) []string {
			off[s.proj] = !off[s.proj]
			verb := map[bool]string{true: "disable", false: "enable"}[off[s.proj]]
			return []string{verb, "--scope", "project", "fs-00030"}
		}},
	}
	const repeatSmall = 5
	for _, v := range verbs {
		b.Run(v.name, func(b *testing.B) {
			once := func(s sandbox) time.Duration {
				if v.setup != nil {
					v.setup(s)
				}
				return timeRun(b, s.env, s.proj, bin, v.args(s)...).took
			}
			once(small) // the state each verb leaves (export's fresh files, add's store) is in place
			once(large)
			var t1, t2 time.Duration
			for range b.N {
				t2 += once(large)
				for range repeatSmall {
					t1 += once(small)
				}
			}
			t1 /= time.Duration(b.N * repeatSmall)
			t2 /= time.Duration(b.N)
			b.ReportMetric(float64(t1.Microseconds())/1000, "ms-1000")
			b.ReportMetric(float64(t2.Microseconds())/1000, "ms-10000")
			benchgoal.Ratio(b, "x-from-1000", float64(t2)/float64(t1), 11)
		})
	}
	clean(small)
	clean(large)
}
