package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/internal/parallel"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/store"
)

// StoreFile is one of mcpsync's own stores to check.
type StoreFile struct {
	Path  string
	Scope canonical.Scope // user or project
}

// Options say what to check.
type Options struct {
	Registry *formats.Registry
	Env      formats.Env
	// LookupEnv tells whether a referenced variable is set; nil skips the
	// unset-reference check.
	LookupEnv func(string) (string, bool)
	// Stores are checked and compared with the clients of their scope.
	Stores []StoreFile
	// StateDir holds mcpsync's state and backups: old bytes of client
	// files, which must not be readable by others either.
	StateDir string
	// Clients, when not empty, limits the check to these client ids.
	Clients []string
	// Scopes, when not empty, limits the check to these scopes.
	Scopes []canonical.Scope
	// Team are the user store's team-source servers in effect (the
	// approved versions, under the names clients see), and TeamSource
	// names each one's source: a client's entry of one is compared with
	// the source's version, as a store server's is with the store's.
	Team       canonical.Set
	TeamSource map[string]string
	// ParseCache, when set, is where a store unchanged since mcpsync last
	// parsed it is read from (the parse cache every command uses).
	ParseCache store.Cache
}

// fileCheck is one client file to check (CheckFile and the checks that
// need the client), and then what the check found.
type fileCheck struct {
	ad       formats.Adapter
	loc      formats.Location
	ordinal  int
	data     []byte
	mode     fs.FileMode
	file     int // its FileReport in Report.Files
	findings []Finding
	set      canonical.Set
}

func (c *fileCheck) run(o Options) {
	ad, loc := c.ad, c.loc
	found, set := CheckFile(FileInput{Adapter: ad, Location: loc, Data: c.data, Mode: c.mode, LookupEnv: o.LookupEnv,
		ImportHint: importHint(ad.ID(), loc, o.Env)})
	found = append(found, unapprovedFindings(ad, loc, set, o.Env)...)
	if rm, ok := ad.(formats.RemoteManaged); ok {
		if why := rm.ManagedRemotely(loc, c.data); why != "" {
			found = append(found, Finding{Severity: SevInfo, Kind: ReplacedRemotely, Client: ad.ID(), Scope: loc.Scope, File: loc.Path,
				Message: why + ": servers added here by hand, or by mcpsync, may vanish when it next syncs; sync leaves the file out",
				Fix:     "keep this machine's servers elsewhere (the account's connectors, or a client whose file is yours), or remove that key from the file"})
		}
	}
	for i := range found {
		if found[i].File == loc.Path {
			found[i].Root = loc.Root
		}
	}
	c.findings, c.set, c.data = found, set, nil
}

// entry is one server as one client location holds it.
type entry struct {
	client  formats.Adapter
	loc     formats.Location
	srv     canonical.Server
	ordinal int // position of the location among the client's
}

