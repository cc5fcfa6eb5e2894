package resolve

import (
	"net/url"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// snippetCandidate turns a server read from a README, a doc or a plugin's
// answer into a candidate: an `npx mcp-remote <url>` wrapper becomes the
// remote it wraps, and every placeholder or example value becomes a
// ${NAME} reference with a required input, so that no example secret or
// path of the author's is ever stored.
func snippetCandidate(srv canonical.Server, step string, values map[string]string) Candidate {
	if r, ok := unwrapMCPRemote(srv); ok {
		srv = r
	}
	f := &fixer{name: srv.Name, prefix: EnvName(firstNonEmpty(srv.Name, "server"))}
	srv = srv.Clone()
	srv.Env = f.env(srv.Env)
	srv.Args = f.args(srv.Command, srv.Args)
	if srv.URL != "" {
		srv.URL = f.url(srv.URL)
	}
	srv.Headers = f.headers(srv.Headers)
	for _, in := range referencedEnv(srv) {
		f.add(RequiredInput{Name: in, Kind: "env", Label: in, Required: true, Secret: looksSecret(in)})
	}
	srv = applyValues(srv, f.inputs, values)
	for i := range f.inputs {
		_, byName := values[f.inputs[i].Name]
		_, byLabel := values[f.inputs[i].Label]
		f.inputs[i].Provided = byName || byLabel && f.inputs[i].Label != ""
	}
	srv.Normalize()
	return Candidate{Step: step, Server: srv, Inputs: f.inputs, Runner: runnerOf(srv, "")}
}

// fixer collects the inputs of one snippet.
type fixer struct {
	name   string
	prefix string // the server name as an environment prefix: TAVILY
	inputs []RequiredInput
}

func (f *fixer) add(in RequiredInput) {
	in.Used = true
	for i := range f.inputs {
		if f.inputs[i].Name == in.Name {
			f.inputs[i].Secret = f.inputs[i].Secret || in.Secret
			if f.inputs[i].Example == "" {
				f.inputs[i].Example = in.Example
			}
			return
		}
	}
	f.inputs = append(f.inputs, in)
}

// ref returns a reference to name and records the input.
func (f *fixer) ref(name, kind, label, example string) string {
	secret := looksSecret(name) || looksSecret(label)
	in := RequiredInput{Name: name, Kind: kind, Label: label, Required: true, Secret: secret}
	if isPlaceholder(example) || !secret {
		in.Example = example // an example secret that looks real is not repeated anywhere
	}
	f.add(in)
	return "${" + name + "}"
}

// env: every value a README shows is an example. A reference stays; the
// value of a plain flag (true, false, a number) stays; anything else
// becomes ${KEY}.
func (f *fixer) env(env map[string]string) map[string]string {
	if len(env) == 0 {
		return env
	}
	out := make(map[string]string, len(env))
	keys := mapkeys.Sorted(env)
	for _, k := range keys {
		v := env[k]
		t := canonical.Parse(v, canonical.DialectCanonical)
		switch {
		case isInputOnly(t):
			out[k] = f.ref(k, "env", k, "")
		case t.HasRefs():
			out[k] = v // the author's own reference: ${SENTRY_ACCESS_TOKEN}
		case isPlainFlag(v):
			out[k] = v
		default:
			out[k] = f.ref(k, "env", k, v)
		}
	}
	return out
}

// isInputOnly reports a value that is one ${input:id} prompt.
func isInputOnly(t canonical.Template) bool {
	return len(t) == 1 && t[0].Kind == canonical.InputRef
}

func isPlainFlag(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "":
		return true
	}
	return numberRE.Get().MatchString(v)
}

var numberRE = lazyre.New(`^-?[0-9]+(\.[0-9]+)?$`)

