package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// replace OLD NEW FILE: a hand edit, every OLD in FILE becoming NEW;
	// OLD must be there.
	scriptCmds["replace"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: replace OLD NEW FILE")
		}
		text := ts.ReadFile(args[2])
		if !strings.Contains(text, args[0]) {
			ts.Fatalf("%s does not hold %q", args[2], args[0])
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(strings.ReplaceAll(text, args[0], args[1])), 0o600))
	}
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

	// greptree PATTERN DIR [NAME]: some file under DIR (every file,
	// recursively, or those whose name matches the glob NAME) matches the
	// regular expression; with !, none does.
	scriptCmds["greptree"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 && len(args) != 3 {
			ts.Fatalf("usage: greptree PATTERN DIR [NAME]")
		}
		glob := "*"
		if len(args) == 3 {
			glob = args[2]
		}
		re, err := regexp.Compile(args[0])
		ts.Check(err)
		var hits []string
		root := ts.MkAbs(args[1])
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if ok, _ := filepath.Match(glob, d.Name()); !ok {
				return nil
			}
			data, err := os.ReadFile(path)
			if err == nil && re.Match(data) {
				hits = append(hits, path)
			}
			return err
		})
		ts.Check(err)
		switch {
		case neg && len(hits) > 0:
			ts.Fatalf("%s matches %q", hits[0], args[0])
		case !neg && len(hits) == 0:
			ts.Fatalf("no file under %s matches %q", args[1], args[0])
		}
	}

	// unescape SRC DST: copy SRC to DST with \e, \a, \r and \xNN turned
	// into the bytes they name, for files that hold raw control characters.
	scriptCmds["unescape"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: unescape SRC DST")
		}
		text := strings.NewReplacer(`\e`, "\x1b", `\a`, "\a", `\r`, "\r").Replace(ts.ReadFile(args[0]))
		text = hexEscape.ReplaceAllStringFunc(text, func(m string) string {
			n, _ := strconv.ParseUint(m[2:], 16, 8)
			return string([]byte{byte(n)})
		})
		dst := ts.MkAbs(args[1])
		ts.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
		ts.Check(os.WriteFile(dst, []byte(text), 0o644))
	}
}

var hexEscape = regexp.MustCompile(`\\x[0-9a-fA-F]{2}`)

func init() {
	// mkfifo PATH: make a named pipe (skips the script where there is none).
	scriptCmds["mkfifo"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: mkfifo PATH")
		}
		if err := mkfifo(ts.MkAbs(args[0])); err != nil {
			ts.Fatalf("no named pipes here: %v (guard the script with [unix])", err)
		}
	}
}
