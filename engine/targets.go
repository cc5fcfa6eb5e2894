package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/xdg"
	"github.com/mcpsync/mcpsync/store"
)

// FormatsEnv describes this machine (or the one goos names) to the
// adapters, with open, when it is the user's store, giving the client
// files it moves, and home, when set, the home directory of the machine
// whose files to write as this machine sees it (a Windows home mounted in
// WSL, /mnt/c/Users/NAME). Another machine's files are at its layout's
// paths under that home, in this machine's path syntax, and its
// environment ($XDG_CONFIG_HOME, %APPDATA%) is not this one's. Without a
// home, another OS's paths are only shown (formats.Location.Shown), never
// read or written.
func (e *Engine) FormatsEnv(goos, home string, open *store.Store) formats.Env {
	env := formats.Env{Home: e.Dirs.Home, ProjectDir: e.projectDir(), OS: goos, Getenv: e.Getenv}
	switch {
	case home != "":
		env.Home, env.Getenv = home, nil
		if goos != e.GOOS {
			env.HostOS = e.GOOS
		}
	case goos != e.GOOS:
		env.Home, env.Getenv, env.HostOS, env.Shown = foreignHome(goos), nil, e.GOOS, true
		env.Exists = func(string) bool { return false }
	default:
		env.Files = e.movedClientFiles(open)
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

// ForeignWithoutHome is the error of a verb that would write the files of
// another OS's machine without being told where they are here.
func ForeignWithoutHome(goos string) error {
	example := "/mnt/c/Users/NAME in WSL"
	if goos != "windows" {
		example = "where that machine's home is mounted here"
	}
	return Usagef("--os %s is another machine's files, and mcpsync does not know where they are from here: "+
		"give --home DIR, that machine's home directory as this one sees it (%s), "+
		"or set the client's file in your store: client \"ID\" { file = \"…\", os = %q }; nothing was written", goos, example, goos)
}

// orUser is scope, or the user scope when none is given.
func orUser(scope canonical.Scope) canonical.Scope {
	if scope == "" {
		return canonical.ScopeUser
	}
	return scope
}

// StoreScope is the store a client scope pairs with: the user store feeds
// user files and Claude Code's local (per-project, private) scope; the
// project's mcpsync.hcl feeds the project's files.
func StoreScope(s canonical.Scope) canonical.Scope {
	if s == canonical.ScopeProject {
		return canonical.ScopeProject
	}
	return canonical.ScopeUser
}

// SelectClients looks up the named clients; "all" means every client
// mcpsync knows (fromAll: export keeps those installed here).
func (e *Engine) SelectClients(ids []string) (adapters []formats.Adapter, fromAll bool, err error) {
	reg := e.Registry()
	if len(ids) == 0 {
		return nil, false, Usagef("name the clients: --to cursor,claude-code or --to all (see 'mcpsync clients')")
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "all" {
			return reg.All(), true, nil
		}
		ad, err := reg.Lookup(id)
		if err != nil {
			return nil, false, UsageError{Err: err}
		}
		if !seen[ad.ID()] {
			seen[ad.ID()] = true
			adapters = append(adapters, ad)
		}
	}
	return adapters, false, nil
}

// Skip says why a client got no file to write.
type Skip struct {
	Client string `json:"client"`
	Reason string `json:"reason"`
	// Undetected: skipped by "all" because the client is not installed.
	Undetected bool `json:"-"`
}

// ExportTargets picks, for every client, the one file of the scope that
// mcpsync writes: among several writable candidates, the first that
// exists, else the first listed (formats.Locate has already chosen between
// a FileChooser client's files). With fromAll, clients that are not
// detected on this machine are skipped, so that mcpsync does not litter a
// home with files of editors the user does not have; naming the client
// writes its file anyway.
func ExportTargets(adapters []formats.Adapter, env formats.Env, scope canonical.Scope, fromAll bool) ([]emitters.Target, []Skip) {
	var targets []emitters.Target
	var skipped []Skip
	formats.Prepare(adapters) // each is asked where it writes, below
	// The folders no one client's presence shows, for the clients "all"
	// names: found once, when the first one is looked for (a run that names
	// its clients does not look; asking every client where it writes for
	// them was 2 % of a 50-server export).
	var claimed []string
	claimedOnce := false
	for _, ad := range adapters {
		locs := formats.Locate(ad, env)
		var candidates []formats.Location
		readOnly, shadowed := false, ""
		for _, loc := range locs {
			if !formats.InScope(loc, scope, env.ProjectDir) {
				continue
			}
			if loc.ReadOnly {
				readOnly = true
				if loc.Shadowed && shadowed == "" {
					shadowed = loc.Note // the client reads another file instead
				}
				continue
			}
			candidates = append(candidates, loc)
		}
		if len(candidates) == 0 {
			reason := fmt.Sprintf("has no %s-scope file", scope)
			if readOnly {
				reason = fmt.Sprintf("its %s-scope file is read-only for mcpsync", scope)
			}
			if shadowed != "" {
				reason = shadowed
			}
			skipped = append(skipped, Skip{Client: ad.ID(), Reason: reason})
			continue
		}
		if fromAll {
			if !claimedOnce {
				claimed, claimedOnce = sharedUserDirs(adapters, env), true
			}
			if ok, why := ClientDetected(locs, env, claimed...); !ok {
				skipped = append(skipped, Skip{ad.ID(), "not detected (" + why + "); name it in --to to create its file", true})
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

// ClientDetected reports whether the client seems installed: one of its
// files exists, or the client's own directory does (~/.cursor, ~/.codex,
// ~/.config/opencode), not just a shared one such as the home directory,
// or one of alsoShared (a folder that several clients' files live in:
// ~/.config/devin holds Devin Desktop's and Devin CLI's). A read-only file
// does not count: it is often another client's (Copilot CLI reads Claude
// Code's .mcp.json), or an administrator's.
func ClientDetected(locs []formats.Location, env formats.Env, alsoShared ...string) (bool, string) {
	shared := map[string]bool{
		filepath.Clean(env.Home): true, filepath.Clean(env.ProjectDir): true,
		filepath.Clean(xdg.ConfigHome(env.Get, env.Home)): true, filepath.Clean(filepath.Join(env.Home, ".config")): true,
	}
	for _, d := range alsoShared {
		shared[filepath.Clean(d)] = true
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

// sharedUserDirs are the folders that hold the writable user files of more
// than one client, or another client's folder right inside them: such a
// folder says nothing about which one is installed.
func sharedUserDirs(adapters []formats.Adapter, env formats.Env) []string {
	owners := map[string]map[string]bool{}
	for _, ad := range adapters {
		for _, loc := range formats.Locate(ad, env) {
			if loc.ReadOnly || loc.Scope != canonical.ScopeUser {
				continue
			}
			d := filepath.Clean(filepath.Dir(loc.Path))
			if owners[d] == nil {
				owners[d] = map[string]bool{}
			}
			owners[d][ad.ID()] = true
		}
	}
	var out []string
	for d, ids := range owners {
		shared := len(ids) > 1
		// A folder with another client's folder right inside it says nothing
		// either: ~/.gemini is Gemini CLI's, and Antigravity CLI's files live
		// in ~/.gemini/antigravity-cli. (An editor extension's storage deep
		// inside the editor's folder, Cline's in VS Code's, is no such case:
		// the extension is there because the editor is.)
		for other, otherIDs := range owners {
			if filepath.Dir(other) == d {
				for id := range otherIDs {
					shared = shared || !ids[id]
				}
			}
		}
		if shared {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// ScopeServers keeps the servers of set that belong in the scope's files:
// for Claude Code's local scope, those the user store binds to this
// project (Server.Project), as the client holds them (without the binding);
// for the user and project scopes, those bound to no project. A server is
// never carried out of its scope.
func ScopeServers(set canonical.Set, scope canonical.Scope, projectDir string) canonical.Set {
	in := func(srv *canonical.Server) bool {
		if scope == canonical.ScopeLocal {
			return srv.Project != "" && srv.Project == projectDir
		}
		return srv.Project == ""
	}
	// Sized once: appending 10,000 servers one by one copied the growing
	// list again and again.
	n := 0
	for i := range set.Servers {
		if in(&set.Servers[i]) {
			n++
		}
	}
	if n == len(set.Servers) && scope != canonical.ScopeLocal {
		// All of them, unchanged (the usual case): set itself, clipped so
		// that an append cannot write into its spare room. A copy was
		// 2.6 MB of an export of 10,000 servers, held to its end.
		return canonical.Set{Servers: slices.Clip(set.Servers)}
	}
	var out canonical.Set
	if n > 0 {
		out.Servers = make([]canonical.Server, 0, n)
	}
	for _, srv := range set.Servers {
		if !in(&srv) {
			continue
		}
		if scope == canonical.ScopeLocal {
			srv = srv.Clone()
			srv.Project = "" // as the client holds it
		}
		out.Servers = append(out.Servers, srv)
	}
	return out
}
