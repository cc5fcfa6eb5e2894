package resolve

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// A repository whose root holds several servers, one folder each (the
// reference servers' src/*, a workspace of packages), is a collection: the
// resolver lists what is there and the user chooses one, by --pick or by
// the folder's URL. Choosing one resolves that folder alone, as if its URL
// had been given, so that its own README, server.json and manifest decide.

// layoutRoots are the folders whose subfolders are, by convention, the
// members of a collection.
var layoutRoots = []string{"src", "packages", "servers", "mcp-servers", "apps"}

// manifestNames are the files that make a folder a package of its own.
var manifestNames = []string{"package.json", "pyproject.toml", "go.mod"}

// maxMembers bounds how many member folders are read.
const maxMembers = 40

// member is one server folder of a collection.
type member struct {
	dir  string
	cand Candidate
}

// members finds the folders of the repository root that each hold an MCP
// server: workspace members (npm, pnpm, uv, go.work) and the conventional
// layouts, each with a manifest that shows an MCP server (an MCP SDK among
// its dependencies, an mcpName, or mcp in its name) and a command to run.
func (r *run) members(ctx context.Context) ([]member, error) {
	if r.in.Subdir != "" {
		return nil, nil
	}
	dirs, err := r.memberDirs(ctx)
	if err != nil || len(dirs) < 2 {
		return nil, err
	}
	if len(dirs) > maxMembers {
		dirs = dirs[:maxMembers]
	}
	var out []member
	var others []string
	for _, d := range dirs {
		c, ok, err := r.memberServer(ctx, d)
		if err != nil {
			return nil, err
		}
		if !ok {
			others = append(others, d)
			continue
		}
		c.ID, c.Subfolder, c.Step = ShortName(path.Base(d)), d, StepMonorepo
		c.Server.Name = c.ID
		c.Source = r.repo.treeURL(d)
		out = append(out, member{dir: d, cand: c})
	}
	if len(out) < 2 {
		return nil, nil
	}
	var listed []string
	for _, m := range out {
		listed = append(listed, m.dir)
	}
	detail := fmt.Sprintf("%d folders hold a server each: %s", len(out), strings.Join(listed, ", "))
	if len(others) > 0 {
		detail += fmt.Sprintf(" (not servers: %s)", strings.Join(others, ", "))
	}
	r.note(StepMonorepo, r.in.RepoURL(), true, "%s", detail)
	return out, nil
}

// memberDirs lists the candidate member folders, sorted, without repeats.
func (r *run) memberDirs(ctx context.Context) ([]string, error) {
	seen := map[string]bool{}
	hasManifest := func(d string) bool {
		for _, m := range manifestNames {
			if r.repo.files[d+"/"+m] {
				return true
			}
		}
		return false
	}
	// add takes a workspace pattern: a folder, or folders under one (x/*).
	add := func(pattern string) {
		pattern = strings.Trim(strings.TrimPrefix(strings.TrimSpace(pattern), "./"), "/")
		if pattern == "" || strings.HasPrefix(pattern, "!") || strings.Contains(pattern, "..") {
			return
		}
		if parent, ok := strings.CutSuffix(pattern, "/*"); ok && !strings.ContainsAny(parent, "*?[") {
			for p := range r.repo.files {
				rest, ok := strings.CutPrefix(p, parent+"/")
				if !ok {
					continue
				}
				if sub, file, ok := strings.Cut(rest, "/"); ok && !strings.Contains(file, "/") && contains(manifestNames, file) {
					seen[parent+"/"+sub] = true
				}
			}
			return
		}
		if !strings.ContainsAny(pattern, "*?[") && hasManifest(pattern) {
			seen[pattern] = true
		}
	}
	for _, root := range layoutRoots {
		add(root + "/*")
	}
	if data, ok, err := r.readOnce(ctx, "package.json"); err != nil {
		return nil, err
	} else if ok {
		for _, p := range workspacePatterns(data) {
			add(p)
		}
	}
	if data, ok, err := r.readOnce(ctx, "pnpm-workspace.yaml"); err != nil {
		return nil, err
	} else if ok {
		for _, line := range lines(data) {
			if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
				add(strings.Trim(strings.TrimSpace(item), `'"`))
			}
		}
	}
	if data, ok, err := r.readOnce(ctx, "pyproject.toml"); err != nil {
		return nil, err
	} else if ok {
		var pp pyproject
		if _, err := toml.Decode(string(data), &pp); err == nil {
			for _, m := range pp.Tool.UV.Workspace.Members {
				add(m)
			}
		}
	}
	if data, ok, err := r.readOnce(ctx, "go.work"); err != nil {
		return nil, err
	} else if ok {
		for _, d := range goWorkUses(data) {
			add(d)
		}
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		if !skipDirs.Get().MatchString(d) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out, nil
}

