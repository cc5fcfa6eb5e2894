package main

// Output that never shows a secret-looking literal nor acts on the
// terminal (render.SafeWriter).

import (
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/store"
)

// saveStore writes the store's edits (see engine.SaveStore). The caller
// holds the state lock.
func (a *App) saveStore(st *store.Store) error { return a.engine().SaveStore(st) }

// clearLine takes a live progress line on stderr back to its start.
func (a *App) clearLine() { render.ClearLine(a.Stderr) }

// printExact writes a file's exact bytes (a diff, a converted file) to
// stdout: escaped only on a terminal (see render.SafeWriter).
func (a *App) printExact(s string) error { return render.WriteExact(a.Stdout, s) }
