package resolve

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// Resolve turns the input into one server entry through the chain
// (registry, server.json, ownership markers, README snippets, manifests,
// plugins; the first step that finds something wins) and returns it with
// the evidence of every step. Errors are typed: *NotFoundError,
// *AmbiguousError, *PickError, *RateLimitError, *RepoNotFoundError,
// *RegistryNotFoundError, *PluginError, *HTTPError.
func Resolve(ctx context.Context, in Input, opts Options) (*Result, error) {
	opts.withDefaults()
	r := &run{in: in, opts: opts, f: opts.fetcher()}
	r.reg = &registry{f: r.f, base: opts.Registry}
	switch in.Kind {
	case KindGitHub:
		return r.github(ctx)
	case KindRegistry:
		return r.registryName(ctx)
	case KindPackage:
		return r.pkg(ctx)
	case KindRemote:
		return r.remote()
	}
	return nil, fmt.Errorf("cannot resolve %q: unknown input kind %q", in.Raw, in.Kind)
}

// run is one resolution: the options, the evidence gathered so far and
// what was read from the repository.
type run struct {
	in       Input
	opts     Options
	f        *fetcher
	reg      *registry
	repo     *repo
	evidence []Step
	readme   map[string][]byte // README and docs texts already read
	pkgs     []*packageJSON    // package.json files read (ownership, manifests)
	pkgsRead bool
	advice   string // what to do when nothing is found, from the step that knows
}

func (r *run) note(step, source string, found bool, format string, args ...any) {
	r.evidence = append(r.evidence, Step{Step: step, Source: source, Found: found, Detail: fmt.Sprintf(format, args...)})
}

// group is the candidates for one server: several ways to run it.
type group struct {
	id     string // --pick handle
	name   string // the entry's name
	source string
	cands  []Candidate
}

// defaultName is the store key derived from the input. Options.Name, when
// given, replaces it only at the end (decide): references such as
// ${WEATHER_KEY} keep the server's own name as their prefix.
func (r *run) defaultName() string {
	switch r.in.Kind {
	case KindGitHub:
		if r.in.Subdir != "" {
			return ShortName(path.Base(r.in.Subdir))
		}
		return ShortName(r.in.Repo)
	case KindRegistry:
		return ShortName(r.in.Name)
	case KindPackage:
		return ShortName(r.in.Package)
	case KindRemote:
		return hostName(r.in.URL)
	}
	return "server"
}

// hostName names a hosted server after its host: mcp.exa.ai → exa.
func hostName(u string) string {
	h := hostOf(u)
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	labels := strings.Split(h, ".")
	if len(labels) > 1 {
		labels = labels[:len(labels)-1] // the top-level domain
	}
	for i := len(labels) - 1; i >= 0; i-- {
		l := strings.ToLower(labels[i])
		if l != "mcp" && l != "api" && l != "www" && l != "" {
			return ShortName(l)
		}
	}
	return "remote"
}

// github runs the chain for a repository.
func (r *run) github(ctx context.Context) (*Result, error) {
	groups, err := r.registryByRepo(ctx)
	if err != nil {
		return nil, err
	}
	if len(groups) > 0 {
		return r.decide(StepRegistry, groups)
	}
	rp, steps, err := openRepo(ctx, r.f, r.opts.GitHubAPI, r.opts.GitHubRaw, r.in)
	r.evidence = append(r.evidence, steps...)
	if err != nil {
		return nil, err
	}
	r.repo = rp
	for _, step := range []struct {
		name string
		run  func(context.Context) ([]group, error)
	}{
		{StepServerJSON, r.serverJSONStep},
		{StepMonorepo, nil},
		{StepOwnership, r.ownershipStep},
		{StepReadme, r.readmeStep},
		{StepManifest, r.manifestStep},
		{StepContainer, r.containerStep},
	} {
		if step.name == StepMonorepo {
			// Several servers, one folder each: one of them only when picked.
			ms, err := r.members(ctx)
			if err != nil {
				return nil, err
			}
			if len(ms) > 1 {
				return r.collection(ctx, ms)
			}
			continue
		}
		groups, err := step.run(ctx)
		if err != nil {
			return nil, err
		}
		if len(groups) > 0 {
			return r.decide(step.name, groups)
		}
	}
	return r.pluginStep(ctx)
}