// args replaces placeholders in arguments. A path placeholder repeated
// right after another ("/path/to/dir /another/dir") shows that the
// argument may repeat: one input is kept.
func (f *fixer) args(command string, args []string) []string {
	if len(args) == 0 {
		return args
	}
	docker := runnerOf(canonical.Server{Command: command}, "") == "docker"
	image := -1
	if docker {
		image = dockerImageIndex(args)
	}
	out := make([]string, 0, len(args))
	prevPath := false
	for i, a := range args {
		flag := ""
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") {
			flag = args[i-1]
		}
		hostSide := !docker || i < image // after the image, paths are the container's own
		nv, isPath := f.arg(a, flag, hostSide)
		if prevPath && (isPath && nv != a || strings.HasPrefix(a, "/") && isPathLike(a)) {
			continue // "/path/to/dir /another/dir": the argument repeats; one input stands for it
		}
		prevPath = isPath && nv != a
		out = append(out, nv)
	}
	return out
}

// arg fixes one argument; isPath says it was a path placeholder.
func (f *fixer) arg(a, flag string, hostSide bool) (string, bool) {
	t := canonical.Parse(a, canonical.DialectCanonical)
	if t.HasRefs() {
		var b strings.Builder
		for _, s := range t {
			if s.Kind == canonical.InputRef {
				b.WriteString(f.ref(canonical.InputEnvName(s.Name), "arg", "${input:"+s.Name+"}", ""))
				continue
			}
			b.WriteString(s.Text)
		}
		return b.String(), false
	}
	// --flag=value
	if strings.HasPrefix(a, "-") {
		if k, v, ok := strings.Cut(a, "="); ok && v != "" {
			if nv, p := f.arg(v, k, hostSide); nv != v {
				return k + "=" + nv, p
			}
		}
		return a, false
	}
	// docker volumes: HOST:CONTAINER and type=bind,src=HOST,dst=…
	if hostSide && (flag == "-v" || flag == "--volume") {
		if host, rest, ok := strings.Cut(a, ":"); ok && isHostPath(host) {
			return f.ref(f.pathName(host, "HOST_DIR"), "arg", flag, host) + ":" + rest, false
		}
	}
	if strings.HasPrefix(a, "--volume=") || strings.HasPrefix(a, "-v=") {
		k, v, _ := strings.Cut(a, "=")
		if host, rest, ok := strings.Cut(v, ":"); ok && isHostPath(host) {
			return k + "=" + f.ref(f.pathName(host, "HOST_DIR"), "arg", k, host) + ":" + rest, false
		}
	}
	if hostSide && flag == "--mount" && strings.Contains(a, "src=") {
		parts := strings.Split(a, ",")
		for i, p := range parts {
			if k, v, ok := strings.Cut(p, "="); ok && (k == "src" || k == "source") && isHostPath(v) {
				parts[i] = k + "=" + f.ref(f.pathName(v, "HOST_DIR"), "arg", "--mount src", v)
			}
		}
		return strings.Join(parts, ","), false
	}
	// NAME=value (docker -e, env-style)
	if m := envAssign.Get().FindString(a); m != "" && isEnvName(strings.TrimSuffix(m, "=")) && !strings.Contains(a, "://") {
		k := strings.TrimSuffix(m, "=")
		v := a[len(m):]
		if isPlaceholder(v) {
			return k + "=" + f.ref(k, "arg", k, v), false
		}
		return a, false
	}
	if strings.Contains(a, "://") {
		if u, err := url.Parse(a); err == nil && u.User != nil {
			if _, hasPassword := u.User.Password(); hasPassword {
				// A connection string with credentials: the whole value is the user's.
				name := f.prefix + "_URL"
				if flag != "" {
					name = EnvName(flag)
				}
				f.add(RequiredInput{Name: name, Kind: "arg", Label: firstNonEmpty(flag, "connection string"), Required: true, Secret: true})
				return "${" + name + "}", false
			}
		}
		return f.url(a), false
	}
	if strings.ContainsAny(a, "<>") {
		return f.angle(a, flag), isPathLike(a)
	}
	if isPlaceholder(a) || (hostSide && isHostPath(a) && !strings.HasPrefix(flag, "-")) || (hostSide && flag != "" && isHostPath(a)) {
		name := ""
		if flag != "" {
			name = EnvName(flag)
		}
		if isPathLike(a) {
			name = firstNonEmpty(name, f.pathName(a, "PATH"))
			return f.ref(name, "arg", firstNonEmpty(flag, a), a), true
		}
		name = firstNonEmpty(name, f.textName(a))
		return f.ref(name, "arg", firstNonEmpty(flag, a), a), false
	}
	return a, false
}