// readOnce reads a repository file at most once per resolution.
func (r *run) readOnce(ctx context.Context, p string) ([]byte, bool, error) {
	b, err := r.readFile(ctx, p)
	return b, b != nil, err
}

// workspacePatterns reads package.json "workspaces": a list, or
// {"packages": [...]} (yarn).
func workspacePatterns(data []byte) []string {
	var pj struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	if json.Unmarshal(data, &pj) != nil || len(pj.Workspaces) == 0 {
		return nil
	}
	var list []string
	if json.Unmarshal(pj.Workspaces, &list) == nil {
		return list
	}
	var yarn struct {
		Packages []string `json:"packages"`
	}
	json.Unmarshal(pj.Workspaces, &yarn) //nolint:errcheck // not a workspace list: no members
	return yarn.Packages
}

// goWorkUses reads the folders of go.work's use directives.
func goWorkUses(data []byte) []string {
	var out []string
	block := false
	for _, line := range lines(data) {
		t := strings.TrimSpace(line)
		if i := strings.Index(t, "//"); i >= 0 {
			t = strings.TrimSpace(t[:i])
		}
		switch {
		case t == "use (":
			block = true
		case block && t == ")":
			block = false
		case block && t != "":
			out = append(out, t)
		case strings.HasPrefix(t, "use "):
			out = append(out, strings.TrimSpace(strings.TrimPrefix(t, "use ")))
		}
	}
	return out
}

// mcpSDKs are the dependencies that make a package an MCP server.
var mcpSDKs = map[string]bool{
	"@modelcontextprotocol/sdk": true, "@modelcontextprotocol/server": true, "fastmcp": true, "mcp-framework": true,
	"mcp": true, "mcp-server": true, // PyPI
	"github.com/mark3labs/mcp-go": true, "github.com/modelcontextprotocol/go-sdk": true, "github.com/metoro-io/mcp-golang": true,
}

// memberServer reads a member folder's manifest: a command to run it and
// whether it is an MCP server at all.
func (r *run) memberServer(ctx context.Context, dir string) (Candidate, bool, error) {
	name := ShortName(path.Base(dir))
	if data, ok, err := r.readOnce(ctx, dir+"/package.json"); err != nil {
		return Candidate{}, false, err
	} else if ok {
		pj, err := parsePackageJSON(data, dir+"/package.json")
		if err == nil && pj.isMCPServer() {
			if c, why := npmCandidate(pj, name); why == "" {
				c.Note = "package.json " + pj.Name
				return c, true, nil
			}
		}
	}
	if data, ok, err := r.readOnce(ctx, dir+"/pyproject.toml"); err != nil {
		return Candidate{}, false, err
	} else if ok {
		var pp pyproject
		if _, err := toml.Decode(string(data), &pp); err == nil {
			deps := make([]string, 0, len(pp.Project.Dependencies))
			for _, d := range pp.Project.Dependencies {
				deps = append(deps, requirementName(d))
			}
			if strings.Contains(strings.ToLower(pp.Project.Name), "mcp") || anySDK(deps) {
				if cands, _ := pypiCandidates(data, dir+"/pyproject.toml", name); len(cands) > 0 {
					c := cands[0]
					c.Note = "pyproject " + pp.Project.Name
					return c, true, nil
				}
			}
		}
	}
	if data, ok, err := r.readOnce(ctx, dir+"/go.mod"); err != nil {
		return Candidate{}, false, err
	} else if ok {
		mod := goModule(data)
		if mod != "" && (strings.Contains(strings.ToLower(mod), "mcp") || anySDK(goRequires(data))) {
			files := make([]string, 0, len(r.repo.files))
			for p := range r.repo.files {
				files = append(files, p)
			}
			if mains := goMainDirs(files, dir); len(mains) > 0 {
				pkg := mod
				if mains[0] != "" {
					pkg += "/" + mains[0]
				}
				return Candidate{Runner: "go", Server: goServer(name, pkg, "latest"), Note: "go.mod " + mod}, true, nil
			}
		}
	}
	return Candidate{}, false, nil
}

