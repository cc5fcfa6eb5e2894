package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// peakRunnerSource is a program that runs another (its arguments after
// the first) and writes the other's wall time and peak resident memory to
// the file its first argument names.
//
// Why a program of its own: Go starts a child with vfork (CLONE_VM, the
// child shares the parent's memory until it execs), and at the exec Linux
// folds the peak of the memory being left, the parent's, into the child's
// ru_maxrss. A child of this test binary therefore reports at least the
// test binary's own peak (measured: a harness that had read a 28 MB file
// saw every child, a Go hello world too, at 57 MiB; a process of its own
// puts the hello world at 1.8 MiB). The runner is a small Go program, about
// 2 MiB resident when it starts its child, below any mcpsync run.
const peakRunnerSource = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	t := time.Now()
	err := cmd.Run()
	took := time.Since(t)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(127)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if werr := os.WriteFile(os.Args[1], []byte(fmt.Sprint(took.Nanoseconds(), " ", rss<<10)), 0o644); werr != nil {
		fmt.Fprintln(os.Stderr, werr)
		os.Exit(127)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
`

// peakRunner builds the program of peakRunnerSource.
func peakRunner(b *testing.B) string { return buildGoProgram(b, "peakrun", peakRunnerSource) }

// measuredRun runs name with args in dir and env through runner (a
// peakRunner), and fails b if it fails: its wall time and its own peak
// resident memory, not this test binary's.
func measuredRun(b *testing.B, runner string, env []string, dir, name string, args ...string) run {
	b.Helper()
	report := filepath.Join(b.TempDir(), "run")
	cmd := exec.Command(runner, append([]string{report, name}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		b.Fatal(err)
	}
	var r run
	var ns int64
	if _, err := fmt.Sscan(string(data), &ns, &r.maxRSS); err != nil {
		b.Fatalf("peakrun's report %q: %v", data, err)
	}
	r.took = time.Duration(ns)
	return r
}
