package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"syscall"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/cliargs"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/internal/suggest"
	"github.com/mcpsync/mcpsync/internal/xdg"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit codes. They mean the same thing in every command.
const (
	exitOK      = 0
	exitError   = 1 // something went wrong, or with --exit-code: changes are pending
	exitUsage   = 2 // the command line itself is wrong
	exitPending = 1
)

// App is one run of mcpsync: its streams, environment and global options.
// Commands read everything through it, so tests can run Main in-process.
type App struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// LookupEnv distinguishes unset from empty, for probes that expand references.
	LookupEnv func(string) (string, bool)
	Dirs      xdg.Dirs
	Cwd       string
	GOOS      string

	// Global flags.
	StorePath  string // --store
	JSON       bool   // --json
	Verbose    bool   // --verbose: every warning on its own, not grouped
	NoColor    bool   // --no-color or NO_COLOR
	ProjectDir string // -C / --project

	// stdoutTTY and stderrTTY say whether the streams are terminals: colour and
	// live progress only go to terminals.
	stdoutTTY, stderrTTY bool

	// showSecrets lets secret-looking literals through the masking of
	// stdout (see render.SafeWriter): set by --show-secrets, and by commands whose
	// stdout is a file's content (convert).
	showSecrets bool
	// commandLine is this run's command line, masked, as backups and the
	// state lock record it.
	commandLine string
	// jsonPrinted says the command printed its --json output: an error
	// after it is not printed as JSON again.
	jsonPrinted bool

	// Hooks are the engine's test seams (see engine.Hooks).
	Hooks engine.Hooks
	// signalsHandled is closed once Ctrl-C is handled (mainWith); nil in
	// the tests that make an App themselves.
	signalsHandled <-chan struct{}
	// eng is the engine the commands call, made once the global flags
	// are parsed (see engine()).
	eng *engine.Engine
	// pluginsReported: the client plugins' problems were printed.
	pluginsReported bool
}

// engine returns the engine of this run: App without the streams.
func (a *App) engine() *engine.Engine {
	if a.eng == nil {
		a.eng = engine.New(a.engineEnv())
		a.eng.Ready = a.signalsHandled
		a.eng.OnLockWait = func(h ledger.Holder) {
			fmt.Fprintf(a.Stderr, "waiting for %s to finish (up to %s)…\n", h, a.eng.LockWaitFor())
		}
	}
	return a.eng
}

// engineEnv is the engine's environment: App without the streams.
func (a *App) engineEnv() engine.Env {
	return engine.Env{
		Dirs: a.Dirs, Cwd: a.Cwd, ProjectDir: a.ProjectDir, GOOS: a.GOOS,
		Getenv: a.Getenv, LookupEnv: a.LookupEnv, StorePath: a.StorePath,
		CommandLine: a.commandLine, Hooks: a.Hooks,
	}
}

// Main runs mcpsync with the process's streams and environment and returns
// the exit code.
func Main(args []string) int { return mainWith(args, engine.Hooks{}) }

// mainWith is Main with the engine's test seams set.
func mainWith(args []string, hooks engine.Hooks) int {
	// The first Ctrl-C (or SIGTERM) cancels the command, which stops what it
	// runs and writes nothing half-way; a second one always ends the
	// process, whatever the command is waiting for.
	//
	// The handler is set up on a goroutine of its own, beside the command's
	// start: os/signal's first Notify starts a thread for the signal mask
	// and waits for it, 0.5 to 1.4 ms here, which every command waited for
	// before anything else (version 17.4 against 16.6 ms without the wait,
	// medians of 120 runs in turn). The engine's lock waits for it
	// (Engine.Ready), so that a command that writes under the lock (every
	// write of a client file, the store or the state) runs with it; until
	// it is set up, a signal ends the process as Go does by default, which
	// is then before anything is written.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs, handled := make(chan os.Signal, 1), make(chan struct{})
	go func() {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		close(handled)
		<-sigs
		cancel()
		<-sigs
		fmt.Fprintln(os.Stderr, "mcpsync: interrupted again; exiting now")
		os.Exit(130)
	}()
	defer signal.Stop(sigs)
	cwd, _ := os.Getwd()
	a := &App{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, LookupEnv: os.LookupEnv,
		Dirs: xdg.Resolve(os.Getenv), Cwd: cwd, GOOS: runtime.GOOS,
		stdoutTTY: isTerminal(os.Stdout), stderrTTY: isTerminal(os.Stderr),
		Hooks: hooks, signalsHandled: handled,
	}
	return a.Run(ctx, args)
}

