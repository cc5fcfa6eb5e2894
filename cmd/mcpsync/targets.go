package main

// Shared code of the commands that read and write client files: clients,
// import, export, diff and convert.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/state"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/internal/xdg"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

// lockWait is how long a writing command waits for another mcpsync to finish.
const lockWait = 10 * time.Second

// beforeApplyHook, when set (by tests), runs between the last check of the
// client files and the first write.
var beforeApplyHook func(paths []string)

// registry returns every client mcpsync knows: built-in adapters, then the
// user's plugins from $XDG_CONFIG_HOME/mcpsync/clients.d. A plugin that does
// not load is reported and skipped; the other clients still work.
func (a *App) registry() *formats.Registry {
	r := all.NewRegistry(all.Options{PluginDir: filepath.Join(a.Dirs.Config, "clients.d")})
	if len(r.Diags) > 0 {
		a.printDiagnostics(r.Diags)
	}
	return r
}

// formatsEnv describes this machine (or the one --os names) to the adapters.
func (a *App) formatsEnv(goos string) formats.Env { return a.formatsEnvStore(goos, "", nil) }

// formatsEnvStore is formatsEnv for a command that has a store open (when
// it is the user's store, its client files are taken from it rather than
// read again), and home, when set (--home), the home directory of the
// machine whose files to write as this machine sees it: a Windows home
// mounted in WSL, /mnt/c/Users/NAME. Another machine's files are at its
// layout's paths under that home, in this machine's path syntax, and its
// environment ($XDG_CONFIG_HOME, %APPDATA%) is not this one's. Without a
// home, another OS's paths are only shown (foreignPaths), never read or
// written.
func (a *App) formatsEnvStore(goos, home string, open *store.Store) formats.Env {
	env := formats.Env{Home: a.Dirs.Home, ProjectDir: a.projectRoot(), OS: goos, Getenv: a.Getenv}
	switch {
	case home != "":
		env.Home, env.Getenv = home, nil
		if goos != a.GOOS {
			env.HostOS = a.GOOS
		}
	case goos != a.GOOS:
		env.Home, env.Getenv, env.HostOS, env.Shown = foreignHome(goos), nil, a.GOOS, true
		env.Exists = func(string) bool { return false }
	default:
		env.Files = a.movedClientFiles(open)
	}
	return env
}

// foreignHome stands for the home directory of a machine of another OS in
// paths that are only shown (in this machine's path syntax, as a project
// shared with that machine is): %USERPROFILE% on Windows, ~ elsewhere.
func foreignHome(goos string) string {
	if goos == "windows" {
		return "%USERPROFILE%"
	}
	return "~"
}

// foreignWithoutHome is the error of a command that would read or write the
// files of another OS's machine without being told where they are here.
func foreignWithoutHome(goos string) error {
	example := "/mnt/c/Users/NAME in WSL"
	if goos != "windows" {
		example = "where that machine's home is mounted here"
	}
	return usagef("--os %s is another machine's files, and mcpsync does not know where they are from here: "+
		"give --home DIR, that machine's home directory as this one sees it (%s), "+
		"or set the client's file in your store: client \"ID\" { file = \"…\", os = %q }; nothing was written", goos, example, goos)
}

// movedClientFiles reads the file attributes of the client blocks in the
// user's store (or --store): where this machine keeps a client's user-scope
// file when it is not the default. Only the user's own store moves files; a
// project's mcpsync.hcl comes with a repository and may not send writes
// elsewhere. A store that does not load moves nothing here: every command
// that writes loads it itself and refuses it with its diagnostics.
func (a *App) movedClientFiles(open *store.Store) map[string]formats.MovedFile {
	path, _ := a.locateStore(canonical.ScopeUser)
	st := open
	if st == nil || st.Path != path {
		var ds canonical.Diagnostics
		if st, ds = store.Load(path); ds.HasErrors() {
			return nil
		}
	}
	if len(st.ClientFiles) == 0 {
		return nil
	}
	files := make(map[string]formats.MovedFile, len(st.ClientFiles))
	for id, f := range st.ClientFiles {
		p := f.Path
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			p = filepath.Join(a.Dirs.Home, rest)
		}
		files[id] = formats.MovedFile{Path: filepath.Clean(p), OS: f.OS}
	}
	return files
}

