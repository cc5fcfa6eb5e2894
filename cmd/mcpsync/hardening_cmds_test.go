package main

import (
	"path/filepath"
	"sync"

	"github.com/mcpsync/mcpsync/ledger"
	"github.com/rogpeppe/go-internal/testscript"
)

// heldLocks are the state locks taken by holdlock, per script work dir.
var heldLocks sync.Map

func init() {
	// holdlock: take mcpsync's state lock (of $XDG_STATE_HOME/mcpsync) in
	// the test process, as another mcpsync would, until releaselock.
	scriptCmds["holdlock"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: holdlock")
		}
		dir := filepath.Join(ts.Getenv("XDG_STATE_HOME"), "mcpsync")
		l, err := ledger.AcquireWith(dir, ledger.LockOptions{Command: "export --to all (held by the test)"})
		ts.Check(err)
		heldLocks.Store(ts.Getenv("WORK"), l)
	}
	scriptCmds["releaselock"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: releaselock")
		}
		if l, ok := heldLocks.LoadAndDelete(ts.Getenv("WORK")); ok {
			ts.Check(l.(*ledger.Lock).Unlock())
		}
	}
}