// usageError is a mistake on the command line; it exits 2. It is the
// engine's own type, so that a request the engine finds impossible as
// asked exits 2 too.
type usageError = engine.UsageError

func usagef(format string, args ...any) error { return engine.Usagef(format, args...) }

// exitCodeError ends the run with a chosen code after the command has
// already said what it needed to (for example --exit-code with changes pending).
type exitCodeError struct {
	code int
	msg  string // printed when not empty
}

func (e exitCodeError) Error() string { return e.msg }

// reportedError is an error whose details were already printed (for example
// as diagnostics); Run only sets the exit code.
type reportedError struct{ err error }

func (e reportedError) Error() string { return e.err.Error() }
func (e reportedError) Unwrap() error { return e.err }

// Run parses args and runs the command, returning the exit code.
func (a *App) Run(ctx context.Context, args []string) int {
	return a.run(ctx, args, a.commandsFor)
}

// run is Run with the subcommands the run has (commandsFor; a test gives
// every one, to hold that a run of one command does what it did with all).
func (a *App) run(ctx context.Context, args []string, commands func([]string) []*cli.Command) int {
	a.commandLine = secrets.MaskCommandLine(args)
	a.Stdout = &render.SafeWriter{W: a.Stdout, Reveal: &a.showSecrets, TTY: a.stdoutTTY, Colour: func() bool { return a.color(false) }}
	a.Stderr = &render.SafeWriter{W: a.Stderr, TTY: a.stderrTTY, Colour: func() bool { return a.color(true) }}
	if a.completeFlagValue(args) {
		return exitOK
	}
	root := a.rootCommand(commands(args))
	err := root.Run(ctx, append([]string{"mcpsync"}, args...))
	return a.exitCode(err)
}

// completionFlag is what the shell completion scripts append to the words
// typed so far.
const completionFlag = "--generate-shell-completion"

// completeFlagValue answers a completion request for the value of a flag
// that takes a client, a scope, an OS or a transport (urfave/cli completes
// only commands and flag names, and a flag still waiting for its value
// fails its parsing). It reports whether it answered. The shell filters
// the words by what was typed, so every value is printed.
func (a *App) completeFlagValue(args []string) bool {
	n := len(args)
	if n < 2 || args[n-1] != completionFlag {
		return false
	}
	// Every shell's completion script leaves out the word being typed
	// (the shell filters the answer by it), so the flag is the last word:
	// after "--to cursor" the next word is no longer the flag's value.
	var values []string
	switch flag := args[n-2]; flag {
	case "--to", "--from", "--client", "--take":
		for _, ad := range a.registry().All() {
			values = append(values, ad.ID())
		}
		switch flag {
		case "--to":
			values = append(values, "all")
		case "--take":
			values = append(values, "store")
		}
	case "--scope":
		values = []string{"user", "project", "local"}
	case "--os":
		values = []string{"linux", "darwin", "windows"}
	case "--transport":
		values = []string{"stdio", "http", "sse"}
	case "--prefer":
		values = []string{"store", "client"}
	default:
		return false
	}
	for _, v := range values {
		fmt.Fprintln(a.Stdout, v)
	}
	return true
}

