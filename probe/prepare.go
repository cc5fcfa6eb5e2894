package probe

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// spec is a server made ready to run: every reference expanded, the working
// directory checked, and the scrubber holding every secret it carries.
type spec struct {
	name      string
	transport canonical.Transport
	timeout   time.Duration

	// stdio
	command string
	args    []string
	env     []string // K=V, appended to the probe's own environment
	dir     string

	// http, sse
	url     string
	headers map[string]string
	// authFrom names what the auth headers come from, for the hint of an
	// auth failure: header names and referenced variables, never values.
	authFrom string

	target string // command line or URL as shown, scrubbed
	scrub  *scrubber
}

// secretArgWords mark a command-line flag whose value is a credential
// (--api-key sk-..., --token=...), so that it is hidden like an env value.
var secretArgWords = []string{"key", "token", "secret", "password", "passwd", "auth", "credential", "bearer", "pat"}

func isSecretFlag(flag string) bool {
	name := strings.ToLower(strings.TrimLeft(flag, "-"))
	if name == "" || !strings.HasPrefix(flag, "-") {
		return false
	}
	for _, w := range secretArgWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// prepare expands s for running. A non-nil Result means the server must not
// be started (a reference without a value, a cwd outside the project, an
// incomplete entry); it is returned as the probe's outcome.
func prepare(s canonical.Server, opts Options) (*spec, *Result) {
	sp := &spec{name: s.Name, transport: s.Transport, scrub: &scrubber{}, timeout: opts.Timeout}
	if s.StartupTimeout > 0 {
		sp.timeout = s.StartupTimeout
	}
	fail := func(cat Category, msg, hint string) *Result {
		return &Result{State: Failed, Category: cat, Message: sp.scrub.scrub(msg), Hint: sp.scrub.scrub(hint)}
	}

	if !s.Transport.Valid() {
		return sp, fail(UnsupportedTransport, fmt.Sprintf("transport %q is not one the probe speaks", s.Transport),
			`use "stdio", "http" (streamable HTTP) or "sse"`)
	}
	// Expand every reference from the environment, recording each value
	// that came from it as a secret, and each variable that has none.
	lookup := inputsAsEnv(canonical.EnvLookup(opts.Getenv, opts.Home, opts.ProjectDir), opts.Getenv)
	type miss struct{ name, field string }
	var missing []miss
	expand := func(field, text string) string {
		t := canonical.Parse(text, canonical.DialectCanonical)
		if !t.HasRefs() {
			return text
		}
		v, names := t.Expand(func(seg canonical.Segment) (string, bool) {
			v, ok := lookup(seg)
			if ok && seg.Kind != canonical.Builtin {
				sp.scrub.add(v)
			}
			return v, ok
		})
		for _, n := range names {
			if id, ok := strings.CutPrefix(n, "input:"); ok {
				n = canonical.InputEnvName(id)
			}
			missing = append(missing, miss{n, field})
		}
		return v
	}

	switch s.Transport {
	case canonical.Stdio:
		sp.command = expand("command", s.Command)
		for i, a := range s.Args {
			sp.args = append(sp.args, expand(fmt.Sprintf("args[%d]", i), a))
		}
		for _, k := range mapkeys.Sorted(s.Env) {
			v := expand("env."+k, s.Env[k])
			sp.scrub.add(v)
			sp.env = append(sp.env, k+"="+v)
		}
		sp.dir = expand("cwd", s.Cwd)
		hideSecretArgs(sp.args, sp.scrub)
		sp.target = sp.scrub.scrub(commandLine(sp.command, sp.args))
	default:
		sp.url = expand("url", s.URL)
		sp.scrub.addURL(sp.url)
		sp.headers = map[string]string{}
		var from []string
		for _, k := range mapkeys.Sorted(s.Headers) {
			v := expand("headers."+k, s.Headers[k])
			sp.scrub.addHeader(v)
			sp.headers[k] = v
			if isAuthHeader(k) {
				desc := "header " + k
				if names := canonical.Parse(s.Headers[k], canonical.DialectCanonical).EnvNames(); len(names) > 0 {
					desc += " (from ${" + strings.Join(names, "}, ${") + "})"
				}
				from = append(from, desc)
			}
		}
		sp.authFrom = strings.Join(from, ", ")
		sp.target = sp.scrub.scrub(sp.url)
	}

	// Validate after expansion, so that the scrubber already knows every
	// secret a message about the entry could quote.
	if ds := s.Validate(); ds.HasErrors() {
		d := ds.Errors()[0]
		return sp, fail(InvalidConfig, d.Summary, d.Detail)
	}

	if len(missing) > 0 {
		var names, parts []string
		for _, m := range missing {
			if !slices.Contains(names, m.name) {
				names = append(names, m.name)
			}
			parts = append(parts, m.name+" (in "+m.field+")")
		}
		sort.Strings(names)
		verb := "is"
		if len(names) > 1 {
			verb = "are"
		}
		hint := "export " + strings.Join(names, ", ") + " before probing"
		withDefault := opts.WithDefault
		if withDefault == nil {
			withDefault = func(n string) (string, bool) { return canonical.DialectCanonical.WithDefault(n, "value") }
		}
		if ref, ok := withDefault(names[0]); ok {
			hint += ", or give a default in the config: " + ref
		}
		r := fail(MissingEnv, "not started: "+strings.Join(dedupe(parts), ", ")+" "+verb+" not set", hint)
		r.MissingEnv = names
		return sp, r
	}

	if s.Transport == canonical.Stdio {
		confine := opts.OwnServer == nil || !opts.OwnServer(s.Name)
		dir, cat, msg, hint := resolveCwd(sp.dir, opts.ProjectDir, confine)
		if cat != "" {
			return sp, fail(cat, msg, hint)
		}
		sp.dir = dir
	} else if u, err := url.Parse(sp.url); err == nil && u.Scheme != "http" && u.Scheme != "https" {
		return sp, fail(UnsupportedTransport, fmt.Sprintf("the probe cannot connect to %s: URLs", u.Scheme),
			"only http:// and https:// URLs can be probed")
	}
	return sp, nil
}

// inputsAsEnv answers VS Code ${input:id} references from the environment
// variable that mcpsync writes them as for other clients (InputEnvName), so
// that a probe can run a server whose secret is a prompt elsewhere.
func inputsAsEnv(l canonical.Lookup, getenv func(string) (string, bool)) canonical.Lookup {
	return func(s canonical.Segment) (string, bool) {
		if s.Kind == canonical.InputRef {
			return getenv(canonical.InputEnvName(s.Name))
		}
		return l(s)
	}
}

// hideSecretArgs records the values of credential flags as secrets:
// "--token=abc" and "--api-key abc".
func hideSecretArgs(args []string, sc *scrubber) {
	for i, a := range args {
		if flag, val, ok := strings.Cut(a, "="); ok && isSecretFlag(flag) {
			sc.add(val)
			continue
		}
		if isSecretFlag(a) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			sc.add(args[i+1])
		}
	}
}