// osFlag is --os: which machine's paths and Windows wrapping to use.
func osFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "os", Usage: "write for `OS` (windows, darwin or linux): its file paths, and `cmd /c` around npx on windows (default: this machine)"}
}

// targetOS validates --os.
func (a *App) targetOS(cmd *cli.Command) (string, error) {
	goos := cmd.String("os")
	switch goos {
	case "":
		return a.GOOS, nil
	case "windows", "darwin", "linux":
		return goos, nil
	}
	return "", usagef("--os %q: use windows, darwin or linux", goos)
}

// homeFlag is --home: the home directory of the machine whose files to
// write, as this machine sees it.
func homeFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "home", TakesFile: true,
		Usage: "the home `DIR` of the machine whose files to write, as this one sees it (with --os windows in WSL: /mnt/c/Users/NAME)"}
}

// homeOption validates --home: an existing directory, made absolute.
func (a *App) homeOption(cmd *cli.Command) (string, error) {
	home := cmd.String("home")
	if home == "" {
		return "", nil
	}
	if !filepath.IsAbs(home) {
		home = filepath.Join(a.Cwd, home)
	}
	if fi, err := os.Stat(home); err != nil || !fi.IsDir() {
		return "", usagef("--home %s: not a directory here", cmd.String("home"))
	}
	return filepath.Clean(home), nil
}

func scopeFlag(usage string) *cli.StringFlag {
	return &cli.StringFlag{Name: "scope", Value: "user", Usage: usage}
}

// parseScope validates --scope.
func parseScope(cmd *cli.Command) (canonical.Scope, error) {
	switch s := canonical.Scope(cmd.String("scope")); s {
	case canonical.ScopeUser, canonical.ScopeProject, canonical.ScopeLocal:
		return s, nil
	default:
		return "", usagef("--scope %q: use user, project or local", string(s))
	}
}

// storeScope is the store a client scope pairs with: the user store feeds
// user files and Claude Code's local (per-project, private) scope; the
// project's mcpsync.hcl feeds the project's files.
func storeScope(s canonical.Scope) canonical.Scope {
	if s == canonical.ScopeProject {
		return canonical.ScopeProject
	}
	return canonical.ScopeUser
}

// clientList splits --to/--from values ("a,b", repeated flags) into ids.
func clientList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

// selectClients looks up the named clients; "all" means every client
// mcpsync knows that is installed here (see clientDetected).
func selectClients(reg *formats.Registry, ids []string) (adapters []formats.Adapter, all bool, err error) {
	if len(ids) == 0 {
		return nil, false, usagef("name the clients: --to cursor,claude-code or --to all (see 'mcpsync clients')")
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "all" {
			return reg.All(), true, nil
		}
		ad, err := reg.Lookup(id)
		if err != nil {
			return nil, false, usageError{err}
		}
		if !seen[ad.ID()] {
			seen[ad.ID()] = true
			adapters = append(adapters, ad)
		}
	}
	return adapters, false, nil
}

// skipNote says why a client got no target.
type skipNote struct {
	Client string `json:"client"`
	Reason string `json:"reason"`
	// undetected: skipped by --to all because the client is not installed.
	undetected bool
}

