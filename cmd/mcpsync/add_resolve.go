package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/probe"
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/resolve"
	"github.com/urfave/cli/v3"
	"golang.org/x/term"
)

// resolveFlags are add's flags for resolving a GitHub URL, a registry name
// or a package (addResolved). addCommand appends them to its own.
func resolveFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "explain", Usage: "print every step of the resolver chain and what it found"},
		&cli.BoolFlag{Name: "no-probe", Usage: "store the resolved server without starting it first"},
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "start the resolved command to probe it without asking (needed without a terminal)"},
		&cli.BoolFlag{Name: "allow-runner-options", Usage: "add a resolved command line that changes where its code comes from or what it can reach (npx --registry, uvx --from git+…, docker -v, sh -c …)"},
		inheritEnvFlag(),
		&cli.BoolFlag{Name: "remote", Usage: "prefer the server's hosted endpoint to a package run locally"},
		&cli.StringFlag{Name: "pick", Usage: "choose among several servers (a monorepo) or ways to run one: a `NAME`, folder or runner (npx, docker, remote, …)"},
		&cli.StringSliceFlag{Name: "input", Aliases: []string{"i"}, Usage: "a value the server needs, `NAME=VALUE` (repeatable); secrets are used for the probe only, never stored"},
		&cli.DurationFlag{Name: "probe-timeout", HideDefault: true,
			Usage: "how long the probe waits for the server to start, a `DURATION` (default 2m for npx, uvx, docker, dnx and go; 30s otherwise)"},
		&cli.BoolFlag{Name: "refresh", Usage: "ignore cached GitHub and registry answers"},
		&cli.StringFlag{Name: "github-api", Usage: "GitHub REST API base `URL`", Value: resolve.DefaultGitHubAPI, Sources: cli.EnvVars(resolve.EnvGitHubAPI)},
		&cli.StringFlag{Name: "github-raw", Usage: "GitHub raw content base `URL`", Value: resolve.DefaultGitHubRaw, Sources: cli.EnvVars(resolve.EnvGitHubRaw)},
		&cli.StringFlag{Name: "registry", Usage: "MCP registry base `URL`", Value: resolve.DefaultRegistry, Sources: cli.EnvVars(resolve.EnvRegistry)},
	}
}

// resolvableInput reports whether add's argument is something the resolver
// reads (and not a server name): see resolve.ParseInput.
func resolvableInput(s string) bool {
	in, err := resolve.ParseInput(s)
	return err == nil && (in.Kind != resolve.KindGitHub || strings.Contains(s, "/"))
}

// resolveReport is add's --json answer for a resolved server.
type resolveReport struct {
	*resolve.Result
	Error  string        `json:"error,omitempty"`
	Probe  *probe.Result `json:"probe,omitempty"`
	Stored bool          `json:"stored"`
	Store  any           `json:"store,omitempty"`
}

