package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/render"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/paste"
	"github.com/urfave/cli/v3"
)

func (a *App) addCommand() *cli.Command {
	return &cli.Command{
		Name:                      "add",
		Usage:                     "add servers to the store: a command, a URL, or any pasted config",
		ArgsUsage:                 "NAME -- COMMAND [ARG...] | NAME --url URL | - | --file FILE",
		Description:               help("add"),
		DisableSliceFlagSeparator: true, // a header value may hold commas
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "file", Aliases: []string{"f"}, Usage: "read a pasted config from `FILE` (- for stdin)", TakesFile: true},
			&cli.StringFlag{Name: "name", Usage: "`NAME` for a single pasted server object, or a new name for the one pasted server"},
			&cli.StringFlag{Name: "url", Usage: "the server's `URL` (a remote server)"},
			&cli.StringFlag{Name: "transport", Usage: "`http` (streamable HTTP, the default for --url) or sse"},
			&cli.StringSliceFlag{Name: "header", Aliases: []string{"H"}, Usage: "an HTTP header `'NAME: value'` for --url (repeatable)"},
			&cli.StringSliceFlag{Name: "env", Aliases: []string{"e"}, Usage: "an environment variable `NAME=value` for the command (repeatable)"},
			&cli.StringFlag{Name: "cwd", Usage: "the working `DIR` of the command", TakesFile: true},
			&cli.BoolFlag{Name: "disabled", Usage: "store the server disabled: clients keep it but do not start it"},
			&cli.BoolFlag{Name: "force", Usage: "replace a server of the same name"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the change to the store as a diff and write nothing"},
			&cli.StringSliceFlag{Name: "to", Usage: "also write the servers into these clients' files: `CLIENT`[,CLIENT…] or all (as export does, in one step: nothing is written if any file cannot take them)"},
			storeScopeFlag(),
		}, resolveFlags()...),
		Action: a.runAdd,
	}
}

func (a *App) runAdd(ctx context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	file := cmd.String("file")
	flags := paste.Flags{
		URL: cmd.String("url"), Transport: cmd.String("transport"), Headers: cmd.StringSlice("header"),
		Env: cmd.StringSlice("env"), Cwd: cmd.String("cwd"), Disabled: cmd.Bool("disabled"),
	}
	scope := canonical.Scope(cmd.String("scope"))
	force, dryRun := cmd.Bool("force"), cmd.Bool("dry-run")

	var servers []canonical.Server
	var ds canonical.Diagnostics
	var sources map[string][]byte
	switch {
	case file != "" || len(args) == 1 && args[0] == "-":
		if file != "" && len(args) > 0 || len(args) > 1 {
			return usagef("pasted input names its own servers: give --file or - alone (--name names a single server object)")
		}
		if !flags.IsZero() {
			return usagef("--url, --transport, --header, --env, --cwd and --disabled describe a server given on the command line, not pasted input")
		}
		data, name, err := a.readInput(file, "Paste the config, then press Ctrl-D:")
		if err != nil {
			return err
		}
		var set canonical.Set
		po := paste.Options{File: name, Name: cmd.String("name"), ExampleValues: true}
		if file != "" && file != "-" {
			// A client's own file is read as that client reads it.
			if ad, loc, ok := a.engine().FileClient(file); ok {
				po.Client, po.Location = ad.ID(), loc
			}
		}
		set, ds = paste.Parse(data, po)
		servers = set.Servers
		if name == "<stdin>" {
			sources = map[string][]byte{name: data}
		}
	case len(args) == 0:
		return usagef("nothing to add: give NAME -- COMMAND, NAME --url URL, - (a pasted config on stdin) or --file FILE")
	case len(args) == 1 && flags.URL == "" && looksResolvable(args[0]):
		return a.addResolved(ctx, cmd, args[0])
	case len(args) == 1 && flags.URL == "":
		return usagef("nothing to run for %q: put the command after --, for example\n  mcpsync add %s -- npx -y PACKAGE\nor give --url URL for a remote server", args[0], args[0])
	default:
		if cmd.String("name") != "" {
			return usagef("--name is for pasted input; here the name is the first argument (%q)", args[0])
		}
		srv, ds := paste.FromFlags(args[0], args[1:], flags)
		if ds.HasErrors() {
			// the command line itself is wrong: a usage error
			a.printDiagnostics(ds)
			return exitCodeError{code: exitUsage, msg: "nothing was added; see: mcpsync add --help"}
		}
		a.printDiagnostics(ds)
		servers = []canonical.Server{srv}
	}
	if len(ds) > 0 {
		a.printDiagnosticsFrom(ds, sources)
	}
	if ds.HasErrors() {
		fmt.Fprintln(a.Stderr, "mcpsync: nothing was added")
		return reportedError{ds.Err()}
	}
	return a.storeServers(scope, servers, force, dryRun, clientList(cmd.StringSlice("to")))
}