// dockerImageIndex finds the image in `docker run [options] IMAGE [args]`:
// the first word that is not an option or an option's value.
func dockerImageIndex(args []string) int {
	valued := setOf("-e", "--env", "-v", "--volume", "-p", "--publish", "--mount", "--name", "-w", "--workdir",
		"--network", "--net", "-u", "--user", "--entrypoint", "--env-file", "-l", "--label", "--platform", "--add-host",
		"--cpus", "-m", "--memory", "--pull", "--restart", "--hostname", "-h", "--device", "--cap-add", "--cap-drop")
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "run" || a == "container":
			continue
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return len(args)
}

// angle replaces each <...> of a value with a reference.
func (f *fixer) angle(a, flag string) string {
	return angleRE.Get().ReplaceAllStringFunc(a, func(m string) string {
		inner := m[1 : len(m)-1]
		name := f.textName(inner)
		if flag != "" && !strings.Contains(strings.TrimPrefix(a, m), "/") {
			name = EnvName(flag)
		}
		return f.ref(name, "arg", firstNonEmpty(flag, m), m)
	})
}

var angleRE = lazyre.New(`<[^<>]{1,80}>`)

// url replaces placeholders in a URL: <...> anywhere, and query values
// that are placeholders (named after their query key: ?tavilyApiKey=<key>
// → ${TAVILY_API_KEY}).
func (f *fixer) url(u string) string {
	base, query, hasQuery := strings.Cut(u, "?")
	base = angleRE.Get().ReplaceAllStringFunc(base, func(m string) string {
		return f.ref(f.textName(m[1:len(m)-1]), "url", m, m)
	})
	if !hasQuery {
		return base
	}
	parts := strings.Split(query, "&")
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		dv, err := url.QueryUnescape(v)
		if err != nil {
			dv = v
		}
		if isPlaceholder(dv) || (looksSecret(k) && !strings.Contains(dv, "${")) {
			parts[i] = k + "=" + f.ref(EnvName(k), "url", "?"+k, dv)
		}
	}
	return base + "?" + strings.Join(parts, "&")
}

// headers: "Bearer <token>", "Bearer YOUR_TOKEN" and secret-looking
// literals become references; the author's references stay.
func (f *fixer) headers(h map[string]string) map[string]string {
	if len(h) == 0 {
		return h
	}
	out := make(map[string]string, len(h))
	for _, k := range mapkeys.Sorted(h) {
		v := h[k]
		t := canonical.Parse(v, canonical.DialectCanonical)
		if t.HasRefs() {
			if isInputOnly(t) {
				v = f.ref(f.prefix+"_"+EnvName(k), "header", k, "")
			}
			out[k] = v
			continue
		}
		scheme, cred, ok := strings.Cut(v, " ")
		if !ok {
			scheme, cred = "", v
		}
		if isPlaceholder(cred) || looksSecret(k) || strings.EqualFold(k, "authorization") {
			name := f.prefix + "_" + EnvName(k)
			if strings.EqualFold(k, "authorization") || isPlaceholder(cred) {
				if n := f.textName(cred); n != "" && isPlaceholder(cred) {
					name = n
				}
			}
			ref := f.ref(name, "header", k, cred)
			if scheme != "" {
				ref = scheme + " " + ref
			}
			out[k] = ref
			continue
		}
		out[k] = v
	}
	return out
}

