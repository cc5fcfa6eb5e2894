package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/policy"
)

// PolicyOptions say which servers a policy lists and how it is laid out.
type PolicyOptions struct {
	// Source limits the list to one team source's approved servers; ""
	// is the store's servers and every source's approved ones.
	Source  string
	Mode    policy.Mode
	OSes    []string
	Vendors []string
	// Root is where this machine's installed policies are read (and, with
	// a check of the installed ones, nothing else): "/" by default, a
	// directory for an image or a test.
	Root string
}

// PolicyFile is a rendered policy file with what is installed at its
// place on this machine (for this machine's OS only).
type PolicyFile struct {
	policy.File
	// Layout is its path under the output directory.
	Layout string `json:"layout"`
	// Installed is where this machine reads it (under Root), "" for
	// another OS; Diff is from the installed bytes to the rendered ones.
	Installed string `json:"installed,omitempty"`
	Change    string `json:"change"` // created, updated, unchanged (against the installed file, or the output directory's)
	Diff      string `json:"-"`
}

// PolicyServers are the servers a policy lists (PolicyOptions.Source).
func (e *Engine) PolicyServers(source string) ([]canonical.Server, error) {
	servers, _, err := e.listedServers(source)
	return servers, err
}

// listedServers are the store's servers and every team source's approved
// ones, or only source's; fromSource names each one's source.
func (e *Engine) listedServers(source string) ([]canonical.Server, map[string]string, error) {
	st, ds, err := e.OpenStore(canonical.ScopeUser)
	if err != nil {
		return nil, nil, err
	}
	if ds.HasErrors() {
		return nil, nil, &ProblemsError{Diags: ds, Msg: e.StoreDisplay(st.Path) + " has errors; nothing was rendered"}
	}
	d, err := desired.Load(st, e.Dirs.State)
	if err != nil {
		return nil, nil, err
	}
	if source != "" {
		known := false
		for _, s := range st.Sources {
			known = known || s.Name == source
		}
		if !known {
			return nil, nil, Usagef("no team source %q in %s (see 'mcpsync source list')", source, e.StoreDisplay(st.Path))
		}
	}
	var out []canonical.Server
	for _, s := range d.Set.Servers {
		if source == "" || d.FromSource[s.Name] == source {
			out = append(out, s)
		}
	}
	if source != "" && len(out) == 0 {
		return nil, nil, fmt.Errorf("team source %s has no approved server: pull it and approve its servers first (mcpsync pull %s; mcpsync approve --all)", source, source)
	}
	return out, d.FromSource, nil
}

// policyEncoder spells servers as mcpsync writes them into each client's
// own file: Claude Code's project .mcp.json shape, Gemini CLI's settings.
func (e *Engine) policyEncoder() policy.Encoder {
	return func(client, goos string, servers []canonical.Server) ([]byte, error) {
		ad, err := e.Registry().Lookup(client)
		if err != nil {
			return nil, err
		}
		scope := canonical.ScopeUser
		if client == "claude-code" {
			scope = canonical.ScopeProject // managed-mcp.json is .mcp.json's format
		}
		loc := formats.ShapeLocation(ad, e.FormatsEnv(goos, "", nil), scope)
		loc.Path = "<policy>"
		out, ds := ad.Encode(loc, nil, canonical.Set{Servers: servers}, formats.EncodeOptions{OS: goos})
		if ds.HasErrors() {
			return nil, &ProblemsError{Diags: ds, Msg: "a server cannot be written for " + client + "; no policy was rendered"}
		}
		return out, nil
	}
}

// RenderPolicy renders every vendor's policy, each compared with what is
// installed on this machine (for its OS) or, with out, with the output
// directory's copy.
func (e *Engine) RenderPolicy(o PolicyOptions, out string) ([]PolicyFile, error) {
	servers, err := e.PolicyServers(o.Source)
	if err != nil {
		return nil, err
	}
	files, err := policy.Render(servers, policy.Options{Mode: o.Mode, OSes: o.OSes, Vendors: o.Vendors, Encode: e.policyEncoder()})
	if err != nil {
		return nil, err
	}
	var res []PolicyFile
	for _, f := range files {
		pf := PolicyFile{File: f, Layout: f.Layout()}
		compare := ""
		if out != "" {
			compare = filepath.Join(out, filepath.FromSlash(pf.Layout))
		}
		if f.OS == e.GOOS {
			pf.Installed = e.installedPath(o.Root, f.Path)
			if out == "" {
				compare = pf.Installed
			}
		}
		if compare != "" {
			old, err := os.ReadFile(compare)
			absent := errors.Is(err, fs.ErrNotExist)
			if err != nil && !absent {
				return nil, err
			}
			switch {
			case absent:
				pf.Change = "created"
			case string(old) == string(f.Data):
				pf.Change = "unchanged"
			default:
				pf.Change = "updated"
			}
			name := strings.TrimPrefix(filepath.ToSlash(f.Path), "/")
			pf.Diff = unidiff.Diff(unidiff.File{Name: name, Data: old, Absent: absent, Mode: 0o644},
				unidiff.File{Name: name, Data: f.Data, Mode: 0o644}, unidiff.Options{})
		} else {
			pf.Change = "created"
		}
		res = append(res, pf)
	}
	return res, nil
}