// addResolved handles `mcpsync add INPUT` where INPUT names something to
// resolve (a GitHub URL, owner/repo, a registry name, a package, an
// endpoint): engine.Find resolves it, the command line is shown, the user
// is asked before it starts, and storeServers stores it.
func (a *App) addResolved(ctx context.Context, cmd *cli.Command, input string) error {
	values, err := parseInputs(cmd.StringSlice("input"))
	if err != nil {
		return err
	}
	scope := canonical.Scope(cmd.String("scope"))
	explain := cmd.Bool("explain")
	f, err := a.engine().Find(ctx, engine.FindOptions{
		Input: input, Scope: scope, Inputs: values,
		Remote: cmd.Bool("remote"), Pick: cmd.String("pick"), Name: cmd.String("name"), Refresh: cmd.Bool("refresh"),
		GitHubAPI: cmd.String("github-api"), GitHubRaw: cmd.String("github-raw"), Registry: cmd.String("registry"),
		UserAgent: "mcpsync/" + version,
	})
	if err != nil {
		return a.resolveFailed(err, explain)
	}
	if note := a.engine().StoreNote(f.Store); note != "" && !a.JSON {
		fmt.Fprintln(a.Stderr, "note: "+note)
	}
	a.report(f.Diags, nil)

	// Values the entry needs: from --input, the environment, or a terminal.
	if len(f.Missing) > 0 && a.interactive() {
		asked, err := a.askInputs(f.Missing)
		if err != nil {
			return err
		}
		if err := f.Provide(ctx, asked); err != nil {
			return a.resolveFailed(err, explain)
		}
	}
	res := f.Result
	report := resolveReport{Result: res}
	if err := f.CheckName(cmd.Bool("force")); err != nil { // before anything is printed or run
		return a.resolveAborted(report, err.Error())
	}
	if explain && !a.JSON {
		render.Explain(a.Stdout, res, a.paths())
	}
	if !a.JSON {
		render.Resolved(a.Stdout, res)
	}
	if err := f.CheckRunner(cmd.Bool("allow-runner-options")); err != nil {
		return a.resolveAborted(report, err.Error())
	}
	noProbe := cmd.Bool("no-probe")
	if !noProbe && cmd.Bool("dry-run") {
		noProbe = true // a dry run runs nothing
		if !a.JSON {
			fmt.Fprintf(a.Stderr, "dry run: %s was not started; without --dry-run mcpsync asks before it starts it\n", res.Server.Name)
		}
	}
	if err := f.MissingError(); err != nil && !noProbe {
		return a.resolveAborted(report, err.Error())
	}
	if len(f.Missing) > 0 {
		fmt.Fprintf(a.Stderr, "note: set %s before a client starts %s\n", engine.DescribeInputs(f.Missing), res.Server.Name)
	}
	if !noProbe && res.Server.Transport == canonical.Stdio && !cmd.Bool("yes") {
		if err := a.confirmRun(res); err != nil {
			return a.resolveAborted(report, err.Error())
		}
	}

	srv := res.Server
	if !noProbe {
		opts := probe.Options{InheritEnv: cmd.Bool("inherit-env"), Timeout: cmd.Duration("probe-timeout"), ClientVersion: version}
		if opts.Timeout <= 0 {
			opts.Timeout = f.ProbeTimeout()
		}
		if a.stderrTTY && !a.JSON {
			fmt.Fprintf(a.Stderr, "probing %s (up to %s)…\n", res.Server.Name, opts.Timeout)
		}
		result, used, alt := a.engine().ProbeFound(ctx, f, opts)
		report.Probe = &result
		if result.State != probe.Ready {
			return a.resolveAborted(report, engine.ProbeFailure(result))
		}
		srv = used
		if !a.JSON {
			if alt {
				fmt.Fprintf(a.Stdout, "note: %s answers over %s, not %s: stored as %s\n", srv.URL, srv.Transport, res.Server.Transport, srv.Transport)
			}
			fmt.Fprintf(a.Stdout, "probe: %s, %s in %s\n", a.paint(false, styleGreen, "ready"),
				countNoun(len(result.Tools), "tool")+toolList(result.Tools), result.Latency.Round(time.Millisecond))
		}
	}
	to := clientList(cmd.StringSlice("to"))
	if !a.JSON {
		return a.storeServers(scope, []canonical.Server{srv}, cmd.Bool("force"), cmd.Bool("dry-run"), to)
	}
	store, err := a.addServers(scope, []canonical.Server{srv}, cmd.Bool("force"), cmd.Bool("dry-run"), to)
	report.Result.Server = srv
	report.Stored = err == nil && !cmd.Bool("dry-run")
	report.Store = store
	if err != nil {
		report.Error = err.Error()
	}
	if perr := a.printJSON(report); perr != nil {
		return perr
	}
	return err
}

