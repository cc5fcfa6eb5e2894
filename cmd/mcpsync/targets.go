package main

// Shared code of the commands that read and write client files: clients,
// import, export, diff and convert.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/hugeheap"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

// osFlag is --os: which machine's paths and Windows wrapping to use.
func osFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "os", Usage: "write for `OS` (windows, darwin or linux): its file paths, and `cmd /c` around npx on windows (default: this machine)"}
}

// targetOS validates --os.
func (a *App) targetOS(cmd *cli.Command) (string, error) {
	goos := cmd.String("os")
	switch goos {
	case "":
		return a.GOOS, nil
	case "windows", "darwin", "linux":
		return goos, nil
	}
	return "", usagef("--os %q: use windows, darwin or linux", goos)
}

// homeFlag is --home: the home directory of the machine whose files to
// write, as this machine sees it.
func homeFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "home", TakesFile: true,
		Usage: "the home `DIR` of the machine whose files to write, as this one sees it (with --os windows in WSL: /mnt/c/Users/NAME)"}
}

// homeOption validates --home: an existing directory, made absolute.
func (a *App) homeOption(cmd *cli.Command) (string, error) {
	home := cmd.String("home")
	if home == "" {
		return "", nil
	}
	if !filepath.IsAbs(home) {
		home = filepath.Join(a.Cwd, home)
	}
	if fi, err := os.Stat(home); err != nil || !fi.IsDir() {
		return "", usagef("--home %s: not a directory here", cmd.String("home"))
	}
	return filepath.Clean(home), nil
}

func scopeFlag(usage string) *cli.StringFlag {
	return &cli.StringFlag{Name: "scope", Value: "user", Usage: usage}
}

// parseScope validates --scope.
func parseScope(cmd *cli.Command) (canonical.Scope, error) {
	switch s := canonical.Scope(cmd.String("scope")); s {
	case canonical.ScopeUser, canonical.ScopeProject, canonical.ScopeLocal:
		return s, nil
	default:
		return "", usagef("--scope %q: use user, project or local", string(s))
	}
}

// clientList splits --to/--from values ("a,b", repeated flags) into ids.
func clientList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

func exportFlags() []cli.Flag {
	return []cli.Flag{
		scopeFlag("which files: `user` (your own files, from the user store), project (the project's shared files, " +
			"from its mcpsync.hcl) or local (Claude Code's private per-project section, from the user store)"),
		osFlag(),
		homeFlag(),
		&cli.BoolFlag{Name: "prune", Usage: "also remove the entries mcpsync wrote before that the store no longer has (never your own entries)"},
		&cli.BoolFlag{Name: "force", Usage: "replace (and with --prune remove) entries mcpsync did not write or that were edited by hand"},
		&cli.BoolFlag{Name: "bridge-remote", Usage: "write remote servers for stdio-only clients (Claude Desktop) through npx -y mcp-remote instead of skipping them"},
		&cli.BoolFlag{Name: "prompt-inputs", Usage: "VS Code: ask for secrets with ${input:…} prompts instead of reading ${env:…}"},
		&cli.BoolFlag{Name: "show-secrets", Usage: "print secret-looking literal values in the diff instead of masking them"},
	}
}

// exportOptions reads the flags export and diff share.
func (a *App) exportOptions(cmd *cli.Command, defaultTo []string) (engine.ExportOptions, error) {
	o := engine.ExportOptions{To: clientList(cmd.StringSlice("to")), Servers: cmd.Args().Slice()}
	if len(o.To) == 0 {
		o.To = defaultTo
	}
	var err error
	if o.Scope, err = parseScope(cmd); err != nil {
		return o, err
	}
	if o.GOOS, err = a.targetOS(cmd); err != nil {
		return o, err
	}
	if o.Home, err = a.homeOption(cmd); err != nil {
		return o, err
	}
	o.Prune, o.Force = cmd.Bool("prune"), cmd.Bool("force")
	o.BridgeRemote, o.PromptInputs = cmd.Bool("bridge-remote"), cmd.Bool("prompt-inputs")
	return o, nil
}

