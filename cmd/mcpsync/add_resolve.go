package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/probe"
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/resolve"
	"github.com/mcpsync/mcpsync/store"
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
	Error  string          `json:"error,omitempty"`
	Probe  *probe.Result   `json:"probe,omitempty"`
	Stored bool            `json:"stored"`
	Store  json.RawMessage `json:"store,omitempty"`
}

// addResolved handles `mcpsync add INPUT` where INPUT names something to
// resolve (a GitHub URL, owner/repo, a registry name, a package, an
// endpoint). It resolves, probes, and stores with storeServers.
func (a *App) addResolved(ctx context.Context, cmd *cli.Command, input string) error {
	in, err := resolve.ParseInput(input)
	if err != nil {
		return usageError{Err: err}
	}
	values, err := parseInputs(cmd.StringSlice("input"))
	if err != nil {
		return err
	}
	scope := canonical.Scope(cmd.String("scope"))
	st, err := a.openStore(scope)
	if err != nil {
		return err
	}
	opts := resolve.Options{
		GitHubAPI: cmd.String("github-api"), GitHubRaw: cmd.String("github-raw"), Registry: cmd.String("registry"),
		Token:    firstNonEmptyString(a.Getenv("GITHUB_TOKEN"), a.Getenv("GH_TOKEN")),
		CacheDir: filepath.Join(a.Dirs.Cache, "resolve"), Refresh: cmd.Bool("refresh"),
		Remote: cmd.Bool("remote"), Pick: cmd.String("pick"), Name: cmd.String("name"),
		Inputs: values, UserAgent: "mcpsync/" + version,
	}
	for _, r := range a.userResolvers(st) {
		opts.Plugins = append(opts.Plugins, resolve.Plugin{Name: r.Name, Command: r.Command, Timeout: r.Timeout, Dir: a.engine().ProjectRoot()})
	}
	explain := cmd.Bool("explain")
	res, err := resolve.Resolve(ctx, in, opts)
	if err != nil {
		return a.resolveFailed(in, err, explain)
	}

	warnUnknownInputs(a.Stderr, values, res)

	// Values the entry needs: from --input, the environment, or a terminal.
	secrets := map[string]string{}
	for _, ri := range res.Inputs {
		v, ok := values[ri.Name]
		if !ok && ri.Label != "" {
			v, ok = values[ri.Label]
		}
		if ok && ri.Secret {
			secrets[ri.Name] = v
		}
	}
	missing := res.MissingInputs(nil, a.LookupEnv)
	if len(missing) > 0 && a.interactive() {
		asked, err := a.askInputs(missing)
		if err != nil {
			return err
		}
		again := false
		for _, ri := range missing {
			if ri.Secret {
				secrets[ri.Name] = asked[ri.Name]
			} else {
				values[ri.Name] = asked[ri.Name]
				again = true
			}
		}
		if again { // non-secret answers are written into the entry: resolve again (cached)
			opts.Inputs = values
			if res, err = resolve.Resolve(ctx, in, opts); err != nil {
				return a.resolveFailed(in, err, explain)
			}
		}
		missing = nil
	}

	// A name taken by another server is refused before the probe runs.
	if old, ok := st.Servers.Get(res.Server.Name); ok && !cmd.Bool("force") && !engine.SameServer(old, res.Server) {
		msg := fmt.Sprintf("server %q is already in %s with a different definition; add --force to replace it, "+
			"or --name NAME to add this one under another name", res.Server.Name, a.engine().StoreDisplay(st.Path))
		return a.resolveAborted(resolveReport{Result: res}, msg)
	}

	report := resolveReport{Result: res}
	if explain && !a.JSON {
		render.Explain(a.Stdout, res, a.paths())
	}
	if !a.JSON {
		render.Resolved(a.Stdout, res)
	}
	// What came from outside may not disguise what it runs.
	if probs := resolve.CheckCommand(res.Server); len(probs) > 0 && !cmd.Bool("allow-runner-options") {
		var b strings.Builder
		for _, p := range probs {
			fmt.Fprintf(&b, "\n  %s", p)
		}
		return a.resolveAborted(report, "the command line resolved from "+res.Source+" does more than start a server:"+b.String()+
			"\nif you trust it, run again with --allow-runner-options")
	}
	noProbe := cmd.Bool("no-probe")
	if !noProbe && cmd.Bool("dry-run") {
		noProbe = true // a dry run runs nothing
		if !a.JSON {
			fmt.Fprintf(a.Stderr, "dry run: %s was not started; without --dry-run mcpsync asks before it starts it\n", res.Server.Name)
		}
	}
	if len(missing) > 0 && !noProbe {
		msg := "cannot probe " + res.Server.Name + ": " + describeInputs(missing) + " is not set; export it, pass --input " +
			missing[0].Name + "=VALUE, or add --no-probe to store the entry as it is"
		if len(missing) > 1 {
			msg = "cannot probe " + res.Server.Name + ": " + describeInputs(missing) + " are not set; export them, pass --input NAME=VALUE " +
				"for each, or add --no-probe to store the entry as it is"
		}
		return a.resolveAborted(report, msg)
	}
	if len(missing) > 0 {
		fmt.Fprintf(a.Stderr, "note: set %s before a client starts %s\n", describeInputs(missing), res.Server.Name)
	}
	if !noProbe && res.Server.Transport == canonical.Stdio && !cmd.Bool("yes") {
		if err := a.confirmRun(res); err != nil {
			return a.resolveAborted(report, err.Error())
		}
	}

	srv := res.Server
	if !noProbe {
		result, used := a.probeResolved(ctx, cmd, res, secrets)
		report.Probe = &result
		if result.State != probe.Ready {
			return a.resolveAborted(report, probeFailure(result))
		}
		srv = used
		if !a.JSON {
			fmt.Fprintf(a.Stdout, "probe: %s, %s in %s\n", a.paint(false, styleGreen, "ready"),
				countNoun(len(result.Tools), "tool")+toolList(result.Tools), result.Latency.Round(time.Millisecond))
		}
	}
	if !a.JSON {
		return a.storeServers(scope, []canonical.Server{srv}, cmd.Bool("force"), cmd.Bool("dry-run"), clientList(cmd.StringSlice("to")))
	}
	var buf bytes.Buffer
	out := a.Stdout
	a.Stdout = &buf
	err = a.storeServers(scope, []canonical.Server{srv}, cmd.Bool("force"), cmd.Bool("dry-run"), clientList(cmd.StringSlice("to")))
	a.Stdout = out
	report.Result.Server = srv
	report.Stored = err == nil && !cmd.Bool("dry-run")
	report.Store = bytes.TrimSpace(buf.Bytes())
	if len(report.Store) == 0 || !json.Valid(report.Store) {
		report.Store = nil
	}
	if err != nil {
		report.Error = err.Error()
	}
	if perr := a.printJSON(report); perr != nil {
		return perr
	}
	return err
}

