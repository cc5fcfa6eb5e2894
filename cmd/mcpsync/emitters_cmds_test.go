package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// mcpsync-racing-editor runs mcpsync, but appends a line to $DRIFT_FILE
	// after mcpsync checked the files and before it writes, as an editor
	// saving at the wrong moment would.
	testCommands["mcpsync-racing-editor"] = func() {
		os.Exit(mainWith(os.Args[1:], engine.Hooks{BeforeApply: func([]string) {
			f, err := os.OpenFile(os.Getenv("DRIFT_FILE"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				panic(err)
			}
			f.WriteString("\n")
			f.Close()
		}}))
	}

	// mcpsync-link-swapper runs mcpsync, but right after mcpsync checked
	// the files and before it writes, replaces the directory $SWAP_DIR with
	// a link to $SWAP_TARGET, as a concurrent git checkout of a hostile
	// branch could.
	testCommands["mcpsync-link-swapper"] = func() {
		os.Exit(mainWith(os.Args[1:], engine.Hooks{BeforeApply: func([]string) {
			dir := os.Getenv("SWAP_DIR")
			if err := os.Rename(dir, dir+".was"); err != nil {
				panic(err)
			}
			if err := os.Symlink(os.Getenv("SWAP_TARGET"), dir); err != nil {
				panic(err)
			}
		}}))
	}

	// hashfiles OUT FILE...: write "sha256  FILE" (or "absent  FILE") per
	// file to OUT, to prove later that nothing was touched.
	scriptCmds["hashfiles"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: hashfiles OUT FILE...")
		}
		var b strings.Builder
		for _, f := range args[1:] {
			data, err := os.ReadFile(ts.MkAbs(f))
			if err != nil {
				fmt.Fprintf(&b, "absent  %s\n", f)
				continue
			}
			sum := sha256.Sum256(data)
			fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), f)
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
	}

	// crlf FILE: convert the file's line endings to CRLF.
	scriptCmds["crlf"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: crlf FILE")
		}
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
	}

	// hascrlf FILE: every line of the file ends with CRLF.
	scriptCmds["hascrlf"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: hascrlf FILE")
		}
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		all := bytes.Count(data, []byte("\n")) == bytes.Count(data, []byte("\r\n")) && bytes.Contains(data, []byte("\r\n"))
		if all == neg {
			ts.Fatalf("%s: CRLF line endings = %v, want %v\n%q", args[0], all, !neg, data)
		}
	}

	// islink FILE: the path is a symbolic link.
	scriptCmds["islink"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: islink FILE")
		}
		fi, err := os.Lstat(ts.MkAbs(args[0]))
		ts.Check(err)
		if (fi.Mode()&os.ModeSymlink != 0) == neg {
			ts.Fatalf("%s: symlink = %v", args[0], !neg)
		}
	}

	// expandwork FILE: replace $WORK in the file by the script's work
	// directory (archive files are not expanded, but ~/.claude.json keys
	// its per-project sections by absolute path).
	scriptCmds["expandwork"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: expandwork FILE")
		}
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		data = bytes.ReplaceAll(data, []byte("$WORK"), []byte(ts.Getenv("WORK")))
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
	}

	// emptydir DIR: the directory is absent or empty.
	scriptCmds["emptydir"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: emptydir DIR")
		}
		entries, err := os.ReadDir(ts.MkAbs(args[0]))
		if err != nil && !os.IsNotExist(err) {
			ts.Fatalf("%s: %v", args[0], err)
		}
		if len(entries) > 0 {
			ts.Fatalf("%s holds %d entries, want none", args[0], len(entries))
		}
	}

	// genstore N FILE: write a store of N stdio servers (srv-0000, ...).
	scriptCmds["genstore"] = func(ts *testscript.TestScript, neg bool, args []string) {
		n, err := strconv.Atoi(args[0])
		if neg || len(args) != 2 || err != nil {
			ts.Fatalf("usage: genstore N FILE")
		}
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "server \"srv-%04d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@scope/server-%04d\"]\n  env     = { API_KEY = env(\"API_KEY\") }\n}\n", i, i)
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
	}

	// dirfiles OUT DIR: write a line per file in DIR, "NAME SIZE MTIME"
	// (nanoseconds), to OUT: to count a directory's files, and to prove
	// later with cmp that none was written again.
	scriptCmds["dirfiles"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: dirfiles OUT DIR")
		}
		entries, err := os.ReadDir(ts.MkAbs(args[1]))
		ts.Check(err)
		var b strings.Builder
		for _, e := range entries {
			fi, err := e.Info()
			ts.Check(err)
			fmt.Fprintf(&b, "%s %d %d\n", e.Name(), fi.Size(), fi.ModTime().UnixNano())
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
	}

	// filemode FILE MODE: the file's permission bits, in octal.
	scriptCmds["filemode"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: filemode FILE 0600")
		}
		fi, err := os.Stat(ts.MkAbs(args[0]))
		ts.Check(err)
		if got := fmt.Sprintf("%04o", fi.Mode().Perm()); got != args[1] {
			ts.Fatalf("%s: mode %s, want %s", args[0], got, args[1])
		}
	}
}
