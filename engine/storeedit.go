package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/store"
)

// StoreEdit is a planned edit of the store (remove, enable, disable):
// Store holds it in memory; Apply saves it. Close lets the lock go.
type StoreEdit struct {
	Store *store.Store
	Diags canonical.Diagnostics
	Notes []string

	e    *Engine
	lock *ledger.Lock
}

// Close releases the lock of an edit planned for writing.
func (r *StoreEdit) Close() {
	if r != nil {
		r.lock.Unlock()
	}
}

// Apply saves the edited store (backed up, drift-checked, atomic).
func (r *StoreEdit) Apply() error { return r.e.SaveStore(r.Store) }

// editStore takes the lock (not for a dry run) and opens the store of
// scope, so that the lock is held from reading the store to its save.
func (e *Engine) editStore(scope canonical.Scope, dryRun bool) (*StoreEdit, error) {
	scope = orUser(scope)
	r := &StoreEdit{e: e}
	if !dryRun {
		lock, err := e.Lock()
		if err != nil {
			return nil, err
		}
		r.lock = lock
	}
	st, ds, err := e.OpenStore(scope)
	r.Diags = ds
	if err != nil {
		r.Close()
		return nil, err
	}
	r.Store = st
	if note := e.StoreNote(st); note != "" {
		r.Notes = append(r.Notes, note)
	}
	return r, nil
}