// registryByRepo looks the repository up in the registry: first by the
// conventional name io.github.<owner>/<repo>, then by searching, always
// keeping only active entries whose repository.url is this repository
// (and whose subfolder is the one asked for).
func (r *run) registryByRepo(ctx context.Context) ([]group, error) {
	want := normalizeRepoURL(r.in.RepoURL())
	names := []string{"io.github." + r.in.Owner + "/" + r.in.Repo}
	if r.in.Subdir != "" {
		names = append([]string{"io.github." + r.in.Owner + "/" + path.Base(r.in.Subdir)}, names...)
	}
	if lo := strings.ToLower(r.in.Owner); lo != r.in.Owner {
		names = append(names, "io.github."+lo+"/"+r.in.Repo)
	}
	matches := map[string]regServer{}
	var inactive []string
	consider := func(s regServer) {
		if normalizeRepoURL(s.repoURL()) != want {
			return
		}
		if !s.active() {
			inactive = append(inactive, s.json.Name+" ("+s.status+")")
			return
		}
		matches[s.json.Name] = s
	}
	// The registry is optional: when it cannot be used the chain goes on
	// with the repository itself.
	registryDown := func(err error) bool {
		if ctx.Err() != nil {
			return false
		}
		r.note(StepRegistry, r.opts.Registry, false, "registry not usable (%v): skipped; the registry is optional", err)
		return true
	}
	for _, n := range names {
		s, ok, err := r.reg.latest(ctx, n)
		if err != nil {
			if registryDown(err) {
				return nil, nil
			}
			return nil, err
		}
		if ok {
			consider(s)
		}
	}
	searched := []string{}
	if len(matches) == 0 {
		terms := []string{r.in.Repo}
		// The short name finds DNS-namespaced entries (com.supabase/mcp for
		// supabase-community/supabase-mcp); the owner finds monorepo packages.
		if sn := ShortName(r.in.Repo); sn != strings.ToLower(r.in.Repo) && len(sn) >= 3 {
			terms = append(terms, sn)
		}
		terms = append(terms, r.in.Owner)
		for _, term := range terms {
			list, _, err := r.reg.search(ctx, term)
			searched = append(searched, fmt.Sprintf("%q", term))
			if err != nil {
				if registryDown(err) {
					return nil, nil
				}
				return nil, err
			}
			for _, s := range list {
				consider(s)
			}
			if len(matches) > 0 {
				break
			}
		}
	}
	// Subfolder: the one asked for, else the repository root's entry,
	// else every entry (a monorepo: the user picks).
	var keep []regServer
	for _, s := range matches {
		if r.in.Subdir != "" && s.subfolder() != strings.Trim(r.in.Subdir, "/") {
			continue
		}
		keep = append(keep, s)
	}
	if r.in.Subdir == "" {
		var root []regServer
		for _, s := range keep {
			if s.subfolder() == "" {
				root = append(root, s)
			}
		}
		if len(root) > 0 {
			keep = root
		}
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].json.Name < keep[j].json.Name })
	if len(inactive) > 0 {
		r.note(StepRegistry, r.opts.Registry, false, "skipped entries that are not active: %s", strings.Join(inactive, ", "))
	}
	if len(keep) == 0 {
		detail := "no active entry with repository.url " + r.in.RepoURL()
		if r.in.Subdir != "" {
			detail += " and subfolder " + r.in.Subdir
		}
		detail += " (looked up " + strings.Join(names, ", ")
		if len(searched) > 0 {
			detail += "; searched " + strings.Join(searched, ", ")
		}
		r.note(StepRegistry, r.opts.Registry, false, "%s)", detail)
		return nil, nil
	}
	var groups []group
	for _, s := range keep {
		groups = append(groups, r.registryGroup(s, len(keep) > 1))
	}
	return groups, nil
}

// registryGroup builds the candidates of one registry entry.
func (r *run) registryGroup(s regServer, several bool) group {
	name := r.defaultName()
	switch {
	case r.opts.Name != "":
	case several:
		name = ShortName(s.json.Name)
		if sf := s.subfolder(); sf != "" {
			name = ShortName(path.Base(sf))
		}
	case r.in.Subdir != "" && ShortName(s.json.Name) != "server":
		name = ShortName(s.json.Name) // the folder's server, as its entry names it
	}
	cands, notes := s.json.Candidates(BuildOptions{Name: name, Values: r.opts.Inputs})
	detail := fmt.Sprintf("%s version %s", s.json.Name, firstNonEmpty(s.json.Version, "?"))
	if sf := s.subfolder(); sf != "" {
		detail += " (subfolder " + sf + ")"
	}
	r.note(StepRegistry, s.source, len(cands) > 0, "found %s", detail)
	for _, w := range append(s.warns, notes...) {
		r.note(StepRegistry, s.json.Name, true, "%s", w)
	}
	for i := range cands {
		cands[i].Step, cands[i].Source = StepRegistry, s.source
	}
	return group{id: ShortName(s.json.Name), name: name, source: s.source, cands: cands}
}

// skipDirs are folders whose files describe no server of the repository.
var skipDirs = lazyre.New(`(^|/)(node_modules|vendor|testdata|fixtures?|__tests__|tests?|examples?|third_party|\.git)(/|$)`)

