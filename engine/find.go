package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/probe"
	"github.com/mcpsync/mcpsync/resolve"
	"github.com/mcpsync/mcpsync/store"
)

// Adding a server from where it is published (add INPUT): Find resolves
// INPUT to a server, the caller shows it and gathers what it needs, CheckName
// and CheckRunner say whether it may be probed and stored, ProbeFound starts it (only
// once the user has seen the command line), and Add stores it. Nothing
// from outside runs before the caller has shown it: Find and the checks run
// nothing but the user's own resolver plugins.

// FindOptions say what to resolve and how.
type FindOptions struct {
	// Input is a GitHub URL or owner/repo, a registry name, a package
	// (npm:, pypi:, oci:, go:, nuget:) or an endpoint URL.
	Input string
	// Scope is the store the server is for.
	Scope canonical.Scope
	// Inputs are the values given for the server (--input NAME=VALUE);
	// secrets among them are used for the probe only.
	Inputs map[string]string
	// Remote prefers a hosted endpoint; Pick chooses among several servers
	// or ways to run one; Name names the server.
	Remote     bool
	Pick, Name string
	// Refresh ignores cached answers; the URLs are the APIs to ask.
	Refresh                        bool
	GitHubAPI, GitHubRaw, Registry string
	// UserAgent is sent with every request.
	UserAgent string
}

// Found is a resolved server, before it is probed or stored.
type Found struct {
	Result *resolve.Result
	// Missing are the values the server needs that neither Inputs nor the
	// environment gives; Provide takes them.
	Missing []resolve.RequiredInput
	// Diags are warnings about the inputs (a name the server has no use for).
	Diags canonical.Diagnostics
	// Store is the store it is for, open.
	Store *store.Store

	e       *Engine
	in      resolve.Input
	opts    resolve.Options
	secrets map[string]string
}

// ResolveError is a resolver failure with the evidence of each step, for
// --explain and --json.
type ResolveError struct {
	Input    resolve.Input
	Err      error
	Evidence []resolve.Step
	// Diags are the warnings about the store, found before the failure.
	Diags canonical.Diagnostics
}

func (e *ResolveError) Error() string { return e.Err.Error() }
func (e *ResolveError) Unwrap() error { return e.Err }

// Find resolves o.Input to a server. A --pick that matches nothing is a
// UsageError; any other failure a *ResolveError.
func (e *Engine) Find(ctx context.Context, o FindOptions) (*Found, error) {
	in, err := resolve.ParseInput(o.Input)
	if err != nil {
		return nil, UsageError{Err: err}
	}
	st, ds, err := e.OpenStore(orUser(o.Scope))
	if err != nil {
		return nil, err
	}
	values := maps.Clone(o.Inputs)
	if values == nil {
		values = map[string]string{}
	}
	token := e.Getenv("GITHUB_TOKEN")
	if token == "" {
		token = e.Getenv("GH_TOKEN")
	}
	opts := resolve.Options{
		GitHubAPI: o.GitHubAPI, GitHubRaw: o.GitHubRaw, Registry: o.Registry, Token: token,
		CacheDir: filepath.Join(e.Dirs.Cache, "resolve"), Refresh: o.Refresh,
		Remote: o.Remote, Pick: o.Pick, Name: o.Name, Inputs: values, UserAgent: o.UserAgent,
	}
	for _, r := range e.UserResolvers(st) {
		opts.Plugins = append(opts.Plugins, resolve.Plugin{Name: r.Name, Command: r.Command, Timeout: r.Timeout, Dir: e.ProjectRoot()})
	}
	f := &Found{e: e, in: in, opts: opts, Store: st, Diags: ds, secrets: map[string]string{}}
	if err := f.resolve(ctx); err != nil {
		var re *ResolveError
		if errors.As(err, &re) {
			re.Diags = ds
		}
		return nil, err
	}
	f.Diags = append(f.Diags, unknownInputs(values, f.Result)...)
	for _, ri := range f.Result.Inputs {
		v, ok := values[ri.Name]
		if !ok && ri.Label != "" {
			v, ok = values[ri.Label]
		}
		if ok && ri.Secret {
			f.secrets[ri.Name] = v
		}
	}
	f.Missing = f.Result.MissingInputs(nil, e.LookupEnv)
	return f, nil
}

func (f *Found) resolve(ctx context.Context) error {
	res, err := resolve.Resolve(ctx, f.in, f.opts)
	if err != nil {
		var pick *resolve.PickError
		if errors.As(err, &pick) {
			return UsageError{Err: err}
		}
		return &ResolveError{Input: f.in, Err: err, Evidence: evidence(err)}
	}
	f.Result = res
	return nil
}

// evidence is what each step of the resolver saw, when err carries it.
func evidence(err error) []resolve.Step {
	var nf *resolve.NotFoundError
	var amb *resolve.AmbiguousError
	var pe *resolve.PluginError
	var rn *resolve.RegistryNotFoundError
	switch {
	case errors.As(err, &nf):
		return nf.Evidence
	case errors.As(err, &amb):
		return amb.Evidence
	case errors.As(err, &pe):
		return pe.Evidence
	case errors.As(err, &rn):
		return rn.Evidence
	}
	return nil
}

