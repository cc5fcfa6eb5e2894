package resolve

import (
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// Preference among a server.json's packages: the runners people have
// installed most, and those that need no image pull first.
var packageRank = map[string]int{"npm": 0, "pypi": 1, "oci": 2, "nuget": 3, "go": 4}

// BuildOptions steer how server.json packages become entries.
type BuildOptions struct {
	// Name is the server's key in the store.
	Name string
	// Values are inputs the user gave, keyed by input name or label.
	Values map[string]string
}

// Candidates turns every usable package and remote of s into an entry,
// packages in preference order (npm, pypi, oci, nuget, go) then remotes.
// Notes say what was skipped or repaired and why.
func (s *ServerJSON) Candidates(opts BuildOptions) ([]Candidate, []string) {
	if opts.Name == "" {
		opts.Name = ShortName(s.Name)
	}
	var cands []Candidate
	var notes []string
	order := make([]int, 0, len(s.Packages))
	for i := range s.Packages {
		order = append(order, i)
	}
	rank := func(i int) int {
		if r, ok := packageRank[strings.ToLower(s.Packages[i].RegistryType)]; ok {
			return r
		}
		return 10
	}
	for i := 1; i < len(order); i++ { // insertion sort keeps the publisher's order for ties
		for j := i; j > 0 && rank(order[j]) < rank(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		b := &builder{name: opts.Name, values: opts.Values}
		c, ok := b.pkg(s.Packages[i])
		notes = append(notes, b.notes...)
		if !ok {
			continue
		}
		c.RegistryName = s.Name
		c.ID = opts.Name + ":" + c.Runner
		cands = append(cands, c)
	}
	for i, r := range s.Remotes {
		b := &builder{name: opts.Name, values: opts.Values}
		c, ok := b.remote(r)
		notes = append(notes, b.notes...)
		if !ok {
			continue
		}
		c.RegistryName = s.Name
		c.ID = opts.Name + ":remote"
		if i > 0 {
			c.ID += fmt.Sprintf("%d", i+1)
		}
		cands = append(cands, c)
	}
	if s.Repository != nil {
		for i := range cands {
			cands[i].Subfolder = strings.Trim(s.Repository.Subfolder, "/")
		}
	}
	return cands, notes
}

// builder turns one package or remote into an entry, collecting inputs.
type builder struct {
	name   string
	values map[string]string
	inputs []RequiredInput
	notes  []string
}

func (b *builder) notef(format string, args ...any) {
	b.notes = append(b.notes, fmt.Sprintf(format, args...))
}

// value returns what the user gave for an input, by reference name or label.
func (b *builder) value(name, label string) (string, bool) {
	if v, ok := b.values[name]; ok {
		return v, true
	}
	if label != "" {
		if v, ok := b.values[label]; ok {
			return v, true
		}
		if v, ok := b.values[strings.TrimLeft(label, "-")]; ok {
			return v, true
		}
	}
	return "", false
}

// addInput records an input once per name; a later use marks it used
// and required if any use requires it.
func (b *builder) addInput(in RequiredInput) {
	for i := range b.inputs {
		if b.inputs[i].Name == in.Name {
			b.inputs[i].Used = b.inputs[i].Used || in.Used
			b.inputs[i].Required = b.inputs[i].Required || in.Required
			b.inputs[i].Secret = b.inputs[i].Secret || in.Secret
			b.inputs[i].Provided = b.inputs[i].Provided || in.Provided
			return
		}
	}
	b.inputs = append(b.inputs, in)
}

var templateVarRE = lazyre.New(`\{([A-Za-z_][A-Za-z0-9_.-]*)\}`)

// render substitutes the {var} references of tmpl. A variable the user
// gave, or with a fixed value or default, becomes its value (a secret
// becomes a ${NAME} reference instead); any other becomes a ${NAME}
// reference and makes the result unresolved. refName names the reference
// for a variable.
func (b *builder) render(tmpl string, vars map[string]InputDef, refName func(v string) string, kind string) (out string, resolved bool, used []RequiredInput) {
	resolved = true
	out = templateVarRE.Get().ReplaceAllStringFunc(tmpl, func(m string) string {
		v := m[1 : len(m)-1]
		def, known := vars[v]
		ref := refName(v)
		in := RequiredInput{Name: ref, Kind: kind, Label: "{" + v + "}", Description: def.Description,
			Required: def.IsRequired, Secret: def.IsSecret, Default: def.Default, Example: def.Placeholder, Choices: def.Choices}
		if val, ok := b.value(ref, v); ok {
			in.Used, in.Provided = true, true
			used = append(used, in)
			if def.IsSecret {
				return "${" + ref + "}"
			}
			return val
		}
		if known && def.Value != "" && !templateVarRE.Get().MatchString(def.Value) {
			return def.Value
		}
		if known && def.Default != "" {
			if def.IsSecret {
				in.Used = true
				used = append(used, in)
				return "${" + ref + ":-" + def.Default + "}"
			}
			return def.Default
		}
		resolved = false
		used = append(used, in)
		return "${" + ref + "}"
	})
	return out, resolved, used
}

// envAssignRE matches "NAME={var}": the variable feeds an environment
// variable, whose name makes the best reference name.
var envAssignRE = lazyre.New(`^([A-Za-z_][A-Za-z0-9_]*)=\{([A-Za-z_][A-Za-z0-9_.-]*)\}$`)

func (b *builder) refNamer(value string) func(string) string {
	return func(v string) string {
		if m := envAssignRE.Get().FindStringSubmatch(value); m != nil && m[2] == v {
			return m[1]
		}
		return b.varName(v)
	}
}

// genericNames are variable names that say nothing of whose they are: they
// take the server's name as a prefix ({token} of github → GITHUB_TOKEN).
var genericNames = setOf("KEY", "TOKEN", "API_KEY", "APIKEY", "SECRET", "ACCESS_TOKEN", "AUTH_TOKEN", "API_TOKEN",
	"PASSWORD", "VALUE", "URL", "HOST", "PORT", "ID", "TENANT", "REGION", "USER", "USERNAME")

// varName names the reference for a {variable}.
func (b *builder) varName(v string) string {
	n := EnvName(v)
	if genericNames[n] && b.name != "" {
		n = EnvName(b.name) + "_" + n
	}
	return n
}

// args turns arguments into command-line words by the policy: constant
// values always; values whose variables all resolve, substituted; values
// with unresolved variables only when required (as references); no value:
// required → default or a reference, optional → left out and listed.
func (b *builder) args(list []Argument) []string {
	var out []string
	for _, a := range list {
		label := a.Name
		if label == "" {
			label = a.ValueHint
		}
		if a.Value != "" {
			val, resolved, used := b.render(a.Value, a.Variables, b.refNamer(a.Value), "arg")
			if !resolved && !a.IsRequired {
				for _, in := range used {
					in.Used = false
					b.addInput(in)
				}
				continue
			}
			for _, in := range used {
				in.Used = true
				in.Required = in.Required || a.IsRequired
				b.addInput(in)
			}
			out = appendArg(out, a, val)
			continue
		}
		ref := EnvName(firstNonEmpty(a.ValueHint, a.Name, "arg"))
		in := RequiredInput{Name: ref, Kind: "arg", Label: label, Description: a.Description, Required: a.IsRequired,
			Secret: a.IsSecret, Default: a.Default, Example: a.Placeholder, Choices: a.Choices}
		if val, ok := b.value(ref, label); ok {
			in.Used, in.Provided = true, true
			b.addInput(in)
			if a.IsSecret {
				val = "${" + ref + "}"
			}
			if a.Type == "named" && a.Format == "boolean" {
				if strings.EqualFold(val, "true") {
					out = append(out, a.Name)
				}
				continue
			}
			out = appendArg(out, a, val)
			continue
		}
		if !a.IsRequired {
			b.addInput(in)
			continue
		}
		in.Used = true
		b.addInput(in)
		if a.Default != "" && !a.IsSecret {
			out = appendArg(out, a, a.Default)
		} else {
			out = appendArg(out, a, "${"+ref+"}")
		}
	}
	return out
}

func appendArg(out []string, a Argument, val string) []string {
	if a.Type == "named" && a.Name != "" {
		out = append(out, a.Name)
	}
	return append(out, val)
}

// env turns environment variables into entries by the policy: required or
// defaulted → emitted (a secret always as ${NAME}), optional without a
// default → listed only.
func (b *builder) env(list []KeyValueInput, kind string) (map[string]string, []string) {
	vals := map[string]string{}
	var order []string
	for _, e := range list {
		if e.Name == "" {
			continue
		}
		ref := e.Name
		if kind == "header" {
			ref = EnvName(b.name) + "_" + EnvName(e.Name)
		}
		in := RequiredInput{Name: ref, Kind: kind, Label: e.Name, Description: e.Description, Required: e.IsRequired,
			Secret: e.IsSecret, Default: e.Default, Example: e.Placeholder, Choices: e.Choices}
		set := func(v string) {
			vals[e.Name] = v
			order = append(order, e.Name)
		}
		if val, ok := b.value(ref, e.Name); ok {
			in.Used, in.Provided = true, true
			b.addInput(in)
			if e.IsSecret {
				set("${" + ref + "}")
			} else {
				set(val)
			}
			continue
		}
		if e.Value != "" {
			val, resolved, used := b.render(e.Value, e.Variables, b.varName, kind)
			if !resolved && !e.IsRequired && kind != "header" {
				for _, u := range used {
					u.Used = false
					b.addInput(u)
				}
				continue
			}
			for _, u := range used {
				u.Used = true
				b.addInput(u)
			}
			set(val)
			continue
		}
		switch {
		case e.IsSecret || e.Default == "":
			if !e.IsRequired && e.Default == "" && kind != "header" {
				b.addInput(in) // optional, listed only
				continue
			}
			in.Used = true
			b.addInput(in)
			switch {
			case e.Default != "":
				set("${" + ref + ":-" + e.Default + "}")
			case e.IsRequired:
				set("${" + ref + "}")
			default:
				// An optional header is sent empty when its variable is
				// unset, rather than failing the client on a missing variable.
				set("${" + ref + ":-}")
			}
		default:
			set(e.Default)
		}
	}
	return vals, order
}

// Runner flags that belong before the package. Anything else filed under
// runtimeArguments for npx or uvx is a server flag (a known publisher
// mistake: serena, supabase) and goes after the package.
var runnerFlags = map[string]map[string]bool{
	"npx": setOf("-y", "--yes", "-p", "--package", "-c", "--call", "--registry", "--prefix", "--no-install",
		"--ignore-existing", "-q", "--quiet", "--node-options", "--no", "-w", "--workspace", "--include-workspace-root"),
	"uvx": setOf("-p", "--python", "--from", "--with", "--with-editable", "--with-requirements", "--index", "--index-url",
		"--default-index", "--extra-index-url", "-f", "--find-links", "--refresh", "--refresh-package", "--reinstall",
		"--isolated", "--offline", "--no-cache", "-q", "--quiet", "-v", "--verbose", "--native-tls", "--python-preference",
		"--no-python-downloads", "--env-file", "--no-env-file", "--prerelease", "--resolution", "-U", "--upgrade",
		"--exclude-newer", "--no-build", "--no-binary", "--index-strategy", "--keyring-provider", "--managed-python",
		"--no-managed-python", "--torch-backend", "--directory", "--project", "--config-file", "--no-config",
		"--cache-dir", "--no-sources", "--constraints", "--overrides", "--compile-bytecode", "--link-mode"),
}

func setOf(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, x := range s {
		m[x] = true
	}
	return m
}

// splitMisfiled moves runtime arguments that the runner does not take to
// the front of the package arguments: a positional one and everything
// after it, and named ones that are not the runner's flags.
func (b *builder) splitMisfiled(runner string, rt []Argument) (runtime, pkg []Argument) {
	flags, ok := runnerFlags[runner]
	if !ok {
		return rt, nil
	}
	var moved []string
	positional := false
	for _, a := range rt {
		name := a.Name
		if eq := strings.IndexByte(name, '='); eq > 0 {
			name = name[:eq]
		}
		if positional || a.Type != "named" || !flags[name] {
			positional = positional || a.Type != "named"
			pkg = append(pkg, a)
			moved = append(moved, firstNonEmpty(a.Name, a.Value, a.ValueHint))
			continue
		}
		runtime = append(runtime, a)
	}
	if len(moved) > 0 {
		b.notef("runtimeArguments %s are not %s options: placed after the package, as server arguments", strings.Join(moved, ", "), runner)
	}
	return runtime, pkg
}

// isTemplateVersion reports whether v is a release template or a
// placeholder rather than a real version: such a package is unpinned.
func isTemplateVersion(v string) bool {
	v = strings.TrimSpace(v)
	return v == "" || strings.ContainsAny(v, "${}") || v == "0.0.0" || strings.EqualFold(v, "latest")
}

// pkg builds the command line for one package, as clients do it:
//
//	npm   npx -y <runtime args> id@version <package args>
//	pypi  uvx <runtime args> id==version <package args>
//	oci   docker run -i --rm <runtime args> -e NAME... image <package args>
//	nuget dnx <runtime args> id@version --yes [-- <package args>]
//	go    go run id@version <package args>
func (b *builder) pkg(p Package) (Candidate, bool) {
	typ := strings.ToLower(p.RegistryType)
	id := strings.TrimSpace(p.Identifier)
	if id == "" {
		b.notef("a %s package without an identifier: skipped", firstNonEmpty(typ, "untyped"))
		return Candidate{}, false
	}
	switch tt := strings.ToLower(p.Transport.Type); tt {
	case "", "stdio":
	default:
		b.notef("package %s serves %s at %s once started: mcpsync cannot both start and connect to it; skipped", id, tt, p.Transport.URL)
		return Candidate{}, false
	}
	runner := p.RuntimeHint
	if runner == "" {
		runner = map[string]string{"npm": "npx", "pypi": "uvx", "oci": "docker", "nuget": "dnx", "go": "go"}[typ]
	}
	switch typ {
	case "mcpb":
		b.notef("package %s is an MCP bundle (mcpb): downloading, verifying its sha256 and unpacking bundles is not supported; skipped", id)
		return Candidate{}, false
	case "cargo":
		b.notef("package %s is a Rust crate: cargo has no one-shot runner; install it with 'cargo install %s' and add the binary by hand; skipped", id, id)
		return Candidate{}, false
	case "npm", "pypi", "oci", "nuget", "go":
	default:
		if runner == "" {
			b.notef("package %s has registry type %q, which mcpsync cannot run; skipped", id, p.RegistryType)
			return Candidate{}, false
		}
	}
	pinned := !isTemplateVersion(p.Version)
	if p.Version != "" && !pinned {
		b.notef("package %s version %q is a release template or placeholder: left unpinned", id, p.Version)
	}
	rtArgs, moved := b.splitMisfiled(runner, p.RuntimeArguments)
	runtimeWords := b.args(rtArgs)
	pkgWords := b.args(append(moved, p.PackageArguments...))
	env, envOrder := b.env(p.EnvironmentVariables, "env")

	srv := canonical.Server{Name: b.name, Transport: canonical.Stdio, Command: runner}
	var args []string
	switch typ {
	case "npm":
		if runner == "npx" {
			args = append(args, "-y")
		}
		args = append(args, runtimeWords...)
		if pinned {
			args = append(args, id+"@"+p.Version)
		} else {
			args = append(args, id)
		}
		args = append(args, pkgWords...)
	case "pypi":
		args = append(args, runtimeWords...)
		if pinned {
			args = append(args, id+"=="+p.Version)
		} else {
			args = append(args, id)
		}
		args = append(args, pkgWords...)
	case "oci":
		image := ociImage(id, p.Version, pinned, b)
		if runner == "docker" || runner == "podman" {
			args = append(args, "run", "-i", "--rm")
		}
		args = append(args, runtimeWords...)
		for _, name := range envOrder {
			args = append(args, "-e", name)
		}
		args = append(args, image)
		args = append(args, pkgWords...)
	case "nuget":
		args = append(args, runtimeWords...)
		if pinned {
			args = append(args, id+"@"+p.Version)
		} else {
			args = append(args, id)
		}
		args = append(args, "--yes")
		if len(pkgWords) > 0 {
			args = append(args, "--")
			args = append(args, pkgWords...)
		}
	case "go":
		v := "latest"
		if pinned {
			v = p.Version
		}
		args = append(append(append(args, "run"), runtimeWords...), id+"@"+v)
		args = append(args, pkgWords...)
	default:
		args = append(append(append(args, runtimeWords...), id), pkgWords...)
	}
	srv.Args = args
	if len(env) > 0 {
		srv.Env = env
	}
	if ds := srv.Validate(); ds.HasErrors() {
		b.notef("package %s gives no usable command: %s; skipped", id, ds.Errors()[0].Summary)
		return Candidate{}, false
	}
	return Candidate{Step: StepServerJSON, Server: srv, Inputs: b.inputs, Runner: runner}, true
}

// ociImage returns the image reference to run: a template tag (":${VERSION}")
// is stripped; a reference without a tag takes the pinned version.
func ociImage(id, version string, pinned bool, b *builder) string {
	slash := strings.LastIndexByte(id, '/')
	if at := strings.Index(id, "@sha256:"); at >= 0 {
		return id
	}
	if colon := strings.LastIndexByte(id, ':'); colon > slash {
		tag := id[colon+1:]
		if isTemplateVersion(tag) && !strings.EqualFold(tag, "latest") {
			b.notef("image tag %q of %s is a release template: left untagged", tag, id[:colon])
			return id[:colon]
		}
		return id
	}
	if pinned {
		return id + ":" + version
	}
	return id
}

// remote builds an entry for a hosted endpoint. A declared type that
// contradicts the URL (sse for a URL ending in /mcp, as exa's entry does)
// follows the URL, with the declared type kept as the one to try next.
func (b *builder) remote(t Transport) (Candidate, bool) {
	if t.URL == "" {
		b.notef("a remote without a url: skipped")
		return Candidate{}, false
	}
	var tr canonical.Transport
	switch strings.ToLower(t.Type) {
	case "streamable-http", "streamablehttp", "http", "":
		tr = canonical.HTTP
	case "sse":
		tr = canonical.SSE
	default:
		b.notef("remote %s has transport type %q, which is neither streamable-http nor sse; skipped", t.URL, t.Type)
		return Candidate{}, false
	}
	c := Candidate{Step: StepServerJSON, Runner: "remote"}
	path := strings.ToLower(t.URL)
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimSuffix(path, "/")
	switch {
	case tr == canonical.SSE && strings.HasSuffix(path, "/mcp"):
		b.notef("remote %s is declared sse but its URL ends in /mcp: using streamable HTTP, sse as the fallback", t.URL)
		tr, c.AltTransport = canonical.HTTP, canonical.SSE
	case tr == canonical.HTTP && strings.HasSuffix(path, "/sse"):
		b.notef("remote %s is declared streamable-http but its URL ends in /sse: using sse, streamable HTTP as the fallback", t.URL)
		tr, c.AltTransport = canonical.SSE, canonical.HTTP
	}
	u, _, used := b.render(t.URL, t.Variables, b.varName, "url")
	for _, in := range used {
		in.Used = true
		b.addInput(in)
	}
	headers, _ := b.env(t.Headers, "header")
	c.Server = canonical.Server{Name: b.name, Transport: tr, URL: u}
	if len(headers) > 0 {
		c.Server.Headers = headers
	}
	if ds := c.Server.Validate(); ds.HasErrors() {
		b.notef("remote %q is not usable: %s; skipped", t.URL, ds.Errors()[0].Summary)
		return Candidate{}, false
	}
	c.Inputs = b.inputs
	return c, true
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
