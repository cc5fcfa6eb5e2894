// Package formats reads and writes each client's MCP configuration file.
//
// One Adapter per client, found through a Registry. Most clients are
// described declaratively by a Spec (an HCL file, embedded for the built-in
// clients, loaded from clients.d for user plugins); Go code exists only for
// real quirks.
//
// # Byte preservation
//
// Encode edits; it never re-serialises a whole file. Only the server entries
// that differ from what the file already holds are touched, and every other
// byte (comments, trailing commas, key order, indentation, unknown keys, line
// endings, final newline) stays as it was. Encode(Decode(x)) == x.
//
// # Errors
//
// Decode never panics and reports every problem as a canonical.Diagnostic
// with file:line:col. A field the client cannot express is a warning naming
// the server and the field, never a silent drop.
package formats

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/internal/suggest"
)

// Format is the syntax of a client file.
type Format string

const (
	JSON  Format = "json"  // strict JSON: no comments, no trailing commas
	JSONC Format = "jsonc" // JSON with comments and trailing commas
	// JSONComments allows comments but not trailing commas (Gemini CLI, Qwen Code).
	JSONComments Format = "json-comments"
	TOML         Format = "toml"
	YAML         Format = "yaml"
)

// Env is everything an adapter may know about the machine to find files.
// It is injected, never read from the process, so tests and --os can fake it.
type Env struct {
	Home       string // the user's home directory
	ProjectDir string // absolute project root ("" when there is none)
	OS         string // "linux", "darwin" or "windows": chooses paths and cmd /c wrapping
	// HostOS, when set, is the OS whose path syntax the paths are written
	// in, when it is not OS: a Windows client's files under a Windows home
	// mounted here (WSL's /mnt/c/Users/NAME) are Windows files at Linux
	// paths.
	HostOS string
	// Getenv reads variables that move client files ($CODEX_HOME,
	// $XDG_CONFIG_HOME, $APPDATA, ...). Nil reads nothing.
	Getenv func(string) string
	// Files moves clients' user-scope files, by client id: the file
	// attribute of a client block in the user's store, for a machine that
	// keeps a client somewhere else (VS Code Remote, WSL, a portable
	// install). Locate applies them.
	Files map[string]MovedFile
	// Exists reports whether a file is there, for clients that choose
	// between files by which exist (FileChooser). Nil looks on this
	// machine's disk.
	Exists func(path string) bool
	// Shown says the paths are another machine's, only to be shown: Locate
	// marks every location Shown.
	Shown bool
	// ReadDir lists the file names in a directory, for clients that read
	// every file of one (Continue's .continue/mcpServers). Nil looks on
	// this machine's disk; nothing is listed for Shown paths.
	ReadDir func(dir string) []string
}

// ClientOwner is an adapter whose client writes some entries of its own
// file itself (Codex Desktop's node_repl): they are the app's, not the
// user's servers, so sync never spreads them to other clients and import
// never takes them into the store; they stay in the file as they are.
// OwnedByClient says why srv is such an entry, or "".
type ClientOwner interface {
	OwnedByClient(srv canonical.Server) string
}

// RemoteManaged is an adapter whose client may replace the servers of a
// file with ones from elsewhere, such as the user's account (Claude Desktop
// signed in to a Team account rewrites its whole mcpServers from the cloud).
// While it does, the file's changes are the client's, not the user's, and
// what mcpsync writes there does not last: sync leaves such a file out and
// export warns. ManagedRemotely says why, given the file's bytes, or "".
type RemoteManaged interface {
	ManagedRemotely(loc Location, data []byte) string
}

// LeftAloner is an adapter that can say which entries of a file it leaves
// alone because they are not servers mcpsync can move (a Zed extension's
// settings): import names them, where they would otherwise vanish without
// a word. Decode does not report them, so exports stay quiet about them.
type LeftAloner interface {
	LeftAlone(loc Location, data []byte) canonical.Diagnostics
}

