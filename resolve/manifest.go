package resolve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/mcpsync/mcpsync/canonical"
)

// packageJSON is the part of an npm manifest the resolver reads.
type packageJSON struct {
	Name       string          `json:"name"`
	Version    string          `json:"version"`
	Private    bool            `json:"private"`
	Bin        json.RawMessage `json:"bin"`
	MCPName    string          `json:"mcpName"`
	Workspaces json.RawMessage `json:"workspaces"`
	// Dependencies tell an MCP server (it depends on an MCP SDK) from a
	// library or tool of the same repository.
	Dependencies map[string]string `json:"dependencies"`

	path string // where it was read, in the repository
}

func parsePackageJSON(data []byte, p string) (*packageJSON, error) {
	var pj packageJSON
	if err := json.Unmarshal(data, &pj); err != nil {
		return nil, fmt.Errorf("%s: %s", p, jsonErrorAt(data, err))
	}
	pj.path = p
	return &pj, nil
}

// bins returns the executables the package installs, sorted. A string
// "bin" installs one named after the package.
func (p *packageJSON) bins() []string {
	if len(p.Bin) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(p.Bin, &one) == nil {
		if one == "" {
			return nil
		}
		return []string{unscoped(p.Name)}
	}
	var many map[string]string
	if json.Unmarshal(p.Bin, &many) != nil {
		return nil
	}
	out := make([]string, 0, len(many))
	for k := range many {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (p *packageJSON) isWorkspaceRoot() bool {
	return p.Private || (len(p.Workspaces) > 0 && string(p.Workspaces) != "null")
}

func unscoped(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// npmCandidate turns a publishable package with executables into
// npx -y <name>. A package with several executables runs the one named
// after it, or the one whose name says mcp, through --package.
func npmCandidate(p *packageJSON, name string) (Candidate, string) {
	if p.Private {
		return Candidate{}, p.path + " is private (a workspace root or an unpublished package): it cannot be run with npx"
	}
	if p.Name == "" {
		return Candidate{}, p.path + " has no name"
	}
	bins := p.bins()
	if len(bins) == 0 {
		return Candidate{}, p.path + " (" + p.Name + ") declares no bin: it installs no command to run"
	}
	args := []string{"-y", p.Name}
	if len(bins) > 1 && !contains(bins, unscoped(p.Name)) {
		pick := bins[0]
		for _, b := range bins {
			if strings.Contains(strings.ToLower(b), "mcp") {
				pick = b
				break
			}
		}
		args = []string{"-y", "--package=" + p.Name, pick}
	}
	srv := canonical.Server{Name: name, Transport: canonical.Stdio, Command: "npx", Args: args}
	return Candidate{Step: StepManifest, Server: srv, Runner: "npx", Note: "package.json " + p.Name + " declares bin " + strings.Join(bins, ", ")}, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pyproject is the part of pyproject.toml the resolver reads.
type pyproject struct {
	Project struct {
		Name         string            `toml:"name"`
		Scripts      map[string]string `toml:"scripts"`
		Dependencies []string          `toml:"dependencies"`
	} `toml:"project"`
	Tool struct {
		UV struct {
			Workspace struct {
				Members []string `toml:"members"`
			} `toml:"workspace"`
		} `toml:"uv"`
		Poetry struct {
			Name    string         `toml:"name"`
			Scripts map[string]any `toml:"scripts"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

// pypiCandidates turns [project.scripts] into uvx commands: uvx <name>
// when a script is named after the project, else uvx --from <project>
// <script> for each script (the caller asks the user to choose).
func pypiCandidates(data []byte, p, name string) ([]Candidate, string) {
	var pp pyproject
	if _, err := toml.Decode(string(data), &pp); err != nil {
		return nil, p + ": " + err.Error()
	}
	proj := pp.Project.Name
	scripts := map[string]bool{}
	for s := range pp.Project.Scripts {
		scripts[s] = true
	}
	if proj == "" {
		proj = pp.Tool.Poetry.Name
		for s := range pp.Tool.Poetry.Scripts {
			scripts[s] = true
		}
	}
	if proj == "" {
		return nil, p + " has no [project] name"
	}
	if len(scripts) == 0 {
		return nil, p + " (" + proj + ") declares no [project.scripts]: it installs no command to run"
	}
	mk := func(args []string, script string) Candidate {
		return Candidate{Step: StepManifest, Runner: "uvx", ID: name + ":" + script,
			Server: canonical.Server{Name: name, Transport: canonical.Stdio, Command: "uvx", Args: args},
			Note:   "pyproject " + proj + " declares script " + script + "; its published name on PyPI may differ"}
	}
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	for s := range scripts {
		if norm(s) == norm(proj) {
			return []Candidate{mk([]string{proj}, s)}, ""
		}
	}
	names := make([]string, 0, len(scripts))
	for s := range scripts {
		names = append(names, s)
	}
	sort.Strings(names)
	var out []Candidate
	for _, s := range names {
		out = append(out, mk([]string{"--from", proj, s}, s))
	}
	// One script that says mcp among several is the server; the others
	// are tools of the same package.
	var mcp []Candidate
	for i, s := range names {
		if strings.Contains(strings.ToLower(s), "mcp") {
			mcp = append(mcp, out[i])
		}
	}
	if len(out) > 1 && len(mcp) == 1 {
		return mcp, ""
	}
	return out, ""
}

// goModule reads the module path from go.mod.
func goModule(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			mod := strings.Trim(strings.TrimSpace(rest), `"`)
			if i := strings.Index(mod, "//"); i >= 0 {
				mod = strings.TrimSpace(mod[:i])
			}
			return mod
		}
	}
	return ""
}

// goReplaces reports a go.mod with replace directives.
func goReplaces(data []byte) bool {
	for _, line := range lines(data) {
		t := strings.TrimSpace(line)
		if t == "replace" || strings.HasPrefix(t, "replace ") || strings.HasPrefix(t, "replace(") || strings.HasPrefix(t, "replace\t") {
			return true
		}
	}
	return false
}

// goMainDirs returns the directories (relative to the module root) that
// hold a main.go: "" for the root, "cmd/x" for commands.
func goMainDirs(files []string, modRoot string) []string {
	prefix := ""
	if modRoot != "" {
		prefix = modRoot + "/"
	}
	var out []string
	for _, f := range files {
		if !strings.HasPrefix(f, prefix) || path.Base(f) != "main.go" {
			continue
		}
		dir := path.Dir(strings.TrimPrefix(f, prefix))
		if dir == "." {
			dir = ""
		}
		if dir != "" && !strings.HasPrefix(dir, "cmd/") {
			continue // examples/, internal/tools/... are not the server
		}
		out = append(out, dir)
	}
	sort.Strings(out)
	return out
}

// isPackageMain reports whether a Go file declares package main.
func isPackageMain(src []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "package ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "package ")) == "main"
		}
	}
	return false
}