// Remove plans taking servers out of the store of scope. Every name must be
// in the store: if one is not, the error says which (a team source's
// server says where it comes from) and nothing is removed.
func (e *Engine) Remove(scope canonical.Scope, names []string) (*StoreEdit, error) {
	if len(names) == 0 {
		return nil, Usagef("name the servers to remove, for example: mcpsync remove github")
	}
	names = slices.Compact(slices.Clone(names))
	r, err := e.editStore(scope, false)
	if err != nil {
		return nil, err
	}
	st := r.Store
	var unknown []string
	for _, n := range names {
		if _, ok := st.Servers.Get(n); !ok {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		r.Close()
		var b strings.Builder
		fmt.Fprintf(&b, "%s not in %s; nothing was removed", DescribeNames("server", unknown), e.StoreDisplay(st.Path))
		have := st.Servers.Names()
		team, _ := desired.Load(st, e.Dirs.State) // a hint only: nil on a damaged record
		for _, n := range unknown {
			if team != nil {
				if src, _ := team.SourceOf(n); src != "" {
					fmt.Fprintf(&b, "\n  %s: comes from team source %s, not the store; 'mcpsync source remove %s' takes all its servers out of your clients, "+
						"or keep this one out of a client with 'mcpsync disable %s --client CLIENT'", n, src, src, ShellWord(n))
					continue
				}
			}
			if s := store.Suggest(n, have); s != "" {
				fmt.Fprintf(&b, "\n  %s: did you mean %q?", n, s)
			}
		}
		if len(have) > 0 {
			fmt.Fprintf(&b, "\nThe store has: %s", strings.Join(have, ", "))
		} else {
			b.WriteString("\nThe store has no servers.")
		}
		return nil, fmt.Errorf("%s", b.String())
	}
	for _, n := range names {
		st.Remove(n)
	}
	return r, nil
}

// SwitchOptions say what enable (On) or disable switches.
type SwitchOptions struct {
	On    bool
	Scope canonical.Scope
	Names []string
	// Clients, when not empty, changes those clients' rules in the store
	// instead of the server's own switch.
	Clients []string
	// ClientSet: --client was given (an empty list is then an error).
	ClientSet bool
	DryRun    bool
}

// SwitchChange is what enable or disable did to one server, for one client
// or (Client "") for every client.
type SwitchChange struct {
	Server string `json:"server"`
	Client string `json:"client,omitempty"`
	// Action is "enabled", "disabled" or "unchanged".
	Action string `json:"action"`
	// Source names the team source the server comes from.
	Source string `json:"source,omitempty"`
}

// SwitchRun is a planned enable or disable.
type SwitchRun struct {
	*StoreEdit
	Changes []SwitchChange
	Clients []formats.Adapter
}

// Switch plans switching servers on or off, for every client (the server's
// own disabled flag) or for some (their rules in the store). Every name
// must be in the store, or with Clients come from a team source.
func (e *Engine) Switch(o SwitchOptions) (*SwitchRun, error) {
	verb := map[bool]string{true: "enable", false: "disable"}[o.On]
	if len(o.Names) == 0 {
		return nil, Usagef("name the servers to %s, for example: mcpsync %s github --client cursor", verb, verb)
	}
	var names []string
	for _, n := range o.Names {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	run := &SwitchRun{}
	if o.ClientSet {
		var err error
		if run.Clients, err = e.switchClients(verb, o.Clients); err != nil {
			return nil, err
		}
	}
	edit, err := e.editStore(o.Scope, o.DryRun)
	if err != nil {
		return nil, err
	}
	run.StoreEdit = edit
	st := edit.Store
	sourceOf, err := e.checkSwitchNames(st, verb, names, run.Clients)
	if err != nil {
		edit.Close()
		return nil, err
	}
	if len(run.Clients) == 0 {
		for _, n := range names {
			srv, _ := st.Servers.Get(n)
			c := SwitchChange{Server: n, Action: "unchanged"}
			if srv.Disabled == o.On {
				srv.Disabled = !o.On
				st.Put(srv)
				c.Action = verb + "d"
			}
			run.Changes = append(run.Changes, c)
		}
	}
	for _, ad := range run.Clients {
		for _, n := range names {
			c := SwitchChange{Server: n, Client: ad.ID(), Action: "unchanged", Source: sourceOf[n]}
			if st.Allows(ad.ID(), n) != o.On {
				rule := st.Clients[ad.ID()]
				if o.On {
					rule = rule.With(n)
				} else {
					rule = rule.Without(n)
				}
				st.SetClientRule(ad.ID(), rule)
				c.Action = verb + "d"
			}
			run.Changes = append(run.Changes, c)
		}
	}
	return run, nil
}

// switchClients looks up --client: client ids as 'mcpsync clients' lists
// them (or their aliases), each once; a typo is a usage error with the
// nearest id.
func (e *Engine) switchClients(verb string, ids []string) ([]formats.Adapter, error) {
	if len(ids) == 0 {
		return nil, Usagef("--client needs a client, for example --client cursor (see 'mcpsync clients')")
	}
	var out []formats.Adapter
	for _, id := range ids {
		if id == "all" {
			return nil, Usagef("--client all: leave --client out to %s the server for every client (its own switch), or name the clients", verb)
		}
		ad, err := e.Registry().Lookup(id)
		if err != nil {
			return nil, UsageError{Err: fmt.Errorf("--client: %w", err)}
		}
		if !slices.ContainsFunc(out, func(o formats.Adapter) bool { return o.ID() == ad.ID() }) {
			out = append(out, ad)
		}
	}
	return out, nil
}

// checkSwitchNames makes sure every name is a server of the store, or,
// with --client, of one of its team sources; it returns the source of
// each team server. Nothing is changed when one is not.
func (e *Engine) checkSwitchNames(st *store.Store, verb string, names []string, clients []formats.Adapter) (map[string]string, error) {
	var missing []string
	for _, n := range names {
		if _, ok := st.Servers.Get(n); !ok {
			missing = append(missing, n)
		}
	}
	sourceOf := map[string]string{}
	if len(missing) == 0 {
		return sourceOf, nil
	}
	team, err := desired.Load(st, e.Dirs.State)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, n := range missing {
		src, _ := team.SourceOf(n)
		switch {
		case src != "" && len(clients) > 0:
			sourceOf[n] = src
		case src != "":
			how := "Keep it from a client with"
			if verb == "enable" {
				how = "Let a client have it with"
			}
			problems = append(problems, fmt.Sprintf("%s comes from team source %s, not the store: only the source can switch it off or on for every client.\n"+
				"  %s: mcpsync %s %s --client CLIENT", n, src, how, verb, n))
		default:
			msg := fmt.Sprintf("server %q is not in %s", n, e.StoreDisplay(st.Path))
			candidates := st.Servers.Names()
			for _, srv := range team.Set.Servers {
				if team.FromSource[srv.Name] != "" {
					candidates = append(candidates, srv.Name)
				}
			}
			if s := store.Suggest(n, candidates); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			problems = append(problems, msg)
		}
	}
	if len(problems) == 0 {
		return sourceOf, nil
	}
	return nil, fmt.Errorf("%s\nNothing was changed; list the servers with: mcpsync list", strings.Join(problems, "\n"))
}
