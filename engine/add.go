package engine

import (
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/store"
)

// AddOptions say which servers to put in which store.
type AddOptions struct {
	// Scope is the store: user or project (StorePath wins).
	Scope   canonical.Scope
	Servers []canonical.Server
	// Force replaces a server of the same name; without it, a name taken by
	// a different definition refuses the whole add.
	Force bool
	// To also writes the servers into these clients' files, in the same
	// step: planned before the store is saved, so that a client file that
	// cannot take them leaves everything as it was.
	To     []string
	DryRun bool
}

// AddOutcome is what add does to one server: added, replaced, unchanged.
type AddOutcome struct {
	Name   string `json:"name"`
	Action string `json:"action"`
}

// AddRun is a planned add: Store holds the servers in memory (its Bytes are
// what Apply saves), Export the clients' files with To.
type AddRun struct {
	Store    *store.Store
	Outcomes []AddOutcome
	Export   *ExportRun
	Diags    canonical.Diagnostics
	Notes    []string

	e    *Engine
	o    AddOptions
	lock *ledger.Lock
}

// Close releases the lock of a run planned for writing.
func (r *AddRun) Close() {
	if r != nil {
		r.lock.Unlock()
	}
}

// Add plans putting servers into the store of scope with add's rules: a
// server whose name is taken by another definition is refused unless Force
// (and then nothing at all is written), an identical one is left alone.
// The resolver adds through it too.
func (e *Engine) Add(o AddOptions) (*AddRun, error) {
	o.Scope = orUser(o.Scope)
	run := &AddRun{e: e, o: o}
	if !o.DryRun {
		lock, err := e.Lock()
		if err != nil {
			return nil, err
		}
		run.lock = lock
	}
	if err := e.planAdd(run); err != nil {
		run.Close()
		return nil, err
	}
	return run, nil
}

func (e *Engine) planAdd(run *AddRun) error {
	o := run.o
	st, ds, err := e.OpenStore(o.Scope)
	run.Diags = append(run.Diags, ds...)
	if err != nil {
		return err
	}
	run.Store = st
	if note := e.StoreNote(st); note != "" {
		run.Notes = append(run.Notes, note)
	}
	run.Diags = append(run.Diags, literalSecretWarnings(o.Servers)...)
	run.Diags = append(run.Diags, notNFCWarnings(o.Servers)...)
	var taken []string
	get, put := st.Indexed()
	for _, srv := range o.Servers {
		srv = srv.Clone()
		srv.Origin = canonical.Pos{}
		old, exists := get(srv.Name)
		switch {
		case !exists:
			run.Outcomes = append(run.Outcomes, AddOutcome{srv.Name, "added"})
		case SameServer(old, srv):
			run.Outcomes = append(run.Outcomes, AddOutcome{srv.Name, "unchanged"})
			continue
		case !o.Force:
			taken = append(taken, srv.Name)
			continue
		default:
			run.Outcomes = append(run.Outcomes, AddOutcome{srv.Name, "replaced"})
		}
		put(srv)
	}
	if len(taken) > 0 {
		return fmt.Errorf("%s already in %s with a different definition; nothing was added.\n"+
			"Use --force to replace %s, or remove %s first (mcpsync remove %s)",
			DescribeNames("server", taken), e.StoreDisplay(st.Path), Them(taken), Them(taken), strings.Join(taken, " "))
	}
	if len(o.To) > 0 {
		// The clients' files are planned now, with the store as it is
		// about to be saved.
		names := make([]string, len(o.Servers))
		for i, s := range o.Servers {
			names[i] = s.Name
		}
		if run.Export, err = e.ExportOf(st, ExportOptions{To: o.To, Scope: st.Scope, Servers: names, DryRun: o.DryRun}); err != nil {
			return err
		}
		run.Diags = append(run.Diags, run.Export.Diags...)
		run.Notes = append(run.Notes, run.Export.Notes...)
	}
	return nil
}

// Apply saves the store and, with To, writes the clients' files. A plan
// with errors in a client file writes nothing, the store included.
func (r *AddRun) Apply() (*emitters.Result, error) {
	if r.Export != nil {
		if err := problems(r.Export.Plan.Diags, "no file was written"); err != nil {
			return nil, err
		}
	}
	if err := r.e.SaveStore(r.Store); err != nil {
		return nil, err
	}
	if r.Export == nil {
		return nil, nil
	}
	res, err := r.Export.Apply()
	if err != nil {
		names := make([]string, len(r.o.Servers))
		for i, s := range r.o.Servers {
			names[i] = s.Name
		}
		return nil, fmt.Errorf("%s is saved; writing the clients' files failed, so run 'mcpsync export %s --to %s' again: %w",
			r.e.StoreDisplay(r.Store.Path), strings.Join(names, " "), strings.Join(r.o.To, ","), err)
	}
	return res, nil
}

// SameServer compares two servers in everything the store keeps, every
// client's extra keys included.
func SameServer(a, b canonical.Server) bool {
	var clients []string
	for c := range a.Extra {
		clients = append(clients, c)
	}
	for c := range b.Extra {
		clients = append(clients, c)
	}
	return canonical.Equal(a, b, clients...)
}