// Provide takes the values of Missing the user gave (asked on a terminal,
// or through serve): a secret's is used for the probe only; a value that is
// not a secret is written into the entry, so the server is resolved again.
func (f *Found) Provide(ctx context.Context, answers map[string]string) error {
	again := false
	for _, ri := range f.Missing {
		v, ok := answers[ri.Name]
		if !ok {
			continue
		}
		if ri.Secret {
			f.secrets[ri.Name] = v
		} else {
			f.opts.Inputs[ri.Name] = v
			again = true
		}
	}
	f.Missing = slices.DeleteFunc(f.Missing, func(ri resolve.RequiredInput) bool { _, ok := answers[ri.Name]; return ok })
	if again {
		return f.resolve(ctx) // answers are cached: no request is made again
	}
	return nil
}

// CheckName refuses a name the store holds with another definition,
// unless force: --name adds the server under another name.
func (f *Found) CheckName(force bool) error {
	srv := f.Result.Server
	if old, ok := f.Store.Servers.Get(srv.Name); ok && !force && !SameServer(old, srv) {
		return fmt.Errorf("server %q is already in %s with a different definition; add --force to replace it, "+
			"or --name NAME to add this one under another name", srv.Name, f.e.StoreDisplay(f.Store.Path))
	}
	return nil
}

// CheckRunner refuses, unless allowRunner, a command line that does more
// than start a server (npx --registry, uvx --from git+…, docker -v,
// sh -c …): what came from outside may not disguise what it runs.
func (f *Found) CheckRunner(allowRunner bool) error {
	if probs := resolve.CheckCommand(f.Result.Server); len(probs) > 0 && !allowRunner {
		var b strings.Builder
		for _, p := range probs {
			fmt.Fprintf(&b, "\n  %s", p)
		}
		return errors.New("the command line resolved from " + f.Result.Source + " does more than start a server:" + b.String() +
			"\nif you trust it, run again with --allow-runner-options")
	}
	return nil
}

// MissingError says which values the probe needs that are not set.
func (f *Found) MissingError() error {
	if len(f.Missing) == 0 {
		return nil
	}
	name := f.Result.Server.Name
	if len(f.Missing) > 1 {
		return errors.New("cannot probe " + name + ": " + DescribeInputs(f.Missing) + " are not set; export them, pass --input NAME=VALUE " +
			"for each, or add --no-probe to store the entry as it is")
	}
	return errors.New("cannot probe " + name + ": " + DescribeInputs(f.Missing) + " is not set; export it, pass --input " +
		f.Missing[0].Name + "=VALUE, or add --no-probe to store the entry as it is")
}

// ProbeTimeout is how long the probe of a found server waits by default:
// two minutes for runners whose first run downloads a package or an image,
// 30 seconds otherwise.
func (f *Found) ProbeTimeout() time.Duration {
	switch f.Result.Runner {
	case "npx", "uvx", "docker", "dnx", "go":
		return 2 * time.Minute
	}
	return 30 * time.Second
}

// ProbeFound starts the found server (with the secrets the user gave in
// its environment only) and, when a remote fails in a way the other
// transport might not, tries that transport too. It returns the result and
// the entry that was probed; Alt says it answered over the other
// transport. Call it only once the user has seen the command line.
func (e *Engine) ProbeFound(ctx context.Context, f *Found, opts probe.Options) (result probe.Result, used canonical.Server, alt bool) {
	if opts.Timeout <= 0 {
		opts.Timeout = f.ProbeTimeout()
	}
	opts.ProjectDir, opts.Home = e.ProjectRoot(), e.Dirs.Home
	lookup := e.LookupEnv
	opts.Getenv = func(k string) (string, bool) {
		if v, ok := f.secrets[k]; ok {
			return v, true
		}
		return lookup(k)
	}
	srv := f.Result.Server
	result = probe.One(ctx, srv, opts)
	if result.State != probe.Ready && f.Result.AltTransport != "" && srv.Transport.IsRemote() &&
		(result.Category == probe.ProtocolError || result.Category == probe.UnsupportedTransport) {
		other := srv.Clone()
		other.Transport = f.Result.AltTransport
		if r2 := probe.One(ctx, other, opts); r2.State == probe.Ready {
			return r2, other, true
		}
	}
	return result, srv, false
}

// ProbeFailure says why a probe did not end ready, for the user.
func ProbeFailure(r probe.Result) string {
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

// unknownInputs warns of the --input names the entry has no use for: a
// typo would otherwise be silently ignored.
func unknownInputs(values map[string]string, res *resolve.Result) canonical.Diagnostics {
	known := map[string]bool{}
	var names []string
	for _, in := range res.Inputs {
		known[in.Name], known[in.Label], known[strings.TrimLeft(in.Label, "-")] = true, true, true
		names = append(names, in.Name)
	}
	var ds canonical.Diagnostics
	for _, k := range mapkeys.Sorted(values) {
		if !known[k] {
			have := "it takes none"
			if len(names) > 0 {
				have = "it takes " + strings.Join(names, ", ")
			}
			ds = append(ds, canonical.Warnf("--input %s: %s has no such input (%s)", k, res.Server.Name, have))
		}
	}
	return ds
}

// DescribeInputs lists required values for a sentence: "API_KEY (secret), REGION".
func DescribeInputs(ins []resolve.RequiredInput) string {
	parts := make([]string, len(ins))
	for i, in := range ins {
		parts[i] = in.Name
		if in.Secret {
			parts[i] += " (secret)"
		}
	}
	return strings.Join(parts, ", ")
}