// Run checks every client file of the chosen clients and scopes, the
// stores, and how they agree. Files that do not exist are listed, not
// reported.
func Run(o Options) *Report {
	r := &Report{Files: []FileReport{}, Findings: []Finding{}}
	var entries []entry
	var checks []fileCheck
	checkedPaths := map[string]bool{}
	var chosen []formats.Adapter
	for _, ad := range o.Registry.All() {
		if len(o.Clients) == 0 || slices.Contains(o.Clients, ad.ID()) {
			chosen = append(chosen, ad)
		}
	}
	// The chosen clients' specs, parsed side by side before they are
	// asked where their files are (one after the other, parsing every
	// client's spec was a third of mcpsync doctor).
	formats.Prepare(chosen)
	for _, ad := range chosen {
		// One section of one file is read once per client: run from the
		// home directory, a client's project file is its user file
		// (~/.cursor/mcp.json is also ./.cursor/mcp.json), and its servers
		// are not in two scopes.
		sections := map[string]bool{}
		for i, loc := range formats.Locate(ad, o.Env) {
			if len(o.Scopes) > 0 && !slices.Contains(o.Scopes, loc.Scope) {
				continue
			}
			if loc.Scope == canonical.ScopeLocal && !formats.InScope(loc, canonical.ScopeLocal, o.Env.ProjectDir) {
				continue
			}
			section := filepath.Clean(loc.Path) + "\x00" + loc.Project
			if real, err := atomicfile.Resolve(loc.Path); err == nil {
				section = real + "\x00" + loc.Project
			}
			if sections[section] {
				continue
			}
			sections[section] = true
			fr := FileReport{Client: ad.ID(), Scope: loc.Scope, Path: loc.Path, Project: loc.Project}
			data, mode, err := readFile(loc.Path, loc.Root)
			if !checkedPaths[loc.Path] {
				for _, tmp := range atomicfile.StaleTemps(loc.Path) {
					r.Findings = append(r.Findings, Finding{Severity: SevWarning, Kind: LeftoverTempFile, Client: ad.ID(), Scope: loc.Scope,
						File: tmp, Message: "a temporary file left by an mcpsync that was killed while writing " + filepath.Base(loc.Path) + "; no client reads it",
						Fix: "remove it (rm " + shellQuote(tmp) + "); the next mcpsync write of the file removes it too"})
				}
			}
			switch {
			case errors.Is(err, fs.ErrNotExist):
				r.Files = append(r.Files, fr)
				continue
			case err != nil:
				fix := "fix its permissions; until then neither " + ad.DisplayName() + " nor mcpsync can use it"
				if errors.As(err, new(*safefile.LinkOutError)) || errors.As(err, new(*safefile.NotRegularError)) {
					fix = "replace it with a regular file of its own, or remove it; mcpsync neither reads nor writes it as it is"
				}
				r.Findings = append(r.Findings, Finding{Severity: SevError, Kind: ReadError, Client: ad.ID(), Scope: loc.Scope,
					File: loc.Path, Message: "cannot read the file: " + err.Error(), Fix: fix})
				r.Files = append(r.Files, fr)
				continue
			}
			fr.Exists = true
			if checkedPaths[loc.Path] {
				mode = 0 // one permission finding per file
			}
			checkedPaths[loc.Path] = true
			checks = append(checks, fileCheck{ad: ad, loc: loc, ordinal: i, data: data, mode: mode, file: len(r.Files)})
			r.Files = append(r.Files, fr)
		}
	}
	// The files are checked side by side (each decoded and scanned for
	// secrets: at 10,000 servers in five files, a second one after the
	// other), and their findings and entries taken in file order.
	parallel.Each(len(checks), func(i int) { checks[i].run(o) })
	for _, c := range checks {
		r.Findings = append(r.Findings, c.findings...)
		r.Files[c.file].Servers = c.set.Len()
		for _, srv := range c.set.Servers {
			entries = append(entries, entry{client: c.ad, loc: c.loc, srv: srv, ordinal: c.ordinal})
		}
	}
	stores := map[canonical.Scope]*store.Store{}
	for _, sf := range o.Stores {
		if len(o.Scopes) > 0 && !slices.Contains(o.Scopes, sf.Scope) && !(sf.Scope == canonical.ScopeUser && slices.Contains(o.Scopes, canonical.ScopeLocal)) {
			continue
		}
		if st := checkStore(r, sf, o.LookupEnv, o.ParseCache); st != nil {
			stores[sf.Scope] = st
			r.Findings = append(r.Findings, checkClientBlocks(st, sf, o.Registry)...)
		}
	}
	r.Findings = append(r.Findings, duplicates(entries)...)
	r.Findings = append(r.Findings, drift(entries, stores, o.Env.OS, team{o.Team, o.TeamSource})...)
	if o.StateDir != "" {
		r.Findings = append(r.Findings, checkStateDir(o.StateDir)...)
	}
	r.Findings = dedupe(r.Findings)
	sortFindings(r.Findings)
	return r
}

// readFile reads a file to check, beneath root when it is set (safefile:
// no link out of a project, no FIFO or device, a size cap). An absent file
// is fs.ErrNotExist; a link out of the project is a read error to report.
func readFile(path, root string) ([]byte, fs.FileMode, error) {
	data, mode, err := safefile.ReadFile(path, root)
	var linkOut *safefile.LinkOutError
	if errors.As(err, &linkOut) {
		return nil, 0, linkOut // reported, not "missing"
	}
	return data, mode, err
}