// exportTargets picks, for every client, the one file of the scope that
// mcpsync writes. An adapter that serves a scope from one of several files
// (OpenCode's opencode.json and opencode.jsonc) chooses by which exist
// (formats.FileChooser); otherwise, among several writable candidates, the
// first that exists wins, else the first listed. With
// "all", clients that are not detected on this machine are skipped, so
// that mcpsync does not litter a home with files of editors the user does
// not have; naming the client writes its file anyway.
func exportTargets(adapters []formats.Adapter, env formats.Env, scope canonical.Scope, fromAll bool) ([]emitters.Target, []skipNote) {
	var targets []emitters.Target
	var skipped []skipNote
	for _, ad := range adapters {
		locs := formats.Locate(ad, env)
		var candidates []formats.Location
		readOnly := false
		for _, loc := range locs {
			if loc.Scope != scope || (scope == canonical.ScopeLocal && loc.Project != env.ProjectDir) {
				continue
			}
			if loc.ReadOnly {
				readOnly = true
				continue
			}
			candidates = append(candidates, loc)
		}
		if len(candidates) == 0 {
			reason := fmt.Sprintf("has no %s-scope file", scope)
			if readOnly {
				reason = fmt.Sprintf("its %s-scope file is read-only for mcpsync", scope)
			}
			skipped = append(skipped, skipNote{Client: ad.ID(), Reason: reason})
			continue
		}
		if fromAll {
			if ok, why := clientDetected(locs, env); !ok {
				skipped = append(skipped, skipNote{ad.ID(), "not detected (" + why + "); name it in --to to create its file", true})
				continue
			}
		}
		chosen := candidates[0]
		for _, c := range candidates {
			if exists(c.Path) {
				chosen = c
				break
			}
		}
		targets = append(targets, emitters.Target{Adapter: ad, Location: chosen})
	}
	return targets, skipped
}

