package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/suggest"
	"github.com/mcpsync/mcpsync/paste"
	"github.com/mcpsync/mcpsync/probe"
	"github.com/mcpsync/mcpsync/store"
)

// ProbeOptions say which servers to start and how.
type ProbeOptions struct {
	// Names limits the probe to these servers, in this order.
	Names []string
	// From reads the servers of a client's files (File: a file in that
	// client's shape); else Data, a pasted snippet named DataName; else
	// the store of Scope.
	From, File string
	Data       []byte
	DataName   string
	Scope      canonical.Scope
	// Probe are the probe's own options: timeout, parallelism, retries,
	// required tools, transports, progress. The engine fills the project
	// directory, the environment, the home directory and which servers are
	// the user's own.
	Probe probe.Options
}

// ProbeResult is a finished probe.
type ProbeResult struct {
	Report probe.Report
	// Servers are the servers probed; Source names where they came from.
	Servers []canonical.Server
	Source  string
	Diags   canonical.Diagnostics
	Notes   []string
}

// Probe starts each server the way a client does and reports whether it
// works. A server of the user's own (the user store, a client's user or
// local file) may run in a cwd outside the project; a project's or a
// snippet's may not. References are expanded from the environment for the
// probe only.
func (e *Engine) Probe(ctx context.Context, o ProbeOptions) (*ProbeResult, error) {
	o.Scope = orUser(o.Scope)
	if o.From == "" && o.Scope == canonical.ScopeLocal {
		return nil, Usagef("--scope local names Claude Code's per-project section; use it with --from claude-code")
	}
	if o.From != "" && e.StorePath != "" {
		return nil, Usagef("--from reads a client's files and --store a store file; choose one")
	}
	res := &ProbeResult{}
	all, own, err := e.probeServers(o, res)
	if err != nil {
		return nil, err
	}
	po := o.Probe
	po.ProjectDir, po.Home = e.ProjectRoot(), e.Dirs.Home
	if po.Getenv == nil {
		po.Getenv = e.LookupEnv
	}
	po.WithDefault = e.defaultSyntax(o)
	if own {
		po.OwnServer = func(string) bool { return true }
	}
	servers, err := pickServers(all, o.Names, res.Source)
	if err != nil {
		return nil, err
	}
	for name := range po.RequireTools {
		if !slices.ContainsFunc(all, func(s canonical.Server) bool { return s.Name == name }) {
			return nil, Usagef("--require-tools %s: %s has no server named %q%s", name, res.Source, name, didYouMean(name, serverNames(all)))
		}
	}
	res.Servers = servers
	res.Report = probe.Run(ctx, servers, po)
	return res, nil
}

// probeServers reads the servers the probe is about: from a client's
// files, a pasted snippet, or the store. own says whether they are the
// user's own rather than a project's or a snippet's.
func (e *Engine) probeServers(o ProbeOptions, res *ProbeResult) (servers []canonical.Server, own bool, err error) {
	switch {
	case o.From != "":
		ad, err := e.Registry().Lookup(o.From)
		if err != nil {
			return nil, false, UsageError{Err: err}
		}
		if o.File == "-" {
			return nil, false, Usagef("--from %s reads files; pipe a snippet without --from: --file -", ad.ID())
		}
		locs, err := e.ClientFiles(ad, o.Scope, o.File)
		if err != nil {
			return nil, false, err
		}
		set, ds, err := e.ReadClient(ad, o.Scope, o.File, locs, "nothing was probed; fix the file and run the command again")
		res.Diags = append(res.Diags, ds...)
		res.Source = ad.ID()
		return set.Servers, o.Scope != canonical.ScopeProject, err
	case o.Data != nil:
		set, ds := paste.Parse(o.Data, paste.Options{File: o.DataName, ExampleValues: true})
		if err := problems(ds, "nothing was probed"); err != nil {
			return nil, false, err
		}
		res.Diags = append(res.Diags, ds...)
		res.Source = o.DataName
		return set.Servers, false, nil
	}
	st, ds, err := e.OpenStore(StoreScope(o.Scope))
	res.Diags = append(res.Diags, ds...)
	if err != nil {
		return nil, false, err
	}
	if note := e.StoreNote(st); note != "" {
		res.Notes = append(res.Notes, note)
	}
	res.Source = e.StoreDisplay(st.Path)
	return st.Servers.Servers, st.Scope == canonical.ScopeUser, nil
}

// defaultSyntax spells a reference with a default in the syntax of the
// file the probed servers come from: the store's env("X", "value"), a
// client's own (none for Codex or Cursor), a pasted snippet's ${X:-value}.
func (e *Engine) defaultSyntax(o ProbeOptions) func(name string) (string, bool) {
	switch {
	case o.From != "":
		if ad, err := e.Registry().Lookup(o.From); err == nil {
			d := canonical.Dialects[ad.Capabilities().Dialect]
			return func(n string) (string, bool) { return d.WithDefault(n, "value") }
		}
	case o.Data == nil:
		return func(n string) (string, bool) { return store.DefaultRef(n, "value"), true }
	}
	return nil
}

// pickServers keeps the named servers, in the order named; no names means all.
func pickServers(all []canonical.Server, names []string, source string) ([]canonical.Server, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []canonical.Server
	for _, n := range names {
		i := slices.IndexFunc(all, func(s canonical.Server) bool { return s.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("%s has no server named %q%s", source, n, didYouMean(n, serverNames(all)))
		}
		if !slices.ContainsFunc(out, func(s canonical.Server) bool { return s.Name == n }) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

func serverNames(servers []canonical.Server) []string {
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = s.Name
	}
	return out
}

// didYouMean suggests the closest name, or lists them when there are few.
func didYouMean(name string, names []string) string {
	best := suggest.Closest(name, names, 3)
	switch {
	case best != "":
		return fmt.Sprintf("; did you mean %q?", best)
	case len(names) == 0:
		return " (it has no servers)"
	case len(names) <= 8:
		return " (it has " + strings.Join(names, ", ") + ")"
	}
	return ""
}