var (
	githubURL    = lazyre.New(`^(https?://)?(www\.)?github\.com/[^/\s]+/[^/\s]+`)
	ownerRepo    = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$`)
	packageInput = lazyre.New(`^(npm|pypi|oci):\S+$`)
)

// looksResolvable reports whether an add argument names something to
// resolve rather than a server: a GitHub URL, owner/repo, a registry name
// such as io.github.owner/repo, or npm:, pypi:, oci: packages.
func looksResolvable(s string) bool {
	return githubURL.Get().MatchString(s) || ownerRepo.Get().MatchString(s) || packageInput.Get().MatchString(s) || resolvableInput(s)
}

// storeServers puts servers into the store of scope (engine.Add) and,
// with to, into those clients' files; dryRun prints the change as a diff
// instead of writing it. The resolver adds through it too.
func (a *App) storeServers(scope canonical.Scope, servers []canonical.Server, force, dryRun bool, to []string) error {
	out, err := a.addServers(scope, servers, force, dryRun, to)
	if out != nil {
		if perr := a.printJSON(out); perr != nil {
			return perr
		}
	}
	return err
}

// addServers is storeServers without printing its --json answer: it
// returns it, for add INPUT, which puts it in its own.
func (a *App) addServers(scope canonical.Scope, servers []canonical.Server, force, dryRun bool, to []string) (jsonOut any, err error) {
	if len(to) > 0 {
		a.registry()
	}
	run, err := a.engine().Add(engine.AddOptions{Scope: scope, Servers: servers, Force: force, DryRun: dryRun, To: to})
	if err != nil {
		return nil, err
	}
	defer run.Close()
	a.report(run.Diags, run.Notes)
	st := run.Store
	if run.Export != nil {
		if err := a.reportPlanProblems(run.Export.Plan); err != nil {
			return nil, err
		}
	}
	if dryRun {
		return a.printAddDryRun(run), nil
	}
	res, err := run.Apply()
	if err != nil {
		return nil, err
	}
	if a.JSON {
		out := map[string]any{"store": st.Path, "scope": st.Scope, "servers": run.Outcomes}
		if run.Export != nil {
			export := a.planJSON(run.Export, false, false, false)
			export.Result = res
			out["export"] = export
		}
		return out, nil
	}
	render.AddOutcomes(a.Stdout, st, run.Outcomes, a.paths())
	if run.Export != nil {
		a.printWritten(run.Export, res)
	}
	return nil, nil
}

// printAddDryRun prints the change to the store and, with --to, to the
// clients' files, as one diff; with --json it returns the answer instead.
func (a *App) printAddDryRun(run *engine.AddRun) (jsonOut any) {
	st := run.Store
	diff := a.engine().StoreDiff(st)
	if a.JSON {
		out := map[string]any{"store": st.Path, "scope": st.Scope, "servers": run.Outcomes, "dryRun": true, "diff": diff}
		if run.Export != nil {
			out["export"] = a.planJSON(run.Export, true, true, false)
		}
		return out
	}
	a.printExact(diff)
	if run.Export != nil {
		a.printDiff(run.Export.Plan, false)
		a.printSkipped(run.Export.Skipped, true)
	}
	fmt.Fprintln(a.Stderr, "dry run: nothing was written")
	return nil
}