// textName names an input after placeholder text: "your-api-key" →
// TAVILY_API_KEY (a generic name takes the server's prefix),
// "/path/to/allowed/directory" → ALLOWED_DIRECTORY.
func (f *fixer) textName(s string) string {
	s = strings.Trim(s, "<>{}[] ")
	words := strings.FieldsFunc(strings.ToUpper(s), func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	var keep []string
	for _, w := range words {
		switch w {
		case "YOUR", "HERE", "THE", "A", "AN", "MY", "PATH", "TO", "INSERT", "REPLACE", "WITH", "ENTER", "PUT", "XXX", "XXXX":
			continue
		}
		if strings.Trim(w, "X") == "" {
			continue
		}
		keep = append(keep, w)
	}
	if len(keep) == 0 {
		return f.prefix + "_VALUE"
	}
	name := strings.Join(keep, "_")
	switch name {
	case "API_KEY", "KEY", "TOKEN", "SECRET", "ACCESS_TOKEN", "AUTH_TOKEN", "API_TOKEN", "PASSWORD", "VALUE", "ID", "URL":
		if !strings.HasPrefix(name, f.prefix) {
			name = f.prefix + "_" + name
		}
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "_" + name
	}
	return name
}

// pathName names a path input after the path's own words.
func (f *fixer) pathName(p, fallback string) string {
	words := strings.FieldsFunc(strings.ToUpper(p), func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	var keep []string
	for _, w := range words {
		switch w {
		case "PATH", "TO", "YOUR", "USERS", "USERNAME", "HOME", "USER", "C", "THE", "MY", "IN":
			continue
		}
		keep = append(keep, w)
	}
	if len(keep) == 0 {
		return fallback
	}
	if len(keep) > 3 {
		keep = keep[len(keep)-3:]
	}
	return strings.Join(keep, "_")
}

// isPlaceholder reports text that stands for a value the user must give:
// <token>, YOUR_API_KEY, your-token, /path/to/dir, ntn_****, sk-..., xxxx.
func isPlaceholder(s string) bool { return secrets.IsExample(s) }

// isPathLike reports a value that names a file or directory.
func isPathLike(s string) bool {
	s = strings.Trim(s, "<>")
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "./") ||
		secrets.IsExamplePath(s) || strings.Count(s, "/") >= 2 && !strings.Contains(s, "://") ||
		strings.Contains(strings.ToLower(s), "path") || strings.Contains(strings.ToLower(s), "dir")
}

// systemDirs are absolute paths that mean the same on every machine.
var systemDirs = []string{"/tmp", "/etc", "/var", "/usr", "/opt", "/dev", "/proc", "/sys", "/run", "/bin", "/sbin", "/lib", "/workspace", "/projects", "/data", "/mnt", "/app"}

// isHostPath reports an absolute path that only makes sense on the README
// author's machine: anything but the system directories.
func isHostPath(s string) bool {
	if secrets.IsExamplePath(s) || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "$HOME") {
		return true
	}
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") {
		return false
	}
	for _, d := range systemDirs {
		if s == d || strings.HasPrefix(s, d+"/") {
			return false
		}
	}
	return true
}

var patWordRE = lazyre.New(`(^|_)PAT(_|$)`)

// looksSecret reports a name that holds a credential.
func looksSecret(name string) bool {
	u := strings.ToUpper(name)
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "CONNECTION_STRING", "COOKIE", "SESSION", "PRIVATE", "PAT", "XOX"} {
		if strings.Contains(u, w) {
			if w == "PAT" && !patWordRE.Get().MatchString(u) {
				continue // PATH, PATTERN
			}
			if w == "KEY" && strings.Contains(u, "MONKEY") {
				continue
			}
			return true
		}
	}
	return false
}