func isAuthHeader(k string) bool {
	k = strings.ToLower(k)
	return k == "authorization" || strings.Contains(k, "key") || strings.Contains(k, "token") || strings.Contains(k, "auth")
}

// resolveCwd makes the stdio working directory absolute against the project
// root and, with confine, refuses one that resolves, symlinks included,
// outside it. An empty cwd runs the server in the project root, as the
// clients do.
func resolveCwd(dir, project string, confine bool) (abs string, cat Category, msg, hint string) {
	if dir == "" {
		return project, "", "", ""
	}
	if !confine && (filepath.IsAbs(dir) || project != "") {
		joined := dir
		if !filepath.IsAbs(joined) {
			joined = filepath.Join(project, dir)
		}
		fi, err := os.Stat(joined)
		switch {
		case os.IsNotExist(err):
			return "", SpawnFailed, fmt.Sprintf("cwd %q does not exist (%s)", dir, joined), "create the directory or fix \"cwd\""
		case err != nil:
			return "", SpawnFailed, fmt.Sprintf("cwd %q cannot be used: %v", dir, err), "fix \"cwd\""
		case !fi.IsDir():
			return "", SpawnFailed, fmt.Sprintf("cwd %q is not a directory", dir), "point \"cwd\" at a directory"
		}
		return filepath.Clean(joined), "", "", ""
	}
	if project == "" {
		return "", CwdOutsideProject, fmt.Sprintf("cwd %q cannot be checked: there is no project root", dir),
			"run the probe from the project directory, or pass -C <dir>"
	}
	root, err := filepath.EvalSymlinks(project)
	if err != nil {
		return "", SpawnFailed, fmt.Sprintf("the project root %s cannot be resolved: %v", project, err), "pass an existing directory with -C"
	}
	joined := dir
	if !filepath.IsAbs(joined) {
		joined = filepath.Join(project, dir)
	}
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		if os.IsNotExist(err) {
			// Refuse an escape even when the target does not exist yet.
			if !within(root, filepath.Clean(joined)) && !within(project, filepath.Clean(joined)) {
				return "", CwdOutsideProject, fmt.Sprintf("cwd %q is outside the project %s", dir, project),
					"use a directory inside the project, or pass -C <dir> to probe from another project root"
			}
			return "", SpawnFailed, fmt.Sprintf("cwd %q does not exist (%s)", dir, joined), "create the directory or fix \"cwd\""
		}
		return "", SpawnFailed, fmt.Sprintf("cwd %q cannot be resolved: %v", dir, err), "fix \"cwd\""
	}
	if !within(root, real) {
		where := real
		if real != filepath.Clean(joined) {
			where = real + " (through a symlink)"
		}
		return "", CwdOutsideProject, fmt.Sprintf("cwd %q resolves to %s, outside the project %s", dir, where, root),
			"use a directory inside the project, or pass -C <dir> to probe from another project root"
	}
	if fi, err := os.Stat(real); err == nil && !fi.IsDir() {
		return "", SpawnFailed, fmt.Sprintf("cwd %q is not a directory", dir), "point \"cwd\" at a directory"
	}
	return real, "", "", ""
}

// within reports whether path is root or below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}

// commandLine renders a command and its arguments for display, quoting
// arguments that contain spaces or quotes.
func commandLine(command string, args []string) string {
	var b strings.Builder
	b.WriteString(shellQuote(command))
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(shellQuote(a))
	}
	return b.String()
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func dedupe(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