// resolveFailed reports a resolver error: the chain with --explain, the
// evidence with --json, and an exit code by kind (a --pick that matches
// nothing is a usage error).
func (a *App) resolveFailed(in resolve.Input, err error, explain bool) error {
	var evidence []resolve.Step
	var nf *resolve.NotFoundError
	var amb *resolve.AmbiguousError
	var pe *resolve.PluginError
	var rn *resolve.RegistryNotFoundError
	switch {
	case errors.As(err, &nf):
		evidence = nf.Evidence
	case errors.As(err, &amb):
		evidence = amb.Evidence
	case errors.As(err, &pe):
		evidence = pe.Evidence
	case errors.As(err, &rn):
		evidence = rn.Evidence
	}
	if a.JSON {
		a.printJSON(map[string]any{"input": in, "error": err.Error(), "evidence": evidence, "stored": false}) //nolint:errcheck // the error below is what matters
	} else if explain && len(evidence) > 0 {
		render.Steps(a.Stdout, in, evidence, a.paths())
	}
	var pick *resolve.PickError
	if errors.As(err, &pick) {
		return usageError{Err: err}
	}
	msg := err.Error()
	if nf != nil && explain && !a.JSON {
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

// probeResolved starts the entry (with the secrets the user gave in its
// environment only) and, when a remote fails in a way the other transport
// might not, tries that transport too. It returns the result and the entry
// that was probed.
func (a *App) probeResolved(ctx context.Context, cmd *cli.Command, res *resolve.Result, secrets map[string]string) (probe.Result, canonical.Server) {
	timeout := cmd.Duration("probe-timeout")
	if timeout <= 0 {
		timeout = 30 * time.Second
		switch res.Runner {
		case "npx", "uvx", "docker", "dnx", "go":
			timeout = 2 * time.Minute // a first run downloads the package or the image
		}
	}
	lookup := a.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	opts := probe.Options{
		InheritEnv: cmd.Bool("inherit-env"),
		Timeout:    timeout, ProjectDir: a.engine().ProjectRoot(), Home: a.Dirs.Home, ClientVersion: version,
		Getenv: func(k string) (string, bool) {
			if v, ok := secrets[k]; ok {
				return v, true
			}
			return lookup(k)
		},
	}
	if a.stderrTTY && !a.JSON {
		fmt.Fprintf(a.Stderr, "probing %s (up to %s)…\n", res.Server.Name, timeout)
	}
	srv := res.Server
	result := probe.One(ctx, srv, opts)
	if result.State != probe.Ready && res.AltTransport != "" && srv.Transport.IsRemote() &&
		(result.Category == probe.ProtocolError || result.Category == probe.UnsupportedTransport) {
		alt := srv.Clone()
		alt.Transport = res.AltTransport
		if r2 := probe.One(ctx, alt, opts); r2.State == probe.Ready {
			if !a.JSON {
				fmt.Fprintf(a.Stdout, "note: %s answers over %s, not %s: stored as %s\n", srv.URL, alt.Transport, srv.Transport, alt.Transport)
			}
			return r2, alt
		}
	}
	return result, srv
}

// probeFailure says why a probe did not end ready, for the user.
func probeFailure(r probe.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "probe %s: %s", r.State, r.Category)
	if r.Message != "" {
		b.WriteString(": " + r.Message)
	}
	if len(r.MissingEnv) > 0 {
		b.WriteString(" (missing " + strings.Join(r.MissingEnv, ", ") + ")")
	}
	if len(r.StderrTail) > 0 {
		b.WriteString("\n  server stderr: " + strings.Join(r.StderrTail, "\n  server stderr: "))
	}
	if r.Hint != "" {
		b.WriteString("\n  hint: " + r.Hint)
	}
	b.WriteString("\n  the server was not stored; fix the cause, or add --no-probe to store it anyway")
	return b.String()
}

// interactive reports whether values can be asked for: stdin is a
// terminal and the output is for a person. Prompts go to stderr.
// userResolvers are the resolver plugins of the user's own store: st's when
// it is that store, never a project's (which came with a repository; see
// projectClientFiles).
func (a *App) userResolvers(st *store.Store) []store.Resolver {
	if st.Scope != canonical.ScopeProject {
		return st.Resolvers
	}
	user, ds := a.loadStore(canonical.ScopeUser)
	if ds.HasErrors() {
		return nil
	}
	return user.Resolvers
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

// warnUnknownInputs says which --input names the entry has no use for: a
// typo would otherwise be silently ignored.
func warnUnknownInputs(w io.Writer, values map[string]string, res *resolve.Result) {
	known := map[string]bool{}
	var names []string
	for _, in := range res.Inputs {
		known[in.Name], known[in.Label], known[strings.TrimLeft(in.Label, "-")] = true, true, true
		names = append(names, in.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if !known[k] {
			have := "it takes none"
			if len(names) > 0 {
				have = "it takes " + strings.Join(names, ", ")
			}
			fmt.Fprintf(w, "warning: --input %s: %s has no such input (%s)\n", k, res.Server.Name, have)
		}
	}
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

func describeInputs(ins []resolve.RequiredInput) string {
	parts := make([]string, len(ins))
	for i, in := range ins {
		parts[i] = in.Name
		if in.Secret {
			parts[i] += " (secret)"
		}
	}
	return strings.Join(parts, ", ")
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

func firstNonEmptyString(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