func (a *App) exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	code := a.exitCodeText(err)
	if a.JSON && !a.jsonPrinted && code != exitOK {
		// A script reading --json gets JSON whatever happened: the error,
		// with the code the process exits with (the text is on stderr too).
		msg := err.Error()
		var ec exitCodeError
		if errors.As(err, &ec) && ec.msg == "" {
			msg = "changes are pending"
		}
		kind := "error"
		if code == exitUsage {
			kind = "usage"
		}
		a.printJSON(map[string]any{"error": map[string]any{"message": msg, "kind": kind, "exitCode": code}})
	}
	return code
}

// exitCodeText prints what err says to stderr and returns the exit code.
func (a *App) exitCodeText(err error) int {
	var ue usageError
	var ec exitCodeError
	var re reportedError
	var pe *engine.ProblemsError
	switch {
	case errors.As(err, &pe):
		// Problems in files: each at file:line:col, then what happened.
		a.printDiagnostics(pe.Diags)
		fmt.Fprintln(a.Stderr, "mcpsync: "+pe.Error())
		return exitError
	case errors.As(err, &ec):
		if ec.msg != "" {
			fmt.Fprintln(a.Stderr, "mcpsync: "+ec.msg)
		}
		return ec.code
	case errors.As(err, &ue):
		fmt.Fprintln(a.Stderr, "mcpsync: "+ue.Error())
		fmt.Fprintln(a.Stderr, "Run 'mcpsync --help' for usage.")
		return exitUsage
	case errors.As(err, &re):
		return exitError
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(a.Stderr, "mcpsync: interrupted")
		return exitError
	}
	var help cli.ExitCoder
	if errors.As(err, &help) && help.ExitCode() == 3 {
		// urfave/cli's help command, asked for a topic that is not one.
		fmt.Fprintln(a.Stderr, "mcpsync: "+err.Error())
		fmt.Fprintln(a.Stderr, "Run 'mcpsync --help' for usage.")
		return exitUsage
	}
	fmt.Fprintln(a.Stderr, "mcpsync: "+err.Error())
	return exitError
}

// rootCommand is mcpsync with its global flags and the given subcommands
// (commandsFor).
func (a *App) rootCommand(commands []*cli.Command) *cli.Command {
	root := &cli.Command{
		Name:                  "mcpsync",
		Usage:                 "keep every AI client's MCP servers in step",
		Description:           help("mcpsync"),
		Version:               version,
		EnableShellCompletion: true,
		Suggest:               true,
		Reader:                a.Stdin,
		Writer:                a.Stdout,
		ErrWriter:             a.Stderr,
		ExitErrHandler:        func(context.Context, *cli.Command, error) {},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "store", Usage: "use the store `FILE` instead of the project or user mcpsync.hcl", TakesFile: true,
				Sources: cli.EnvVars("MCPSYNC_STORE"), Destination: &a.StorePath},
			&cli.StringFlag{Name: "project", Aliases: []string{"C"}, Usage: "run as if started in `DIR` (the project root for project-scope files)",
				TakesFile: true, Destination: &a.ProjectDir},
			&cli.BoolFlag{Name: "json", Usage: "print machine-readable JSON instead of text", Destination: &a.JSON},
			&cli.BoolFlag{Name: "no-color", Usage: "never colour output (also: NO_COLOR=1)", Destination: &a.NoColor},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print every warning on its own (by default, warnings of one kind in one file share a line)", Destination: &a.Verbose},
		},
		Before: func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
			if v, ok := a.LookupEnv("NO_COLOR"); ok && v != "" {
				a.NoColor = true
			}
			return ctx, nil
		},
		// Reached only when no command matched: a typo is a usage error
		// (exit 2) with the nearest command, not help and exit 0.
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if !cmd.Args().Present() {
				return cli.ShowRootCommandHelp(cmd)
			}
			return unknownCommand(cmd, cmd.Args().First())
		},
		Commands: commands,
	}
	setUsageErrors(root)
	return root
}