// clientDetected reports whether the client seems installed: one of its
// files exists, or the client's own directory does (~/.cursor, ~/.codex,
// ~/.config/opencode), not just a shared one such as the home directory.
// A read-only file does not count: it is often another client's (Copilot
// CLI reads Claude Code's .mcp.json), or an administrator's.
func clientDetected(locs []formats.Location, env formats.Env) (bool, string) {
	shared := map[string]bool{
		filepath.Clean(env.Home): true, filepath.Clean(env.ProjectDir): true,
		filepath.Clean(xdg.ConfigHome(env.Get, env.Home)): true, filepath.Clean(filepath.Join(env.Home, ".config")): true,
	}
	var looked []string
	for _, loc := range locs {
		if loc.ReadOnly {
			continue
		}
		if exists(loc.Path) {
			return true, ""
		}
		if loc.Scope != canonical.ScopeUser {
			continue
		}
		dir := filepath.Dir(loc.Path)
		if !shared[dir] && isDir(dir) {
			return true, ""
		}
		if !shared[dir] {
			looked = append(looked, dir)
		} else {
			looked = append(looked, loc.Path)
		}
	}
	if len(looked) == 0 {
		return false, "none of its files exists"
	}
	return false, "no " + strings.Join(slices.Compact(looked), ", no ")
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// displayPath shortens a path for people: relative to the project when it
// is inside it, ~/… when inside the home directory (the more specific of
// the two wins), else as it is.
func (a *App) displayPath(path string) string {
	best, bestLen := path, -1
	for _, base := range []struct{ dir, prefix string }{{a.projectRoot(), ""}, {a.Dirs.Home, "~/"}} {
		if base.dir == "" {
			continue
		}
		rel, err := filepath.Rel(base.dir, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if len(base.dir) > bestLen {
			best, bestLen = base.prefix+filepath.ToSlash(rel), len(base.dir)
		}
	}
	return best
}

// planExportOptions are the flags shared by export and diff.
type planExportOptions struct {
	to           []string
	scope        canonical.Scope
	goos         string
	home         string // --home: the other machine's home, as seen here
	prune, force bool
	bridgeRemote bool
	promptInputs bool
	// servers, when not empty, limits the export to these servers of the
	// store; the client's other entries are left as they are.
	servers []string
}

func exportFlags() []cli.Flag {
	return []cli.Flag{
		scopeFlag("which files: `user` (your own files, from the user store), project (the project's shared files, " +
			"from its mcpsync.hcl) or local (Claude Code's private per-project section, from the user store)"),
		osFlag(),
		homeFlag(),
		&cli.BoolFlag{Name: "prune", Usage: "also remove the entries mcpsync wrote before that the store no longer has (never your own entries)"},
		&cli.BoolFlag{Name: "force", Usage: "replace (and with --prune remove) entries mcpsync did not write or that were edited by hand"},
		&cli.BoolFlag{Name: "bridge-remote", Usage: "write remote servers for stdio-only clients (Claude Desktop) through npx -y mcp-remote instead of skipping them"},
		&cli.BoolFlag{Name: "prompt-inputs", Usage: "VS Code: ask for secrets with ${input:…} prompts instead of reading ${env:…}"},
		&cli.BoolFlag{Name: "show-secrets", Usage: "print secret-looking literal values in the diff instead of masking them"},
	}
}

func (a *App) exportOptions(cmd *cli.Command, defaultTo []string) (planExportOptions, error) {
	var o planExportOptions
	var err error
	o.to = clientList(cmd.StringSlice("to"))
	if len(o.to) == 0 {
		o.to = defaultTo
	}
	if o.scope, err = parseScope(cmd); err != nil {
		return o, err
	}
	if o.goos, err = a.targetOS(cmd); err != nil {
		return o, err
	}
	if o.home, err = a.homeOption(cmd); err != nil {
		return o, err
	}
	o.prune, o.force = cmd.Bool("prune"), cmd.Bool("force")
	o.bridgeRemote, o.promptInputs = cmd.Bool("bridge-remote"), cmd.Bool("prompt-inputs")
	return o, nil
}

// exportRun is a planned export, ready to print or apply.
type exportRun struct {
	plan    *emitters.Plan
	skipped []skipNote
	state   *state.State
	lock    *state.Lock
	desired *desired.Servers
}

func (r *exportRun) close() { r.lock.Unlock() }

// planExport opens the store and the state and plans the export. With
// lock, the state lock is held until close, so that the plan and the
// writes are not interleaved with another mcpsync.
func (a *App) planExport(o planExportOptions, lock bool) (*exportRun, error) {
	reg := a.registry()
	adapters, fromAll, err := selectClients(reg, o.to)
	if err != nil {
		return nil, err
	}
	run := &exportRun{}
	if lock {
		// Held from reading the store to the last write.
		if run.lock, err = a.acquireLock(); err != nil {
			return nil, err
		}
	}
	st, err := a.openStore(storeScope(o.scope))
	if err != nil {
		run.close()
		return nil, err
	}
	if st.Servers.Len() == 0 && len(st.Sources) == 0 && !o.prune {
		fmt.Fprintf(a.Stderr, "note: the store %s has no servers; add some with 'mcpsync add' or 'mcpsync import --from CLIENT'\n",
			a.displayPath(st.Path))
	}
	if err := a.planExportStore(run, o, st, adapters, fromAll); err != nil {
		run.close()
		return nil, err
	}
	return run, nil
}

// planExportStore plans the export of st, a store already open (and, for a
// write, locked), into run: add --to plans with the servers it is about
// to save, before anything is written.
func (a *App) planExportStore(run *exportRun, o planExportOptions, st *store.Store, adapters []formats.Adapter, fromAll bool) error {
	env := a.formatsEnvStore(o.goos, o.home, st)
	targets, skipped := exportTargets(adapters, env, o.scope, fromAll)
	run.skipped = skipped
	// The store's servers plus the approved servers of its team sources;
	// pending ones stay out until 'mcpsync approve'.
	var err error
	if run.state, run.desired, err = a.loadStateDesired(st); err != nil {
		return err
	}
	a.printDiagnostics(run.desired.Diags)
	if note := run.desired.PendingNote(); note != "" && len(o.servers) == 0 {
		fmt.Fprintln(a.Stderr, "note: "+note)
	}
	servers := scopeServers(run.desired.Set, o.scope, env.ProjectDir)
	if len(o.servers) > 0 {
		if servers, err = a.onlyServers(servers, o.servers, st, run.desired); err != nil {
			return err
		}
	}
	run.plan = emitters.PlanExport(targets, emitters.ExportOptions{
		Servers:   servers,
		Allows:    st.Allows,
		State:     run.state,
		StorePath: st.Path,
		Sources:   run.desired.FromSource,
		Prune:     o.prune,
		Force:     o.force,
		Encode:    formats.EncodeOptions{OS: o.goos, BridgeRemote: o.bridgeRemote, PromptInputs: o.promptInputs},
	})
	run.plan.Diags.Sort()
	return nil
}

// scopeServers keeps the servers of set that belong in the scope's files:
// for Claude Code's local scope, those the user store binds to this
// project (Server.Project), as the client holds them (without the binding);
// for the user and project scopes, those bound to no project. A server is
// never carried out of its scope.
func scopeServers(set canonical.Set, scope canonical.Scope, projectDir string) canonical.Set {
	var out canonical.Set
	for _, srv := range set.Servers {
		switch {
		case scope == canonical.ScopeLocal && srv.Project != "" && srv.Project == projectDir:
			srv = srv.Clone()
			srv.Project = ""
			out.Servers = append(out.Servers, srv)
		case scope != canonical.ScopeLocal && srv.Project == "":
			out.Servers = append(out.Servers, srv)
		}
	}
	return out
}

// onlyServers keeps the named servers of set. A name the set does not hold
// is an error that suggests the nearest one (a pending team-source server
// says it needs approval first).
func (a *App) onlyServers(set canonical.Set, names []string, st *store.Store, want *desired.Servers) (canonical.Set, error) {
	var out canonical.Set
	for _, name := range names {
		srv, ok := set.Get(name)
		if !ok {
			for _, p := range want.Pending {
				if p.Qualified == name {
					return out, fmt.Errorf("server %q is pending approval: run 'mcpsync approve %s' first; nothing was written", name, name)
				}
			}
			msg := fmt.Sprintf("server %q is not in %s", name, a.storeDisplay(st.Path))
			if s := store.Suggest(name, set.Names()); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return out, errors.New(msg + "; nothing was written")
		}
		if out.Index(name) < 0 {
			out.Servers = append(out.Servers, srv)
		}
	}
	return out, nil
}

// applyError is what a writing command says when emitters.Apply failed: a
// file that changed meanwhile in the drift error's own words (it says what
// to do), any other error as it is.
func applyError(err error) error {
	var drift *emitters.DriftError
	if errors.As(err, &drift) {
		return errors.New(drift.Error())
	}
	return err
}

// diffText renders the plan's diff for stdout: masked unless asked, and
// coloured on a terminal.
func (a *App) diffText(p *emitters.Plan, showSecrets bool) string {
	return a.colorDiff(p.Diff(a.diffOptions(p, showSecrets)))
}

// diffOptions are the options of the plan's diffs on stdout (as text or in
// --json): paths from the project root, secret values masked unless
// showSecrets.
func (a *App) diffOptions(p *emitters.Plan, showSecrets bool) emitters.DiffOptions {
	opts := emitters.DiffOptions{Base: a.projectRoot()}
	if showSecrets {
		a.showSecrets = true // the diff reaches stdout unmasked
	} else {
		opts.Mask = p.SecretMask()
	}
	return opts
}

// colorDiff paints a unified diff when stdout is a terminal.
func (a *App) colorDiff(d string) string {
	if !a.color(false) || d == "" {
		return d
	}
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		style := ""
		switch {
		case strings.HasPrefix(l, "diff --git"), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "),
			strings.HasPrefix(l, "new file mode"), strings.HasPrefix(l, "deleted file mode"):
			style = styleBold
		case strings.HasPrefix(l, "@@"):
			style = styleCyan
		case strings.HasPrefix(l, "-"):
			style = styleRed
		case strings.HasPrefix(l, "+"):
			style = styleGreen
		}
		if style != "" {
			body := strings.TrimRight(l, "\r\n")
			lines[i] = style + body + styleReset + l[len(body):]
		}
	}
	return strings.Join(lines, "")
}

// planDiagnostics are the plan's diagnostics worth printing. A run with
// nothing to write is quiet however many servers a client cannot fully
// hold (that was said when the files were written): only its errors and
// the warnings of files with an entry left alone for the user to settle
// are printed. A run that writes prints them all; --verbose always does.
func (a *App) planDiagnostics(p *emitters.Plan) canonical.Diagnostics {
	if a.Verbose || len(p.Changes()) > 0 {
		return p.Diags
	}
	quiet := map[*canonical.Diagnostic]bool{}
	for _, fc := range p.Files {
		if fc.Changed() || fc.Diags.HasErrors() || leftAlone(fc) > 0 {
			continue
		}
		for _, d := range fc.Diags {
			quiet[d] = true
		}
	}
	var out canonical.Diagnostics
	for _, d := range p.Diags {
		if !quiet[d] {
			out = append(out, d)
		}
	}
	return out
}

// leftAlone counts the entries a plan leaves alone in a file for the user
// to settle (their own entry differs, or they edited mcpsync's), not those
// the client cannot hold, which are the same on every run.
func leftAlone(fc *emitters.FileChange) int {
	n := 0
	for _, tp := range fc.Targets {
		for _, e := range tp.Entries {
			if e.Action == emitters.Skip && e.Reason != emitters.ReasonCannotExpress {
				n++
			}
		}
	}
	return n
}

// reportPlanProblems prints the plan's diagnostics; with errors it returns
// a reportedError (exit 1), after saying that nothing was written.
func (a *App) reportPlanProblems(p *emitters.Plan) error {
	a.printDiagnostics(a.planDiagnostics(p))
	if p.Diags.HasErrors() {
		n := len(p.Diags.Errors())
		fmt.Fprintf(a.Stderr, "mcpsync: %d error(s); no file was written\n", n)
		return reportedError{p.Err()}
	}
	return nil
}

// entryCounts summarises one file's entry changes: "+2 ~1 -1 !1".
func entryCounts(fc *emitters.FileChange) string {
	var add, upd, rem, skip int
	for _, tp := range fc.Targets {
		for _, e := range tp.Entries {
			switch e.Action {
			case emitters.Add:
				add++
			case emitters.Update:
				upd++
			case emitters.Remove:
				rem++
			case emitters.Skip:
				skip++
			}
		}
	}
	var parts []string
	for _, c := range []struct {
		n    int
		sign string
	}{{add, "+"}, {upd, "~"}, {rem, "-"}, {skip, "!"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%s%d", c.sign, c.n))
		}
	}
	return strings.Join(parts, " ")
}

// fileClients names the client sections of a file: "claude-code (user, local)".
func fileClients(fc *emitters.FileChange) string {
	var parts []string
	for _, tp := range fc.Targets {
		parts = append(parts, fmt.Sprintf("%s (%s)", tp.Client, tp.Scope))
	}
	return strings.Join(parts, ", ")
}

// printRestartNote names the clients whose files a write changed: most
// clients read their MCP servers when they start (or when a session
// starts), so a running one keeps the old servers until it is restarted
// or told to reload them. Said once, after the write, on stderr.
func (a *App) printRestartNote(p *emitters.Plan) {
	if note := restartNote(p); note != "" {
		fmt.Fprintln(a.Stderr, "note: "+note)
	}
}

// restartNote is the sentence printRestartNote says (and watch logs after
// each propagation), or "" when no client file changed.
func restartNote(p *emitters.Plan) string {
	var names []string
	seen := map[string]bool{}
	for _, fc := range p.Changes() {
		for _, tp := range fc.Targets {
			if name := tp.Target.Adapter.DisplayName(); !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("if %s is running, restart it (or reload its MCP servers) to use the change", joinWith(names, "or"))
}

// readInput reads FILE, or stdin for "-" or no argument.
func (a *App) readInput(arg string) ([]byte, string, error) {
	if arg == "" || arg == "-" {
		data, err := io.ReadAll(a.Stdin)
		return data, "<stdin>", err
	}
	path := arg
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.Cwd, path)
	}
	data, _, err := safefile.ReadFile(path, "")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, arg, fmt.Errorf("%s: no such file", arg)
	}
	return data, arg, err
}