// installedPath is where this machine reads a vendor's file, under root.
func (e *Engine) installedPath(root, p string) string {
	if root == "" || root == "/" {
		return filepath.FromSlash(p)
	}
	if len(p) > 2 && p[1] == ':' {
		p = p[2:]
	}
	return filepath.Join(root, filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")))
}

// WritePolicy writes the rendered files under out, laid out by OS; every
// file is readable by all (an MDM or file drop installs them as they are).
func (e *Engine) WritePolicy(files []PolicyFile, out string) error {
	for _, f := range files {
		if f.Change == "unchanged" {
			continue
		}
		p := filepath.Join(out, filepath.FromSlash(f.Layout))
		if err := atomicfile.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("cannot write %s: %w", p, err)
		}
	}
	return nil
}

// InstalledPolicy reads the policies installed on this machine (under
// root): a file that is absent is no policy; one that does not parse is
// an error naming it.
func (e *Engine) InstalledPolicy(root string) (policy.Set, []string, error) {
	var set policy.Set
	var read []string
	load := func(vendor string, i int, parse func(data []byte, path string) error) error {
		dir, names := policy.Paths(vendor, e.GOOS)
		if dir == "" || i >= len(names) {
			return nil
		}
		p := e.installedPath(root, dir+string(filepath.Separator)+names[i])
		if e.GOOS == "windows" {
			p = e.installedPath(root, dir+`\`+names[i])
		}
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		read = append(read, p)
		if err := parse(data, p); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	}
	err := errors.Join(
		load("claude-code", 0, func(data []byte, p string) error {
			servers, err := e.decodeAs("claude-code", canonical.ScopeProject, p, data)
			set.ClaudeManaged = servers
			return err
		}),
		load("claude-code", 1, func(data []byte, _ string) (err error) {
			set.ClaudeSettings, err = policy.ParseClaudeSettings(data)
			return err
		}),
		load("codex", 0, func(data []byte, _ string) (err error) {
			set.Codex, err = policy.ParseCodex(data)
			return err
		}),
		load("gemini", 0, func(data []byte, p string) (err error) {
			if set.Gemini, err = policy.ParseGemini(data); err != nil {
				return err
			}
			set.GeminiServers, err = e.decodeAs("gemini", canonical.ScopeUser, p, data)
			return err
		}),
	)
	return set, read, err
}

// RenderedPolicy is the policy set the rendered files make, as a machine
// of this OS would read them.
func (e *Engine) RenderedPolicy(files []PolicyFile) (policy.Set, error) {
	var set policy.Set
	var err error
	for _, f := range files {
		if f.OS != e.GOOS {
			continue
		}
		switch {
		case f.Vendor == "claude-code" && strings.HasSuffix(f.Path, "managed-mcp.json"):
			set.ClaudeManaged, err = e.decodeAs("claude-code", canonical.ScopeProject, f.Path, f.Data)
		case f.Vendor == "claude-code":
			set.ClaudeSettings, err = policy.ParseClaudeSettings(f.Data)
		case f.Vendor == "codex":
			set.Codex, err = policy.ParseCodex(f.Data)
		case f.Vendor == "gemini":
			if set.Gemini, err = policy.ParseGemini(f.Data); err == nil {
				set.GeminiServers, err = e.decodeAs("gemini", canonical.ScopeUser, f.Path, f.Data)
			}
		}
		if err != nil {
			return set, err
		}
	}
	return set, nil
}

func (e *Engine) decodeAs(client string, scope canonical.Scope, path string, data []byte) (map[string]canonical.Server, error) {
	ad, err := e.Registry().Lookup(client)
	if err != nil {
		return nil, err
	}
	loc := formats.ShapeLocation(ad, e.FormatsEnv(e.GOOS, "", nil), scope)
	loc.Path = path
	set, ds := ad.Decode(loc, data)
	if ds.HasErrors() {
		return nil, &ProblemsError{Diags: ds.WithFile(path), Msg: path + " does not parse"}
	}
	out := map[string]canonical.Server{}
	for _, s := range set.Servers {
		out[s.Name] = s
	}
	return out, nil
}

// PolicyVerdicts says, for every server in this machine's files of each
// policy vendor's client (user and project scope), what the policy does.
func (e *Engine) PolicyVerdicts(set policy.Set, vendors []string) ([]policy.Verdict, error) {
	var out []policy.Verdict
	for _, v := range orAllVendors(vendors) {
		ad, err := e.Registry().Lookup(v)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, scope := range []canonical.Scope{canonical.ScopeUser, canonical.ScopeProject} {
			locs, err := e.ClientFiles(ad, scope, "")
			if err != nil {
				continue // the client has no file of that scope
			}
			got, _, err := e.ReadClient(ad, scope, "", locs, "cannot check the policy")
			if err != nil {
				var pe *ProblemsError
				if errors.As(err, &pe) {
					return nil, err
				}
				continue // no file of that scope here
			}
			for _, s := range got.Servers {
				if seen[s.Name] {
					continue
				}
				seen[s.Name] = true
				out = append(out, set.Check(v, s, e.GOOS))
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Vendor < out[j].Vendor })
	return out, nil
}

func orAllVendors(v []string) []string {
	if len(v) == 0 {
		return policy.Vendors
	}
	return v
}