// registry returns every client mcpsync knows (see engine.Registry). The
// problems of the user's client plugins are printed once per run.
func (a *App) registry() *formats.Registry {
	reg := a.engine().Registry()
	if !a.pluginsReported {
		a.pluginsReported = true
		if len(reg.Diags) > 0 {
			a.printDiagnostics(reg.Diags)
		}
	}
	return reg
}

// report prints what the engine had to say besides its result: warnings
// at file:line:col, then notes.
func (a *App) report(ds canonical.Diagnostics, notes []string) {
	if len(ds) > 0 {
		a.printDiagnostics(ds)
	}
	if a.JSON {
		return // a script reads the result; the notes are for people
	}
	for _, n := range notes {
		fmt.Fprintln(a.Stderr, "note: "+n)
	}
}

// paths are the options of render's functions for stdout.
func (a *App) paths() render.Paths {
	return render.Paths{Display: a.engine().Display, StoreDisplay: a.engine().StoreDisplay,
		Color: a.color(false), ColorErr: a.color(true), Verbose: a.Verbose}
}

// printDiff prints the plan's diff on stdout: masked unless asked, and
// coloured on a terminal.
func (a *App) printDiff(p *emitters.Plan, showSecrets bool) error {
	return a.printDiffWith(p, a.diffOptions(p, showSecrets))
}

// printDiffWith prints the plan's diff with opts, each file's as soon as
// it is made (emitters.Plan.EachDiff), not the whole text at the end.
func (a *App) printDiffWith(p *emitters.Plan, opts emitters.DiffOptions) error {
	color := a.color(false)
	return p.EachDiff(opts, func(d string) error { return a.printExact(render.ColorDiff(d, color)) })
}

// diffOptions are the options of the plan's diffs on stdout (as text or in
// --json): paths from the project root, secret values masked unless
// showSecrets.
func (a *App) diffOptions(p *emitters.Plan, showSecrets bool) emitters.DiffOptions {
	opts := emitters.DiffOptions{Base: a.engine().ProjectRoot()}
	if showSecrets {
		a.showSecrets = true // the diff reaches stdout unmasked
	} else {
		opts.Mask = p.SecretMask()
	}
	return opts
}

// reportPlanProblems prints the plan's diagnostics; with errors it returns
// a reportedError (exit 1), after saying that nothing was written.
func (a *App) reportPlanProblems(p *emitters.Plan) error {
	a.printDiagnostics(render.PlanDiagnostics(p, a.Verbose))
	if p.Diags.HasErrors() {
		n := len(p.Diags.Errors())
		fmt.Fprintf(a.Stderr, "mcpsync: %d error(s); no file was written\n", n)
		return reportedError{p.Err()}
	}
	return nil
}

// printRestartNote names the clients whose files a write changed: most
// clients read their MCP servers when they start (or when a session
// starts), so a running one keeps the old servers until it is restarted
// or told to reload them. Said once, after the write, on stderr.
func (a *App) printRestartNote(p *emitters.Plan) {
	if note := engine.RestartNote(p); note != "" {
		fmt.Fprintln(a.Stderr, "note: "+note)
	}
}

// readInput reads FILE, or stdin for "-" or no argument; on a terminal
// it says prompt first, when there is one. It returns the name
// diagnostics use for the input.
func (a *App) readInput(arg, prompt string) ([]byte, string, error) {
	if arg == "" || arg == "-" {
		if f, ok := a.Stdin.(*os.File); ok && prompt != "" && isTerminal(f) {
			fmt.Fprintln(a.Stderr, prompt)
		}
		data, err := io.ReadAll(a.Stdin)
		if err != nil {
			return nil, "", fmt.Errorf("cannot read stdin: %w", err)
		}
		// A pipe's size is known once read: a large paste (mcpsync add -
		// with 10,000 servers) marks the heap before what is made of it
		// fills the heap, as a large file does when safefile reads it.
		hugeheap.Input(int64(len(data)))
		return data, "<stdin>", nil
	}
	path := arg
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.Cwd, path)
	}
	data, _, err := safefile.ReadFile(path, "")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, arg, fmt.Errorf("%s: no such file", arg)
	} else if err != nil {
		return nil, arg, fmt.Errorf("cannot read %s: %w", arg, err)
	}
	return data, arg, nil
}