// unknownCommand is the usage error for a command name that is not one,
// with the nearest name when there is one close enough.
func unknownCommand(cmd *cli.Command, name string) error {
	var names []string
	for _, c := range cmd.Commands {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	what := fmt.Sprintf("unknown command %q", name)
	if cmd.Root() != cmd {
		what += fmt.Sprintf(" for '%s'", cmd.FullName())
	}
	if best := suggest.Closest(name, names, 3); best != "" {
		return usagef("%s (did you mean %q?)", what, best)
	}
	return usageError{Err: errors.New(what)}
}

// commands lists every subcommand, one file each (cmd_<name>.go).
func (a *App) commands() []*cli.Command {
	table := a.commandTable()
	out := make([]*cli.Command, len(table))
	for i, c := range table {
		out[i] = c.build()
	}
	return out
}

// namedCommand is a command by its names (its name, then its aliases) and
// its constructor, so that a run can build only the command it runs.
// TestCommandTableNames holds the names to what each command says.
type namedCommand struct {
	names []string
	build func() *cli.Command
}

// commandTable is every subcommand, in the order help lists them.
func (a *App) commandTable() []namedCommand {
	return []namedCommand{
		{[]string{"add"}, a.addCommand},
		{[]string{"remove", "rm"}, a.removeCommand},
		{[]string{"enable"}, a.enableCommand}, {[]string{"disable"}, a.disableCommand},
		{[]string{"list", "ls"}, a.listCommand},
		{[]string{"show"}, a.showCommand},
		{[]string{"clients"}, a.clientsCommand},
		{[]string{"import"}, a.importCommand},
		{[]string{"export"}, a.exportCommand},
		{[]string{"diff"}, a.diffCommand},
		{[]string{"convert"}, a.convertCommand},
		{[]string{"probe"}, a.probeCommand},
		{[]string{"pull"}, a.pullCommand},
		{[]string{"approve"}, a.approveCommand},
		{[]string{"status"}, a.statusCommand},
		{[]string{"plan"}, a.planCommand},
		{[]string{"apply"}, a.applyCommand},
		{[]string{"policy"}, a.policyCommand},
		{[]string{"registry"}, a.registryCommand},
		{[]string{"source"}, a.sourceCommand},
		{[]string{"sync"}, a.syncCommand},
		{[]string{"resolve"}, a.resolveCommand},
		{[]string{"watch"}, a.watchCommand},
		{[]string{"doctor"}, a.doctorCommand},
		{[]string{"restore"}, a.restoreCommand},
		{[]string{"serve"}, a.serveCommand},
		{[]string{"version"}, a.versionCommand},
	}
}

// commandsFor returns the subcommands a run of args needs: only the one
// it runs, when args name one and ask for no help and no completion (which
// list the others); else every one. Building and setting up (urfave/cli
// walks every command, adding help flags) the 26 commands that do not run
// took about 2 ms of each run, 7 % of 'mcpsync list' with an empty store.
func (a *App) commandsFor(args []string) []*cli.Command {
	for _, arg := range args {
		switch arg {
		case "-h", "--help", "-help", "help", completionFlag:
			return a.commands()
		}
	}
	name := cliargs.Command(args)
	for _, c := range a.commandTable() {
		if slices.Contains(c.names, name) {
			return []*cli.Command{c.build()}
		}
	}
	return a.commands()
}

// setUsageErrors makes every flag-parsing problem a usage error (exit 2),
// at every level of the command tree.
func setUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = func(ctx context.Context, c *cli.Command, err error, isSub bool) error {
		return usageError{Err: err}
	}
	if len(cmd.Commands) > 0 && cmd.Action == nil {
		// A group such as 'source': its help when called alone, a usage
		// error with the nearest subcommand for a typo.
		cmd.Action = func(ctx context.Context, c *cli.Command) error {
			if !c.Args().Present() {
				return cli.ShowSubcommandHelp(c)
			}
			return unknownCommand(c, c.Args().First())
		}
	}
	for _, sub := range cmd.Commands {
		setUsageErrors(sub)
	}
}

// projectRoot returns the directory project-scope files are relative to.
func (a *App) projectRoot() string {
	if a.ProjectDir != "" {
		return a.ProjectDir
	}
	return a.Cwd
}