// resolveFailed reports a resolver error: the chain with --explain, the
// evidence with --json. A usage error (a --pick that matches nothing, an
// input that names nothing) is returned as it is.
func (a *App) resolveFailed(err error, explain bool) error {
	var re *engine.ResolveError
	if !errors.As(err, &re) {
		return err
	}
	a.report(re.Diags, nil)
	if a.JSON {
		out := map[string]any{"input": re.Input, "error": err.Error(), "evidence": re.Evidence, "stored": false}
		var amb *resolve.AmbiguousError
		if errors.As(err, &amb) {
			out["candidates"] = amb.Candidates // the servers to choose from, each with its subfolder
		}
		a.printJSON(out) //nolint:errcheck // the error below is what matters
	} else if explain && len(re.Evidence) > 0 {
		render.Steps(a.Stdout, re.Input, re.Evidence, a.paths())
	}
	msg := err.Error()
	var nf *resolve.NotFoundError
	if errors.As(err, &nf) && explain && !a.JSON {
		msg = nf.Short() // the chain is printed above
	}
	fmt.Fprintln(a.Stderr, "mcpsync: "+msg)
	fmt.Fprintln(a.Stderr, "mcpsync: nothing was added")
	return reportedError{err}
}

// resolveAborted stops before storing: msg says why.
func (a *App) resolveAborted(report resolveReport, msg string) error {
	if a.JSON {
		report.Error = msg
		a.printJSON(report) //nolint:errcheck // the error below is what matters
	}
	fmt.Fprintln(a.Stderr, "mcpsync: "+msg)
	fmt.Fprintln(a.Stderr, "mcpsync: nothing was added")
	return reportedError{errors.New(msg)}
}

// confirmRun asks, on a terminal, before a command resolved from the
// internet is started for the probe: it was printed just above, escaped.
// Without a terminal it refuses: --yes starts it, --no-probe stores it
// without starting it.
func (a *App) confirmRun(res *resolve.Result) error {
	refuse := fmt.Sprintf("%s runs %s, a command that came from %s; nothing was started. "+
		"Start it with --yes once you have read it, or store it without starting it with --no-probe",
		res.Server.Name, resolve.CommandLine(res.Server), res.Source)
	if !a.interactive() || !a.stderrTTY {
		return errors.New(refuse)
	}
	fmt.Fprintf(a.Stderr, "start %s now to check that it works? it runs the command above [y/N] ", res.Server.Name)
	line, _ := bufio.NewReader(a.Stdin).ReadString('\n')
	if answer := strings.ToLower(strings.TrimSpace(line)); answer != "y" && answer != "yes" {
		return errors.New(refuse)
	}
	return nil
}

// interactive reports whether values can be asked for: stdin is a
// terminal and the output is for a person. Prompts go to stderr.
func (a *App) interactive() bool {
	f, ok := a.Stdin.(*os.File)
	return ok && isTerminal(f) && !a.JSON
}

// askInputs asks for each missing value on the terminal; secrets are read
// without echo.
func (a *App) askInputs(missing []resolve.RequiredInput) (map[string]string, error) {
	out := map[string]string{}
	f := a.Stdin.(*os.File)
	reader := bufio.NewReader(f)
	for _, in := range missing {
		prompt := in.Name
		if in.Description != "" {
			prompt += " (" + in.Description + ")"
		} else if in.Example != "" && !in.Secret {
			prompt += " (for example " + in.Example + ")"
		}
		fmt.Fprintf(a.Stderr, "%s: ", prompt)
		var v string
		if in.Secret {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(a.Stderr)
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", in.Name, err)
			}
			v = string(b)
		} else {
			line, err := reader.ReadString('\n')
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("reading %s: %w", in.Name, err)
			}
			v = strings.TrimRight(line, "\r\n")
		}
		if v == "" {
			return nil, fmt.Errorf("no value given for %s; nothing was added", in.Name)
		}
		out[in.Name] = v
	}
	return out, nil
}

// parseInputs reads --input NAME=VALUE flags.
func parseInputs(list []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("--input %q: write NAME=VALUE, for example --input API_KEY=abc", kv)
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, nil
}

func toolList(tools []string) string {
	if len(tools) == 0 {
		return ""
	}
	if len(tools) > 6 {
		return " (" + strings.Join(tools[:6], ", ") + ", …)"
	}
	return " (" + strings.Join(tools, ", ") + ")"
}

func countNoun(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