// isMCPServer reports a package that says it is an MCP server: an
// mcpName, an MCP SDK among its dependencies, or mcp in its name.
func (p *packageJSON) isMCPServer() bool {
	return p.MCPName != "" || strings.Contains(strings.ToLower(p.Name), "mcp") || anySDK(keys(p.Dependencies))
}

func anySDK(deps []string) bool {
	for _, d := range deps {
		if mcpSDKs[strings.ToLower(d)] {
			return true
		}
	}
	return false
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// requirementName is the project name of a PEP 508 requirement:
// "mcp[cli]>=1.2" → mcp.
func requirementName(req string) string {
	req = strings.TrimSpace(req)
	end := strings.IndexFunc(req, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	})
	if end >= 0 {
		req = req[:end]
	}
	return strings.ReplaceAll(strings.ToLower(req), "_", "-")
}

// goRequires lists the module paths go.mod requires.
func goRequires(data []byte) []string {
	var out []string
	block := false
	for _, line := range lines(data) {
		t := strings.TrimSpace(line)
		switch {
		case t == "require (":
			block = true
		case block && t == ")":
			block = false
		case block:
			if f := strings.Fields(t); len(f) > 0 && !strings.HasPrefix(f[0], "//") {
				out = append(out, f[0])
			}
		case strings.HasPrefix(t, "require "):
			if f := strings.Fields(t); len(f) > 1 {
				out = append(out, f[1])
			}
		}
	}
	return out
}

// inMember resolves one member folder on its own: the chain again, as if
// the folder's URL had been given, its evidence after the collection's.
func (r *run) inMember(ctx context.Context, m member) (*Result, error) {
	in := r.in
	in.Subdir, in.Ref = m.dir, r.repo.ref
	in.Raw = in.String()
	opts := r.opts
	opts.Pick = ""
	sub := &run{in: in, opts: opts, f: r.f, reg: r.reg}
	sub.note(StepMonorepo, m.cand.Source, true, "--pick %s: resolving %s on its own", m.cand.ID, m.dir)
	res, err := sub.github(ctx)
	evidence := append(append([]Step{}, r.evidence...), sub.evidence...)
	if res != nil {
		res.Evidence = evidence
	}
	setEvidence(err, evidence)
	return res, err
}

// setEvidence puts the whole chain's evidence into the errors that carry it.
func setEvidence(err error, ev []Step) {
	switch e := err.(type) {
	case *NotFoundError:
		e.Evidence = ev
	case *AmbiguousError:
		e.Evidence = ev
	case *PluginError:
		e.Evidence = ev
	}
}

// collection answers for a repository of several servers: with --pick
// naming one of them, that one resolved on its own; else the list.
func (r *run) collection(ctx context.Context, ms []member) (*Result, error) {
	var cands []Candidate
	for _, m := range ms {
		cands = append(cands, m.cand)
	}
	pick := strings.TrimSpace(r.opts.Pick)
	if pick == "" {
		return nil, &AmbiguousError{Input: r.in, Candidates: cands, Evidence: r.evidence, Ref: r.repo.ref}
	}
	var hit []member
	for _, m := range ms {
		if strings.EqualFold(m.cand.ID, pick) || strings.EqualFold(m.dir, strings.Trim(pick, "/")) ||
			strings.EqualFold(path.Base(m.dir), pick) || strings.EqualFold(unscoped(packageOf(m.cand)), pick) {
			hit = append(hit, m)
		}
	}
	switch len(hit) {
	case 0:
		return nil, &PickError{Pick: pick, Candidates: cands}
	case 1:
		return r.inMember(ctx, hit[0])
	}
	return nil, &AmbiguousError{Input: r.in, Candidates: cands, Evidence: r.evidence, Ref: r.repo.ref}
}

// packageOf is the package a candidate runs: npx's or uvx's argument.
func packageOf(c Candidate) string {
	for _, a := range c.Server.Args {
		if p, ok := strings.CutPrefix(a, "--package="); ok {
			return p
		}
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// lines splits a file into lines at \n, \r\n or a lone \r.
func lines(data []byte) []string {
	return strings.FieldsFunc(string(data), func(r rune) bool { return r == '\n' || r == '\r' })
}