// importHint is how to name a location to import: "--from cursor
// --scope project".
func importHint(client string, loc formats.Location, env formats.Env) string {
	if loc.ReadOnly {
		return ""
	}
	h := "--from " + client
	if loc.Scope != canonical.ScopeUser {
		h += " --scope " + string(loc.Scope)
	}
	return h
}

// checkStore checks one of mcpsync's stores like a client file and returns
// it when it loaded.
func checkStore(r *Report, sf StoreFile, lookup func(string) (string, bool), cache store.Cache) *store.Store {
	root := ""
	if sf.Scope == canonical.ScopeProject {
		root = filepath.Dir(sf.Path) // it came with the project
	}
	data, mode, err := readFile(sf.Path, root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	base := Finding{Client: "store", Scope: sf.Scope, File: sf.Path, Root: root}
	if err != nil {
		f := base
		f.Severity, f.Kind, f.Message = SevError, ReadError, "cannot read the store: "+err.Error()
		f.Fix = "fix its permissions; until then mcpsync refuses to change anything"
		r.Findings = append(r.Findings, f)
		return nil
	}
	st, ds := store.ParseCached(sf.Path, data, cache)
	for _, d := range ds {
		f := classify(d, "mcpsync")
		f.Client, f.Scope = "store", sf.Scope
		f.File, f.Line, f.Column = d.File, d.Line, d.Column
		if f.File == "" {
			f.File = sf.Path
		}
		r.Findings = append(r.Findings, f)
	}
	if ds.HasErrors() {
		return nil
	}
	count := 0
	for _, srv := range st.Servers.Servers {
		for _, sfd := range secrets.ScanServer(srv) {
			count++
			f := base
			f.Severity, f.Kind, f.Server, f.Field = SevWarning, LiteralSecret, srv.Name, sfd.Field
			where := "your store"
			if sf.Scope == canonical.ScopeProject {
				f.Severity, where = SevError, "the project's store, which is committed and shared"
			}
			f.Message = sfd.Describe() + " in " + where
			f.Fix = fmt.Sprintf("write env(%q) instead and set it with: export %s=…", sfd.Var, sfd.Var)
			p := locate(data, sf.Path, srv.Origin, sfd.Value)
			f.Line, f.Column = p.Line, p.Column
			r.Findings = append(r.Findings, f)
		}
		if lookup != nil {
			storeDefault := func(name string) (string, bool) { return store.DefaultRef(name, "value"), true }
			for _, u := range unsetRefs(srv, lookup, "a client", storeDefault) {
				u.Client, u.Scope, u.File, u.Line, u.Column = "store", sf.Scope, sf.Path, srv.Origin.Line, srv.Origin.Column
				r.Findings = append(r.Findings, u)
			}
		}
	}
	if count > 0 && mode.Perm()&0o004 != 0 {
		f := base
		f.Severity, f.Kind = SevError, WorldReadableSecret
		f.Message = fmt.Sprintf("every user of this machine can read the store (mode %04o) and it holds %d literal secret(s)", mode.Perm(), count)
		f.Fix = "chmod 600 " + shellQuote(sf.Path) + ", then replace the values with env(\"NAME\")"
		r.Findings = append(r.Findings, f)
	}
	return st
}

// checkClientBlocks reports client blocks that apply to nothing: rules and
// files are matched by client id, so a typo or an alias ("claude" for
// claude-code) silently sends every server to the client it meant.
func checkClientBlocks(st *store.Store, sf StoreFile, reg *formats.Registry) []Finding {
	if reg == nil {
		return nil
	}
	names := make([]string, 0, len(st.Clients))
	for name := range st.Clients {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []Finding
	for _, name := range names {
		ad, err := reg.Lookup(name)
		if err == nil && ad.ID() == name {
			continue
		}
		f := Finding{Severity: SevWarning, Kind: UnknownClient, Client: "store", Scope: sf.Scope, File: sf.Path,
			Line: st.Clients[name].Pos.Line, Column: st.Clients[name].Pos.Column}
		if err == nil {
			f.Message = fmt.Sprintf("client %q is another name for %s: its block applies to no client", name, ad.ID())
			f.Fix = fmt.Sprintf("write client %q: blocks are matched by client id", ad.ID())
		} else {
			f.Message = fmt.Sprintf("unknown client %q", name)
			if s := reg.Suggest(name); s != "" {
				f.Message += fmt.Sprintf(" (did you mean %q?)", s)
			}
			f.Message += ": its block applies to no client"
			f.Fix = "write the id of a client that mcpsync clients lists"
		}
		out = append(out, f)
	}
	return out
}

// checkStateDir reports a state directory others can read: it holds the
// backups, old bytes of client files that may hold secrets.
func checkStateDir(dir string) []Finding {
	var out []Finding
	for _, d := range []string{dir, filepath.Join(dir, "backups")} {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() {
			continue
		}
		if fi.Mode().Perm()&0o005 != 0 {
			out = append(out, Finding{Severity: SevWarning, Kind: WorldReadableSecret, Client: "mcpsync", File: d,
				Message: fmt.Sprintf("mcpsync's state directory is open to every user of this machine (mode %04o); its backups are old copies of client files", fi.Mode().Perm()),
				Fix:     "chmod 700 " + shellQuote(d)})
		}
	}
	return out
}

// scopeRank says which scope a client uses when one name is in several:
// the lower the rank, the more it wins.
type scopeRank struct {
	order []canonical.Scope
	rule  string
}

var defaultPrecedence = scopeRank{[]canonical.Scope{canonical.ScopeManaged, canonical.ScopeLocal, canonical.ScopeProject, canonical.ScopeUser},
	"%s does not document it; mcpsync assumes the project's file wins over the user's, as in the clients that do"}

// rankOf is the client's documented rule for a name in several scopes
// (its spec's precedence), else the rule every documented client follows:
// a project's file wins over the user's.
func rankOf(ad formats.Adapter) scopeRank {
	if p, ok := ad.(formats.Precedencer); ok {
		if order, rule := p.Precedence(); len(order) > 0 {
			return scopeRank{order, rule}
		}
	}
	return defaultPrecedence
}

// duplicates reports servers one client has in several scopes or files,
// and says which definition the client uses.
func duplicates(entries []entry) []Finding {
	type key struct{ client, name string }
	groups := map[key][]entry{}
	var order []key
	for _, e := range entries {
		k := key{e.client.ID(), e.srv.Name}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	var out []Finding
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		rank := rankOf(g[0].client)
		winner := g[0]
		for _, e := range g[1:] {
			if better(rank, e, winner) {
				winner = e
			}
		}
		same := true
		var places []string
		for _, e := range g {
			if !canonical.Equal(e.srv, winner.srv) {
				same = false
			}
			places = append(places, fmt.Sprintf("%s (%s)", e.loc.Scope, e.srv.Origin))
		}
		rule := rank.rule
		if strings.Contains(rule, "%s") {
			rule = fmt.Sprintf(rule, winner.client.DisplayName())
		}
		f := Finding{Kind: DuplicateAcrossScopes, Client: k.client, Scope: winner.loc.Scope, Server: k.name,
			File: winner.srv.Origin.File, Line: winner.srv.Origin.Line, Column: winner.srv.Origin.Column}
		if f.File == "" {
			f.File = winner.loc.Path
		}
		if same {
			f.Severity = SevInfo
			f.Message = fmt.Sprintf("defined the same way in %s; %s uses the %s one (%s)", strings.Join(places, " and "),
				winner.client.DisplayName(), winner.loc.Scope, rule)
			f.Fix = "harmless; remove the copies you do not need"
		} else {
			f.Severity = SevWarning
			f.Message = fmt.Sprintf("defined differently in %s; %s uses the %s one, the others are hidden (%s)", strings.Join(places, " and "),
				winner.client.DisplayName(), winner.loc.Scope, rule)
			f.Fix = "rename one of them, or remove the one you do not mean"
		}
		out = append(out, f)
	}
	return out
}

func better(r scopeRank, a, b entry) bool {
	ra, rb := slices.Index(r.order, a.loc.Scope), slices.Index(r.order, b.loc.Scope)
	if ra != rb {
		return ra >= 0 && (rb < 0 || ra < rb)
	}
	return a.ordinal < b.ordinal // among a scope's files, the one listed first
}
