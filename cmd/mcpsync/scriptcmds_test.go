package main

import (
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// exitcode N prog args...: run prog and require exit code N; stdout and
	// stderr are kept for the stdout/stderr commands that follow.
	scriptCmds["exitcode"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: exitcode N program [args...]")
		}
		want, err := strconv.Atoi(args[0])
		if err != nil {
			ts.Fatalf("exitcode: %v", err)
		}
		got := 0
		if err := ts.Exec(args[1], args[2:]...); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				ts.Fatalf("exitcode: %v", err)
			}
			got = ee.ExitCode()
		}
		if got != want {
			ts.Fatalf("exit code %d, want %d", got, want)
		}
	}
}