// ListDir lists the names of the regular files in dir (see Env.ReadDir),
// sorted; none for another machine's paths or a directory not there.
func (e Env) ListDir(dir string) []string {
	if e.Shown {
		return nil
	}
	if e.ReadDir != nil {
		return e.ReadDir(dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, en := range entries {
		if en.Type().IsRegular() {
			names = append(names, en.Name())
		}
	}
	return names
}

// PathOS is the OS whose separators the paths use: HostOS, else OS.
func (e Env) PathOS() string {
	if e.HostOS != "" {
		return e.HostOS
	}
	return e.OS
}

// exists is Env.Exists, or a stat of this machine's disk.
func (e Env) exists(path string) bool {
	if e.Exists != nil {
		return e.Exists(path)
	}
	_, err := os.Stat(path)
	return err == nil
}

// MovedFile is where a client's user-scope file is on this machine, and
// which OS the client that reads it runs on when that is not this one's
// (Claude Desktop on Windows, its file seen from WSL).
type MovedFile struct {
	Path string // absolute
	OS   string // "" (this machine's), "windows", "darwin" or "linux"
}

// Get returns the variable, or "" when Getenv is nil or it is unset.
func (e Env) Get(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

// A Location is one client file (or one section of a file) that holds servers.
type Location struct {
	Client string          `json:"client"`
	Scope  canonical.Scope `json:"scope"`
	Path   string          `json:"path"`
	Format Format          `json:"format"`
	// Project is the absolute project directory for Claude Code's local
	// scope, whose servers live under projects[Project] in ~/.claude.json.
	Project string `json:"project,omitempty"`
	// ReadOnly locations are read (imported, checked) but never written:
	// managed files, legacy locations superseded by another file.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Note explains a ReadOnly or legacy location to the user.
	Note string `json:"note,omitempty"`
	// OS is the OS of the client that reads the file when it is not the
	// one mcpsync writes for (a moved file's os): it chooses the shape of
	// what is written there (cmd /c npx on windows), as --os does.
	OS string `json:"os,omitempty"`
	// Root, when set, is the directory the file may not leave: the project
	// directory of a project-scope file, which came with a repository. It
	// is read and written beneath Root only (internal/safefile), so that a
	// link the repository holds cannot send either to the user's own files.
	Root string `json:"root,omitempty"`
	// Shown marks a file of another machine whose place here is unknown
	// (--os windows without --home): its path only says where that machine
	// keeps it. It is never read (it is as if absent) nor written.
	Shown bool `json:"shown,omitempty"`
	// ShadowedBy, when set, is a file whose presence makes the client
	// ignore this one (Copilot CLI reads .mcp.json, not .github/mcp.json,
	// while both exist); Locate then makes this one read-only, with
	// ShadowNote as its note, and sets Shadowed.
	ShadowedBy string `json:"-"`
	ShadowNote string `json:"-"`
	Shadowed   bool   `json:"-"`
}

func (l Location) String() string {
	s := l.Client + " (" + string(l.Scope) + ") " + l.Path
	if l.Project != "" {
		s += " [project " + l.Project + "]"
	}
	return s
}

// Capabilities says what a client can express. Writing a server that needs
// more gives warnings, never silent loss.
type Capabilities struct {
	Transports  []canonical.Transport `json:"transports"`
	Headers     bool                  `json:"headers"`
	Cwd         bool                  `json:"cwd"`
	Disabled    bool                  `json:"disabled"`
	ToolFilters bool                  `json:"toolFilters"`
	Timeouts    bool                  `json:"timeouts"`
	OAuth       bool                  `json:"oauth"`
	Comments    bool                  `json:"comments"`
	Dialect     string                `json:"placeholders"`
}

// Supports reports whether the client can run a server over t.
func (c Capabilities) Supports(t canonical.Transport) bool {
	for _, x := range c.Transports {
		if x == t {
			return true
		}
	}
	return false
}

// EncodeOptions are the user's choices that change what is written.
type EncodeOptions struct {
	// OS is the target machine: "windows" wraps npx-style commands as
	// cmd /c npx ... for clients that need it. Empty means Env.OS.
	OS string
	// BridgeRemote writes a remote server for a stdio-only client as
	// npx -y mcp-remote URL --header ... instead of skipping it.
	BridgeRemote bool
	// PromptInputs makes VS Code ask for secrets: a reference becomes an
	// ${input:...} with a matching promptString input instead of ${env:...}.
	PromptInputs bool
}

// For returns the options for writing loc: its own OS, when it has one,
// wins over the run's.
func (o EncodeOptions) For(loc Location) EncodeOptions {
	if loc.OS != "" {
		o.OS = loc.OS
	}
	return o
}

// Adapter reads and writes one client's MCP configuration.
type Adapter interface {
	// ID is the stable kebab-case client id: "claude-code", "cursor", ...
	ID() string
	// DisplayName is the client's name as users know it.
	DisplayName() string
	Capabilities() Capabilities
	// Locations lists the files the client reads, for every scope, whether
	// they exist or not. It does no I/O.
	Locations(env Env) []Location
	// Decode reads the servers at loc from data. Problems carry
	// file:line:col; Decode never panics on any input. Empty data is an
	// empty set. Decode depends on loc and data alone (no I/O, no
	// environment), so what it returned may be kept for the same bytes
	// (emitters.DecodeMemo).
	Decode(loc Location, data []byte) (canonical.Set, canonical.Diagnostics)
	// Encode returns data edited so that loc holds exactly the servers of
	// want, in want's order for new entries. data == nil means the file does
	// not exist yet. Entries that already match are left byte for byte;
	// entries not in want are removed; every byte outside the changed
	// entries stays. Fields the client cannot express are warnings.
	Encode(loc Location, data []byte, want canonical.Set, opts EncodeOptions) ([]byte, canonical.Diagnostics)
}

// A FileChooser is an Adapter whose scope may be served by one of several
// files (OpenCode reads opencode.jsonc and opencode.json). Locations marks
// every file but the usual one ReadOnly; ChooseFiles, given which files
// exist, returns the locations with the file to write made writable instead
// (the alternative when only it exists). Callers that write should use it
// when an adapter implements it.
type FileChooser interface {
	ChooseFiles(locs []Location, exists func(path string) bool) []Location
}

// AlsoReader is an Adapter whose client's files other programs read in the
// client's spelling (VS Code's Copilot harness reads Copilot CLI's): a
// warning that the client would skip a server names them too.
type AlsoReader interface {
	AlsoReadBy() []string
}

// NameRuler is an optional part of an Adapter whose client accepts only
// some server names (Pi: letters, digits, "_" and "-"). The adapter itself
// leaves other names out, with a warning; NameRuler lets callers and tests
// ask first.
type NameRuler interface {
	AcceptsName(name string) bool
}

// A ReadHinter is an Adapter that can tell, before it loads its own
// description, that it reads no file at path (no path of its ends the way
// this one does): a check of who else reads a written file then loads only
// the clients that may. True means "perhaps", never "yes".
type ReadHinter interface {
	MayRead(path string, env Env) bool
}

// A SectionRemover is an Adapter whose server map sits under keys of a
// larger file: "mcpServers" in Gemini's settings.json, "context_servers"
// in Zed's, projects[dir].mcpServers in ~/.claude.json, "extensions:" in
// Goose's config.yaml. Encode adds the missing keys when it writes the
// first server into a file that has none; the emitters record how many it
// added, and take them out again once the map is empty, so that connect
// then disconnect gives the file back as it was. A key the file already
// had is never removed, even empty: it is the user's (or the client's).
type SectionRemover interface {
	// MissingKeys reports how many of the keys leading to loc's server map
	// data lacks, counted from the innermost: 0 when the map is there
	// (even empty), all of them for an empty or missing file. Data that
	// does not parse is 0.
	MissingKeys(loc Location, data []byte) int
	// RemoveEmptyKeys removes the outermost of the n innermost keys leading
	// to loc's server map that holds nothing but the keys below it and an
	// empty map: no other member, no element, no comment. The bytes go as
	// if the key had never been added. It returns data unchanged when even
	// the server map itself holds something.
	RemoveEmptyKeys(loc Location, data []byte, n int) ([]byte, canonical.Diagnostics)
}

// A SideKeyRemover is an Adapter whose Encode may add a key beside the
// server map, for the servers' sake: VS Code's "inputs", the prompts that
// ${input:...} references ask for. The emitters record the side keys an
// edit added and, once one holds nothing again, have it removed, as they do
// for the keys leading to the map (SectionRemover): connect then
// disconnect leaves no residue. A side key the file already had is never
// removed, even empty.
type SideKeyRemover interface {
	// AddedSideKeys returns the side keys of loc's server map that after
	// has and before lacks.
	AddedSideKeys(loc Location, before, after []byte) []string
	// RemoveEmptySideKeys removes those of keys that hold nothing (no
	// element, no member, no comment) from data, the bytes going as if the
	// key had never been added. gone lists the keys data no longer has:
	// those removed, and those that were not there.
	RemoveEmptySideKeys(loc Location, data []byte, keys []string) (out []byte, gone []string, diags canonical.Diagnostics)
}

// Origin tells where an adapter was defined: built in, or a plugin file.
type Origin struct {
	Builtin bool   `json:"builtin"`
	File    string `json:"file,omitempty"`
}

// A Registry finds adapters by id. The order of All is the order of Register.
type Registry struct {
	adapters []Adapter
	origins  map[string]Origin
	byID     map[string]Adapter
	// Diags holds problems met while loading plugins; the registry still
	// works for every client that loaded.
	Diags canonical.Diagnostics
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byID: map[string]Adapter{}, origins: map[string]Origin{}}
}

// Register adds a. It panics on a nil adapter or a duplicate id, which are
// programming errors in the built-in list.
func (r *Registry) Register(a Adapter, origin Origin) {
	if a == nil {
		panic("formats: Register of nil adapter")
	}
	if _, dup := r.byID[a.ID()]; dup {
		panic("formats: duplicate adapter " + a.ID())
	}
	r.adapters = append(r.adapters, a)
	r.byID[a.ID()] = a
	r.origins[a.ID()] = origin
}

// Replace registers a, replacing an adapter of the same id if there is one
// (a user plugin may override a built-in client).
func (r *Registry) Replace(a Adapter, origin Origin) {
	if old, ok := r.byID[a.ID()]; ok {
		for i := range r.adapters {
			if r.adapters[i] == old {
				r.adapters[i] = a
			}
		}
		r.byID[a.ID()] = a
		r.origins[a.ID()] = origin
		return
	}
	r.Register(a, origin)
}

// All returns every adapter in registration order.
func (r *Registry) All() []Adapter { return append([]Adapter(nil), r.adapters...) }

// Origin returns where the adapter with this id came from.
func (r *Registry) Origin(id string) Origin { return r.origins[id] }

// Lookup finds an adapter by id (or a known alias). The error lists the
// known ids and suggests the closest one.
func (r *Registry) Lookup(id string) (Adapter, error) {
	if a, ok := r.byID[id]; ok {
		return a, nil
	}
	lower := strings.ToLower(id)
	if a, ok := r.byID[lower]; ok {
		return a, nil
	}
	for _, a := range r.adapters {
		if al, ok := a.(Aliaser); ok && slices.Contains(al.Aliases(), lower) {
			return a, nil
		}
	}
	msg := fmt.Sprintf("unknown client %q", id)
	if s := r.Suggest(id); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return nil, fmt.Errorf("%s; known clients: %s", msg, strings.Join(r.ids(), ", "))
}

// Suggest returns the known client id nearest to id, or "" when none is
// near enough to be the one meant.
func (r *Registry) Suggest(id string) string {
	return suggest.Closest(id, r.ids(), len(id)/2+2)
}

func (r *Registry) ids() []string {
	ids := make([]string, 0, len(r.byID))
	for k := range r.byID {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	return ids
}

// Locate returns the client's locations on env's machine, with the file
// a FileChooser client writes chosen by which files exist (OpenCode's
// opencode.json when it is the only one) and its user-scope file moved
// where env.Files says. Every command finds client files through Locate,
// never through Adapter.Locations, so that a moved or chosen file is read,
// written and described in the same place by all of them.
//
// The writable user-scope location takes the new path, and so does any
// other location in the same file (Claude Code's local scope lives in
// ~/.claude.json); the client's other user-scope locations (legacy files
// read for import) are left out: the user has said where this client's file
// is. A client without a writable user-scope file is not moved.
func Locate(a Adapter, env Env) []Location {
	locs := a.Locations(env)
	if chooser, ok := a.(FileChooser); ok {
		locs = chooser.ChooseFiles(locs, env.exists)
	}
	for i := range locs {
		if sh := locs[i].ShadowedBy; sh != "" && !locs[i].ReadOnly && env.exists(sh) {
			locs[i].ReadOnly, locs[i].Note, locs[i].Shadowed = true, locs[i].ShadowNote, true
		}
		locs[i].Shown = env.Shown
		if locs[i].Scope == canonical.ScopeProject && env.ProjectDir != "" {
			if _, inside := safefile.Within(env.ProjectDir, locs[i].Path); inside {
				locs[i].Root = env.ProjectDir
			}
		}
	}
	moved := env.Files[a.ID()]
	if moved.Path == "" {
		return locs
	}
	old := ""
	for _, l := range locs {
		if l.Scope == canonical.ScopeUser && !l.ReadOnly {
			old = l.Path
			break
		}
	}
	if old == "" {
		return locs
	}
	out := make([]Location, 0, len(locs))
	for _, l := range locs {
		switch {
		case l.Path == old:
			l.Path, l.Note, l.OS = moved.Path, "file set in mcpsync.hcl", moved.OS
			if moved.OS != "" {
				l.Note += ", written for " + moved.OS
			}
		case l.Scope == canonical.ScopeUser:
			continue
		}
		out = append(out, l)
	}
	return out
}

// A Preparer is an Adapter that does some work on first use (a built-in
// client parses its spec then) and can do it ahead, when asked.
type Preparer interface {
	Prepare()
}

// Prepare readies the adapters that are Preparers side by side, one per
// processor, where each would otherwise get ready on first use, one after
// the other: a 50-server export to five clients spent a tenth of its time
// (perf) parsing the four built-in client specs among them.
func Prepare(adapters []Adapter) {
	var todo []Preparer
	for _, ad := range adapters {
		if p, ok := ad.(Preparer); ok {
			todo = append(todo, p)
		}
	}
	workers := min(len(todo), runtime.GOMAXPROCS(0))
	if workers < 2 {
		return // on first use, as before
	}
	next := make(chan Preparer)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for p := range next {
				p.Prepare()
			}
		})
	}
	for _, p := range todo {
		next <- p
	}
	close(next)
	wg.Wait()
}