// referencedEnv lists the environment variables the server refers to.
func referencedEnv(s canonical.Server) []string {
	seen := map[string]bool{}
	var out []string
	addFrom := func(v string) {
		for _, n := range canonical.Parse(v, canonical.DialectCanonical).EnvNames() {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	addFrom(s.Command)
	addFrom(s.URL)
	for _, a := range s.Args {
		addFrom(a)
	}
	for _, k := range mapkeys.Sorted(s.Env) {
		addFrom(s.Env[k])
	}
	for _, k := range mapkeys.Sorted(s.Headers) {
		addFrom(s.Headers[k])
	}
	return out
}

// applyValues writes the values the user gave for non-secret inputs into
// the entry. Secrets stay references: their values only ever reach the
// probe's environment.
func applyValues(s canonical.Server, inputs []RequiredInput, values map[string]string) canonical.Server {
	if len(values) == 0 {
		return s
	}
	repl := map[string]string{}
	for _, in := range inputs {
		if in.Secret {
			continue
		}
		if v, ok := values[in.Name]; ok {
			repl[in.Name] = v
		} else if v, ok := values[in.Label]; ok && in.Label != "" {
			repl[in.Name] = v
		}
	}
	if len(repl) == 0 {
		return s
	}
	sub := func(v string) string {
		t := canonical.Parse(v, canonical.DialectCanonical)
		if !t.HasRefs() {
			return v
		}
		var b strings.Builder
		for _, seg := range t {
			if seg.Kind == canonical.EnvRef {
				if val, ok := repl[seg.Name]; ok {
					b.WriteString(val)
					continue
				}
			}
			b.WriteString(seg.Text)
		}
		return b.String()
	}
	s.URL = sub(s.URL)
	for i := range s.Args {
		s.Args[i] = sub(s.Args[i])
	}
	for k, v := range s.Env {
		s.Env[k] = sub(v)
	}
	for k, v := range s.Headers {
		s.Headers[k] = sub(v)
	}
	return s
}

// unwrapMCPRemote turns `npx [-y] mcp-remote URL [--header 'K: V']...`,
// a local bridge to a hosted server, into that hosted server.
func unwrapMCPRemote(s canonical.Server) (canonical.Server, bool) {
	if runnerOf(s, "") != "npx" {
		return s, false
	}
	args := s.Args
	if len(args) > 0 && args[0] == "dlx" {
		args = args[1:]
	}
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		i++
	}
	if i >= len(args) {
		return s, false
	}
	pkg := args[i]
	if at := strings.LastIndexByte(pkg, '@'); at > 0 {
		pkg = pkg[:at]
	}
	if pkg != "mcp-remote" || i+1 >= len(args) || !strings.Contains(args[i+1], "://") {
		return s, false
	}
	out := canonical.Server{Name: s.Name, Transport: canonical.HTTP, URL: args[i+1], Origin: s.Origin}
	p := strings.TrimSuffix(strings.ToLower(strings.SplitN(out.URL, "?", 2)[0]), "/")
	if strings.HasSuffix(p, "/sse") {
		out.Transport = canonical.SSE
	}
	rest := args[i+2:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		val := ""
		switch {
		case (a == "--header" || a == "-H") && j+1 < len(rest):
			j++
			val = rest[j]
		case strings.HasPrefix(a, "--header="):
			val = strings.TrimPrefix(a, "--header=")
		case a == "--transport" && j+1 < len(rest):
			j++
			switch rest[j] {
			case "sse-only":
				out.Transport = canonical.SSE
			case "http-only":
				out.Transport = canonical.HTTP
			}
			continue
		default:
			continue
		}
		if k, v, ok := strings.Cut(val, ":"); ok {
			if out.Headers == nil {
				out.Headers = map[string]string{}
			}
			out.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if out.Validate().HasErrors() {
		// "mcp-remote ://" or the like: not a URL to unwrap; the command
		// line stays as it was written.
		return s, false
	}
	return out, true
}