// serverJSONStep reads server.json files: in the subfolder asked for, or
// at the root (also .mcp/server.json, the NuGet convention), else
// anywhere in the tree (a monorepo: one group per file).
func (r *run) serverJSONStep(ctx context.Context) ([]group, error) {
	dir := strings.Trim(r.in.Subdir, "/")
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	paths := []string{prefix + "server.json", prefix + ".mcp/server.json"}
	var found []string
	for _, p := range paths {
		if r.repo.files[p] {
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		found = r.repo.find(func(p string) bool {
			return strings.HasPrefix(p, prefix) && (path.Base(p) == "server.json") && !skipDirs.Get().MatchString(p)
		})
		if len(found) > 20 {
			found = found[:20]
		}
	}
	if len(found) == 0 {
		where := "the repository root or .mcp/"
		if dir != "" {
			where = dir
		}
		r.note(StepServerJSON, "", false, "no server.json in %s", where)
		return nil, nil
	}
	var groups []group
	for _, p := range found {
		data, ok, err := r.repo.read(ctx, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		sj, warns, err := ParseServerJSON(data)
		if err != nil {
			r.note(StepServerJSON, r.repo.webURL(p), false, "%s is not a usable server.json: %v", p, err)
			continue
		}
		fileDir := path.Dir(p) // the package folder: server.json sits in it or in its .mcp/
		if path.Base(fileDir) == ".mcp" {
			fileDir = path.Dir(fileDir)
		}
		if fileDir == "." {
			fileDir = ""
		}
		name := r.defaultName()
		// Several servers, or one in the folder asked for: each is named as
		// its server.json says (src/seqthink → sequential-thinking).
		if (len(found) > 1 || r.in.Subdir != "") && r.opts.Name == "" && ShortName(sj.Name) != "server" {
			name = ShortName(sj.Name)
		}
		cands, notes := sj.Candidates(BuildOptions{Name: name, Values: r.opts.Inputs})
		r.note(StepServerJSON, r.repo.webURL(p), len(cands) > 0, "found %s (%s)", sj.Name, p)
		for _, w := range append(warns, notes...) {
			r.note(StepServerJSON, p, true, "%s", w)
		}
		for i := range cands {
			cands[i].Step, cands[i].Source = StepServerJSON, r.repo.webURL(p)
			cands[i].Subfolder = fileDir
		}
		if len(cands) > 0 {
			groups = append(groups, group{id: ShortName(sj.Name), name: name, source: r.repo.webURL(p), cands: cands})
		}
	}
	return groups, nil
}

// packageJSONs reads package.json in the subfolder (or the root) and,
// when that is a workspace root, the workspace packages' manifests.
func (r *run) packageJSONs(ctx context.Context) ([]*packageJSON, error) {
	if r.pkgsRead {
		return r.pkgs, nil
	}
	r.pkgsRead = true
	dir := strings.Trim(r.in.Subdir, "/")
	top := path.Join(dir, "package.json")
	data, ok, err := r.readOnce(ctx, top)
	if err != nil {
		return nil, err
	}
	var root *packageJSON
	if ok {
		if pj, err := parsePackageJSON(data, top); err == nil {
			root = pj
			r.pkgs = append(r.pkgs, pj)
		} else {
			r.note(StepManifest, r.repo.webURL(top), false, "unreadable: %v", err)
		}
	}
	if root != nil && !root.isWorkspaceRoot() {
		return r.pkgs, nil
	}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	nested := r.repo.find(func(p string) bool {
		return strings.HasPrefix(p, prefix) && path.Base(p) == "package.json" && p != top &&
			strings.Count(p[len(prefix):], "/") <= 3 && !skipDirs.Get().MatchString(p)
	})
	if len(nested) > 20 {
		nested = nested[:20]
	}
	for _, p := range nested {
		data, ok, err := r.readOnce(ctx, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if pj, err := parsePackageJSON(data, p); err == nil {
			r.pkgs = append(r.pkgs, pj)
		}
	}
	return r.pkgs, nil
}

var mcpNameRE = lazyre.New(`mcp-name:\s*([a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+)`)

// ownershipStep follows the publisher's ownership markers back to the
// registry: package.json "mcpName" (npm) and "mcp-name: <name>" in the
// README (PyPI, NuGet) give the exact registry name.
func (r *run) ownershipStep(ctx context.Context) ([]group, error) {
	type marker struct{ name, where string }
	var markers []marker
	pkgs, err := r.packageJSONs(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		if p.MCPName != "" {
			markers = append(markers, marker{p.MCPName, p.path + " mcpName"})
		}
	}
	if rp := r.repo.readmeIn(strings.Trim(r.in.Subdir, "/")); rp != "" {
		text, err := r.readFile(ctx, rp)
		if err != nil {
			return nil, err
		}
		for _, m := range mcpNameRE.Get().FindAllSubmatch(text, -1) {
			markers = append(markers, marker{string(m[1]), rp + " mcp-name:"})
		}
	}
	if len(markers) == 0 {
		r.note(StepOwnership, "", false, "no package.json mcpName and no mcp-name: marker in the README")
		return nil, nil
	}
	seen := map[string]bool{}
	var servers []regServer
	for _, m := range markers {
		if seen[m.name] {
			continue
		}
		seen[m.name] = true
		s, ok, err := r.reg.latest(ctx, m.name)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			r.note(StepOwnership, m.where, false, "%s names %s, but the registry is not usable: %v", m.where, m.name, err)
			continue
		}
		switch {
		case !ok:
			r.note(StepOwnership, m.where, false, "%s names %s, which the registry does not list", m.where, m.name)
		case !s.active():
			r.note(StepOwnership, m.where, false, "%s names %s, whose registry entry is %s", m.where, m.name, s.status)
		default:
			r.note(StepOwnership, m.where, true, "%s names %s", m.where, m.name)
			servers = append(servers, s)
		}
	}
	var groups []group
	for _, s := range servers {
		g := r.registryGroup(s, len(servers) > 1)
		for i := range g.cands {
			g.cands[i].Step = StepOwnership
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// readFile reads a repository file once.
func (r *run) readFile(ctx context.Context, p string) ([]byte, error) {
	if r.readme == nil {
		r.readme = map[string][]byte{}
	}
	if b, ok := r.readme[p]; ok {
		return b, nil
	}
	b, _, err := r.repo.read(ctx, p)
	if err != nil {
		return nil, err
	}
	r.readme[p] = b
	return b, nil
}

// maxDocs bounds how many docs/*.md files the README step reads.
const maxDocs = 12

// readmeStep extracts configuration snippets from the README and, when
// it has none, from Markdown files under docs/.
func (r *run) readmeStep(ctx context.Context) ([]group, error) {
	dir := strings.Trim(r.in.Subdir, "/")
	files := []string{}
	if rp := r.repo.readmeIn(dir); rp != "" {
		files = append(files, rp)
	}
	docsPrefix := path.Join(dir, "docs") + "/"
	docs := r.repo.find(func(p string) bool {
		lp := strings.ToLower(p)
		return strings.HasPrefix(p, docsPrefix) && (strings.HasSuffix(lp, ".md") || strings.HasSuffix(lp, ".mdx"))
	})
	if len(docs) > maxDocs {
		docs = docs[:maxDocs]
	}
	name := r.defaultName()
	var all []Candidate
	looked := 0
	for i, p := range append(files, docs...) {
		if i >= len(files) && len(all) > 0 {
			break // the README had snippets: the docs are not needed
		}
		text, err := r.readFile(ctx, p)
		if err != nil {
			return nil, err
		}
		if text == nil {
			continue
		}
		looked++
		cands, notes := ReadmeCandidates(text, ReadmeOptions{File: p, Name: name, Repo: r.repo.name, Values: r.opts.Inputs})
		for _, n := range notes {
			r.note(StepReadme, r.repo.webURL(p), false, "%s", n)
		}
		for i := range cands {
			cands[i].Source = r.repo.webURL(p) + "#L" + strconv.Itoa(cands[i].Line)
		}
		all = append(all, cands...)
	}
	if len(all) == 0 {
		r.note(StepReadme, "", false, "no configuration snippet in %s", plural(looked, "README or docs file"))
		return nil, nil
	}
	if groups := r.readmeServers(all); len(groups) > 1 {
		r.note(StepReadme, "", true, "%s shows %d different servers, none named after the repository", plural(looked, "file"), len(groups))
		return groups, nil
	}
	goCands, err := r.goBesideReadme(ctx, dir, name, all)
	if err != nil {
		return nil, err
	}
	all = append(all, goCands...)
	rankCandidates(all)
	r.note(StepReadme, all[0].Source, true, "%s in %s: best %s", plural(len(all), "snippet"), plural(looked, "file"), CommandLine(all[0].Server))
	return []group{{id: name, name: name, source: all[0].Source, cands: all}}, nil
}

// readmeServers splits a repository root's README candidates into the
// servers they run, when they run several and none is the repository's
// own: a README that lists servers (a collection's, an awesome list) is
// not one server. Snippets are the same server when they give the entry
// the same name or run the same package; hosted endpoints do not count.
// It returns nil when the README shows one server (or its own among others).
func (r *run) readmeServers(cands []Candidate) []group {
	if r.in.Subdir != "" || len(cands) < 2 {
		return nil
	}
	parent := make([]int, len(cands))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	byKey := map[string]int{}
	for i, c := range cands {
		if c.Runner == "remote" {
			continue
		}
		keys := []string{"pkg:" + ShortName(identityOf(c))}
		if c.Entry != "" {
			keys = append(keys, "name:"+ShortName(c.Entry))
		}
		for _, k := range keys {
			if j, ok := byKey[k]; ok {
				parent[find(i)] = find(j)
			} else {
				byKey[k] = i
			}
		}
	}
	repo := ShortName(r.in.Repo)
	order := []int{}
	members := map[int][]Candidate{}
	for i, c := range cands {
		if c.Runner == "remote" {
			continue
		}
		root := find(i)
		if _, ok := members[root]; !ok {
			order = append(order, root)
		}
		members[root] = append(members[root], c)
		for _, k := range []string{ShortName(c.Entry), ShortName(identityOf(c))} {
			if k != "" && (k == repo || strings.Contains(repo, k) || strings.Contains(k, repo)) {
				return nil // the repository's own server is among them
			}
		}
	}
	if len(order) < 2 {
		return nil
	}
	var groups []group
	for _, root := range order {
		cs := members[root]
		id := ShortName(firstNonEmpty(cs[0].Entry, identityOf(cs[0])))
		for i := range cs {
			cs[i].Server.Name = id
		}
		groups = append(groups, group{id: id, name: id, source: cs[0].Source, cands: cs})
	}
	return groups
}

// identityOf is what a candidate runs: the package, image, program or URL.
func identityOf(c Candidate) string {
	switch c.Runner {
	case "npx", "uvx", "dnx":
		if p := packageOf(c); p != "" {
			return p
		}
	case "docker":
		if a := c.Server.Args; len(a) > 1 && a[0] == "run" {
			if u, why := dockerRunLine(a[1:]); why == "" {
				return imageName(u.args[len(u.args)-1-u.after])
			}
		}
	case "remote":
		return c.Server.URL
	}
	return programName(c.Server.Command)
}

// goBesideReadme adds, for a Go module whose README shows snippets, the
// go run way the README may not show: the README's own executable (same
// name as a main package) built by go run with the snippet's arguments
// and environment, else the main package as it is. The ranking then
// weighs it against the README's containers and binaries.
func (r *run) goBesideReadme(ctx context.Context, dir, name string, readme []Candidate) ([]Candidate, error) {
	gomod, ok, err := r.readOnce(ctx, path.Join(dir, "go.mod"))
	if err != nil || !ok {
		return nil, err
	}
	groups, err := r.goCandidates(ctx, gomod, dir, name)
	if err != nil || len(groups) == 0 {
		return nil, err
	}
	var out []Candidate
	for _, g := range groups {
		gc := g.cands[0]
		pkg := gc.Server.Args[1] // MODULE/cmd/NAME@VERSION
		cmdName := path.Base(pkg[:strings.LastIndexByte(pkg, '@')])
		matched := false
		for _, c := range readme {
			if (c.Runner != "own-binary" && c.Runner != "binary") || programName(c.Server.Command) != cmdName {
				continue
			}
			built := gc
			built.Server = c.Server
			built.Server.Command, built.Server.Args = "go", append([]string{"run", pkg}, c.Server.Args...)
			built.Inputs = c.Inputs
			built.Line, built.Source = c.Line, c.Source
			built.Note = "the README's " + cmdName + " (line " + strconv.Itoa(c.Line) + "), built by go run from " + gc.Note
			built.ID = name + ":go"
			out = append(out, built)
			matched = true
			break
		}
		if !matched {
			gc.ID = name + ":go"
			out = append(out, gc)
		}
	}
	return out, nil
}

// programName is the base name of a command, without a Windows suffix:
// /path/to/github-mcp-server and ${GITHUB_MCP_SERVER_PATH}... aside.
func programName(command string) string {
	base := command
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(base), ".exe")
}

// manifestStep falls back on the package manifests: package.json bin
// (npx), pyproject.toml scripts (uvx), go.mod with a main package (go run).
func (r *run) manifestStep(ctx context.Context) ([]group, error) {
	dir := strings.Trim(r.in.Subdir, "/")
	name := r.defaultName()
	pkgs, err := r.packageJSONs(ctx)
	if err != nil {
		return nil, err
	}
	var npmGroups []group
	// Of several packages with a command, the MCP servers are the answer;
	// the others are the project's tools (a CLI, a build helper).
	if mcp := slices.DeleteFunc(slices.Clone(pkgs), func(p *packageJSON) bool { return !p.isMCPServer() }); len(pkgs) > 1 && len(mcp) > 0 {
		pkgs = mcp
	}
	for _, p := range pkgs {
		c, why := npmCandidate(p, name)
		if why != "" {
			r.note(StepManifest, r.repo.webURL(p.path), false, "%s", why)
			continue
		}
		c.Source = r.repo.webURL(p.path)
		c.ID = ShortName(p.Name)
		npmGroups = append(npmGroups, group{id: c.ID, name: name, source: c.Source, cands: []Candidate{c}})
	}
	if len(npmGroups) > 1 && r.opts.Name == "" {
		for i := range npmGroups {
			npmGroups[i].name = npmGroups[i].id
			npmGroups[i].cands[0].Server.Name = npmGroups[i].id
		}
	}
	if len(npmGroups) > 0 {
		for _, g := range npmGroups {
			r.note(StepManifest, g.source, true, "%s: %s", g.cands[0].Note, CommandLine(g.cands[0].Server))
		}
		return npmGroups, nil
	}
	pyPath := path.Join(dir, "pyproject.toml")
	if data, ok, err := r.repo.read(ctx, pyPath); err != nil {
		return nil, err
	} else if ok {
		cands, why := pypiCandidates(data, pyPath, name)
		if why != "" {
			r.note(StepManifest, r.repo.webURL(pyPath), false, "%s", why)
		}
		if len(cands) > 0 {
			var groups []group
			for _, c := range cands {
				c.Source = r.repo.webURL(pyPath)
				r.note(StepManifest, c.Source, true, "%s: %s", c.Note, CommandLine(c.Server))
				groups = append(groups, group{id: strings.TrimPrefix(c.ID, name+":"), name: name, source: c.Source, cands: []Candidate{c}})
			}
			return groups, nil
		}
	}
	goPath := path.Join(dir, "go.mod")
	if data, ok, err := r.repo.read(ctx, goPath); err != nil {
		return nil, err
	} else if ok {
		groups, err := r.goCandidates(ctx, data, dir, name)
		if err != nil || len(groups) > 0 {
			return groups, err
		}
	}
	r.note(StepManifest, "", false, "no runnable manifest (package.json with bin, pyproject.toml with scripts, go.mod with a main package)")
	return nil, nil
}

// goCandidates turns a Go module with package main (at its root or under
// cmd/) into go run MODULE/cmd/NAME@VERSION, pinned to the latest release
// tag when the repository has one. A module with replace directives is
// refused: go run pkg@version will not build it.
func (r *run) goCandidates(ctx context.Context, gomod []byte, dir, name string) ([]group, error) {
	mod := goModule(gomod)
	src := r.repo.webURL(path.Join(dir, "go.mod"))
	if mod == "" {
		r.note(StepManifest, src, false, "go.mod declares no module")
		return nil, nil
	}
	files := make([]string, 0, len(r.repo.files))
	for p := range r.repo.files {
		files = append(files, p)
	}
	mains := goMainDirs(files, dir)
	var verified []string
	for _, d := range mains {
		text, ok, err := r.repo.read(ctx, path.Join(dir, d, "main.go"))
		if err != nil {
			return nil, err
		}
		if ok && isPackageMain(text) {
			verified = append(verified, d)
		}
	}
	if len(verified) == 0 {
		r.note(StepManifest, src, false, "go module %s has no main package at its root or under cmd/", mod)
		return nil, nil
	}
	if goReplaces(gomod) {
		r.note(StepManifest, src, false, "go module %s has replace directives: go run %s@VERSION refuses to build it "+
			"(install a release binary or the container image instead)", mod, mod)
		return nil, nil
	}
	// A command named after the repository or saying mcp is the server.
	if len(verified) > 1 {
		var best []string
		for _, d := range verified {
			b := strings.ToLower(path.Base(d))
			if d == "" || b == strings.ToLower(r.in.Repo) || ShortName(b) == name {
				best = append(best, d)
			}
		}
		if len(best) == 0 {
			for _, d := range verified {
				if strings.Contains(strings.ToLower(path.Base(d)), "mcp") {
					best = append(best, d)
				}
			}
		}
		if len(best) == 1 {
			verified = best
		}
	}
	version, err := r.goVersion(ctx, mod, dir)
	if err != nil {
		return nil, err
	}
	var groups []group
	for _, d := range verified {
		pkg := mod
		if d != "" {
			pkg += "/" + d
		}
		srv := goServer(name, pkg, version)
		id := ShortName(path.Base(pkg))
		c := Candidate{ID: id, Step: StepManifest, Server: srv, Runner: "go", Source: src,
			Note: "go.mod module " + mod + " with package main in " + firstNonEmpty(d, "the root")}
		r.note(StepManifest, src, true, "%s: %s", c.Note, CommandLine(srv))
		groups = append(groups, group{id: id, name: name, source: src, cands: []Candidate{c}})
	}
	return groups, nil
}

// goVersion is the version go run should build: the tag of the latest
// release (for a module in a folder, a tag FOLDER/vX.Y.Z), when it fits
// the module's major version; else "latest", which the module proxy
// resolves to the newest tag itself.
func (r *run) goVersion(ctx context.Context, mod, dir string) (string, error) {
	var rel struct {
		TagName    string `json:"tag_name"`
		Draft      bool   `json:"draft"`
		Prerelease bool   `json:"prerelease"`
	}
	u := r.opts.GitHubAPI + "/repos/" + url.PathEscape(r.repo.owner) + "/" + url.PathEscape(r.repo.name) + "/releases/latest"
	ok, err := r.f.getJSON(ctx, u, &rel)
	if err != nil {
		var rl *RateLimitError
		if errors.As(err, &rl) || ctx.Err() != nil {
			return "", err
		}
		r.note(StepManifest, u, false, "latest release not readable (%v): go run takes @latest", err)
		return "latest", nil
	}
	tag := rel.TagName
	if dir != "" {
		tag, ok = strings.CutPrefix(tag, dir+"/")
	}
	if !ok || rel.Draft || rel.Prerelease || !goSemver.Get().MatchString(tag) {
		return "latest", nil
	}
	major := "v0"
	if m := goMajorSuffix.Get().FindStringSubmatch(mod); m != nil {
		major = "v" + m[1]
	}
	tagMajor, _, _ := strings.Cut(tag, ".")
	if major == "v0" && (tagMajor == "v0" || tagMajor == "v1") || tagMajor == major {
		r.note(StepManifest, u, true, "latest release %s: go run pins it", rel.TagName)
		return tag, nil
	}
	r.note(StepManifest, u, false, "latest release %s does not match module %s's major version: go run takes @latest", rel.TagName, mod)
	return "latest", nil
}

var (
	goSemver      = lazyre.New(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	goMajorSuffix = lazyre.New(`/v([2-9]|[1-9]\d+)$`)
)

// goServer runs a Go command with go run PKG@VERSION: no install, no
// checkout, the module proxy builds it.
func goServer(name, pkg, version string) canonical.Server {
	return canonical.Server{Name: name, Transport: canonical.Stdio, Command: "go", Args: []string{"run", pkg + "@" + version}}
}

// pluginStep asks the configured resolver plugins, in order.
func (r *run) pluginStep(ctx context.Context) (*Result, error) {
	if len(r.opts.Plugins) == 0 {
		r.note(StepPlugin, "", false, "no resolver plugin configured (resolver \"NAME\" { command = [...] } in the store)")
		return nil, &NotFoundError{Input: r.in, Evidence: r.evidence, Advice: r.advice}
	}
	var failure *PluginError
	for _, p := range r.opts.Plugins {
		req := PluginRequest{Version: 1, Input: r.in.Raw, Parsed: r.in, Evidence: r.evidence, Contract: pluginContract}
		ans, err := runPlugin(ctx, p, req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var pe *PluginError
			if !errors.As(err, &pe) {
				pe = &PluginError{Plugin: p.Name, Err: err}
			}
			r.note(StepPlugin, p.Name, false, "%v", pe.Err)
			if failure == nil {
				failure = pe
			}
			continue
		}
		for _, e := range ans.evidenceLines() {
			r.note(StepPlugin, p.Name, ans.Server != nil, "%s", e)
		}
		if ans.Server == nil {
			r.note(StepPlugin, p.Name, false, "found nothing: %s", ans.Error)
			continue
		}
		name := r.defaultName()
		if r.opts.Name == "" && ans.Server.Name != "" {
			name = ShortName(ans.Server.Name)
		}
		srv, err := ans.Server.server(name)
		if err != nil {
			pe := &PluginError{Plugin: p.Name, Err: err}
			r.note(StepPlugin, p.Name, false, "%v", err)
			if failure == nil {
				failure = pe
			}
			continue
		}
		c := snippetCandidate(srv, StepPlugin, r.opts.Inputs)
		c.Source = "plugin " + p.Name
		c.Inputs = mergeInputs(c.Inputs, ans.Inputs)
		r.note(StepPlugin, p.Name, true, "answered %s", CommandLine(c.Server))
		return r.decide(StepPlugin, []group{{id: name, name: name, source: c.Source, cands: []Candidate{c}}})
	}
	if failure != nil {
		failure.Evidence = r.evidence
		return nil, failure
	}
	return nil, &NotFoundError{Input: r.in, Evidence: r.evidence, Advice: r.advice}
}

// mergeInputs adds the plugin's declared inputs to those found in its entry.
func mergeInputs(found, declared []RequiredInput) []RequiredInput {
	for _, d := range declared {
		dup := false
		for i := range found {
			if found[i].Name == d.Name {
				found[i].Secret = found[i].Secret || d.Secret
				found[i].Required = found[i].Required || d.Required
				if found[i].Description == "" {
					found[i].Description = d.Description
				}
				dup = true
			}
		}
		if !dup && d.Name != "" {
			found = append(found, d)
		}
	}
	return found
}

// registryName resolves an official registry name.
func (r *run) registryName(ctx context.Context) (*Result, error) {
	s, ok, err := r.reg.latest(ctx, r.in.Name)
	if err != nil {
		return nil, err
	}
	if !ok {
		r.note(StepRegistry, r.opts.Registry, false, "no server named %s", r.in.Name)
		return nil, &RegistryNotFoundError{Name: r.in.Name, Evidence: r.evidence}
	}
	if !s.active() {
		return nil, fmt.Errorf("registry server %s is %s; its publisher no longer recommends it", r.in.Name, s.status)
	}
	return r.decide(StepRegistry, []group{r.registryGroup(s, false)})
}

// pkg resolves npm:, pypi:, oci:, go: and nuget: inputs. A registry entry
// publishing that very package supplies its environment variables and
// arguments; otherwise the runner's plain command is the answer.
func (r *run) pkg(ctx context.Context) (*Result, error) {
	regType := map[string]string{"npm": "npm", "pypi": "pypi", "oci": "oci", "nuget": "nuget", "go": "go"}[r.in.Ecosystem]
	ident := r.in.Package
	term := ShortName(ident)
	if term == "" {
		term = unscoped(ident)
	}
	list, u, err := r.reg.search(ctx, term)
	if err != nil {
		r.note(StepRegistry, r.opts.Registry, false, "registry not usable (%v): skipped", err)
	}
	baseImage := func(s string) string {
		if c := strings.LastIndexByte(s, ':'); c > strings.LastIndexByte(s, '/') {
			return s[:c]
		}
		return s
	}
	for _, s := range list {
		if !s.active() {
			continue
		}
		for _, p := range s.json.Packages {
			if !strings.EqualFold(p.RegistryType, regType) {
				continue
			}
			same := p.Identifier == ident
			if regType == "oci" {
				same = baseImage(p.Identifier) == baseImage(ident)
			}
			if !same {
				continue
			}
			sj := *s.json
			p := p
			if r.in.Version != "" {
				p.Version = r.in.Version
			}
			if regType == "oci" {
				p.Identifier = ident
			}
			sj.Packages = []Package{p}
			s.json = &sj
			return r.decide(StepRegistry, []group{r.registryGroup(s, false)})
		}
	}
	if err == nil {
		r.note(StepRegistry, u, false, "no registry entry publishes %s package %s", r.in.Ecosystem, ident)
	}
	p := Package{RegistryType: regType, Identifier: ident, Version: r.in.Version, Transport: Transport{Type: "stdio"}}
	b := &builder{name: r.defaultName(), values: r.opts.Inputs}
	c, ok := b.pkg(p)
	if !ok {
		return nil, fmt.Errorf("cannot run %s: %s", r.in.String(), strings.Join(b.notes, "; "))
	}
	c.Step, c.ID, c.Source = StepInput, r.defaultName(), r.in.String()
	r.note(StepInput, r.in.String(), true, "%s package %s: %s", r.in.Ecosystem, ident, CommandLine(c.Server))
	return r.decide(StepInput, []group{{id: c.ID, name: c.Server.Name, source: c.Source, cands: []Candidate{c}}})
}

// remote resolves the URL of a hosted endpoint. Its transport follows the
// path (/sse → SSE, else streamable HTTP), the other one is the fallback.
func (r *run) remote() (*Result, error) {
	b := &builder{name: r.defaultName()}
	typ := "streamable-http"
	if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(strings.SplitN(r.in.URL, "?", 2)[0]), "/"), "/sse") {
		typ = "sse"
	}
	c, _ := b.remote(Transport{Type: typ, URL: r.in.URL})
	if c.Server.Transport == canonical.HTTP {
		c.AltTransport = canonical.SSE
	} else {
		c.AltTransport = canonical.HTTP
	}
	c.Step, c.ID, c.Source = StepInput, r.defaultName(), r.in.URL
	r.note(StepInput, r.in.URL, true, "hosted endpoint, %s (the probe tries %s if that fails)", c.Server.Transport, c.AltTransport)
	return r.decide(StepInput, []group{{id: c.ID, name: c.Server.Name, source: c.Source, cands: []Candidate{c}}})
}

// decide turns the winning step's groups into one entry: several groups
// (servers) need --pick; within a group, --pick or --remote choose, else
// the first runnable package (the candidates are in preference order).
func (r *run) decide(step string, groups []group) (*Result, error) {
	pick := strings.TrimSpace(r.opts.Pick)
	if len(groups) > 1 {
		if pick == "" {
			var reps []Candidate
			for _, g := range groups {
				c := bestOf(g.cands, false)
				c.ID = g.id
				reps = append(reps, c)
			}
			return nil, &AmbiguousError{Input: r.in, Candidates: reps, Evidence: r.evidence, Ref: r.ref()}
		}
		var hit []group
		for _, g := range groups {
			if groupMatches(g, pick) {
				hit = append(hit, g)
			}
		}
		if len(hit) != 1 {
			var reps []Candidate
			for _, g := range groups {
				c := bestOf(g.cands, false)
				c.ID = g.id
				reps = append(reps, c)
			}
			if len(hit) == 0 {
				return nil, &PickError{Pick: pick, Candidates: reps}
			}
			return nil, &AmbiguousError{Input: r.in, Candidates: reps, Evidence: r.evidence, Ref: r.ref()}
		}
		groups, pick = hit, ""
		r.note(step, hit[0].source, true, "--pick chose %s", hit[0].id)
	}
	g := groups[0]
	cands := g.cands
	if len(cands) == 0 {
		return nil, &NotFoundError{Input: r.in, Evidence: r.evidence, Advice: r.advice}
	}
	if pick != "" && len(groups) == 1 && groupMatches(g, pick) {
		pick = "" // the pick names the one server there is
	}
	var chosen Candidate
	why := ""
	switch {
	case pick != "":
		var hit []Candidate
		for _, c := range cands {
			if candidateMatches(c, pick) {
				hit = append(hit, c)
			}
		}
		if len(hit) == 0 {
			return nil, &PickError{Pick: pick, Candidates: cands}
		}
		chosen = bestOf(hit, r.opts.Remote)
		why = "--pick " + pick + " chose it"
	case r.opts.Remote:
		remote := false
		for _, c := range cands {
			remote = remote || c.Runner == "remote"
		}
		if !remote {
			return nil, fmt.Errorf("%s offers no hosted endpoint (--remote); without --remote it runs as: %s",
				r.in.String(), CommandLine(bestOf(cands, false).Server))
		}
		chosen = bestOf(cands, true)
		why = "--remote: the first hosted endpoint"
	default:
		chosen = bestOf(cands, false)
		why = rankReason(chosen, cands)
		if chosen.Runner == "remote" {
			r.note(step, chosen.Source, true, "no package to run locally: using the hosted endpoint")
		}
	}
	if r.opts.Name != "" {
		chosen.Server.Name = r.opts.Name
	} else if g.name != "" {
		chosen.Server.Name = g.name
	}
	chosen.Server.Normalize()
	ordered := []Candidate{chosen}
	for _, c := range cands {
		if c.ID != chosen.ID || c.Source != chosen.Source || CommandLine(c.Server) != CommandLine(chosen.Server) {
			ordered = append(ordered, c)
		}
	}
	res := &Result{
		Input: r.in, Server: chosen.Server, Inputs: chosen.Inputs, Step: step, Source: chosen.Source,
		Runner: chosen.Runner, Evidence: r.evidence, Candidates: ordered, AltTransport: chosen.AltTransport, Why: why,
	}
	return res, nil
}

// ref is the branch or commit read, "" when no repository was.
func (r *run) ref() string {
	if r.repo == nil {
		return ""
	}
	return r.repo.ref
}

// bestOf returns the first candidate that runs locally (or, with remote,
// the first hosted one); candidates are in preference order.
func bestOf(cands []Candidate, remote bool) Candidate {
	for _, c := range cands {
		if (c.Runner == "remote") == remote {
			return c
		}
	}
	return cands[0]
}

func groupMatches(g group, pick string) bool {
	if strings.EqualFold(g.id, pick) || strings.EqualFold(g.name, pick) {
		return true
	}
	for _, c := range g.cands {
		if strings.EqualFold(c.RegistryName, pick) || c.Subfolder != "" &&
			(strings.EqualFold(c.Subfolder, strings.Trim(pick, "/")) || strings.EqualFold(path.Base(c.Subfolder), pick)) {
			return true
		}
	}
	return false
}

func candidateMatches(c Candidate, pick string) bool {
	return strings.EqualFold(c.ID, pick) || strings.EqualFold(c.Runner, pick) ||
		strings.EqualFold(c.Server.Command, pick) || strings.EqualFold(c.RegistryName, pick)
}
