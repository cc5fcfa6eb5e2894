package emitters

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/ledger"
)

type sandbox struct {
	t        *testing.T
	home     string
	stateDir string
	st       *ledger.State
}

func newSandbox(t *testing.T) *sandbox {
	dir := t.TempDir()
	sb := &sandbox{t: t, home: filepath.Join(dir, "home"), stateDir: filepath.Join(dir, "state")}
	os.MkdirAll(sb.home, 0o755)
	sb.st = ledger.New(sb.stateDir)
	return sb
}

func (sb *sandbox) target(a lineAdapter, project string) Target {
	loc := formats.Location{Client: a.id, Scope: canonical.ScopeUser, Path: filepath.Join(sb.home, "."+a.id)}
	if project != "" {
		loc.Scope, loc.Project = canonical.ScopeLocal, project
	}
	return Target{Adapter: a, Location: loc}
}

func (sb *sandbox) write(name, content string) string {
	p := filepath.Join(sb.home, name)
	if err := os.WriteFile(p, []byte(content), 0o640); err != nil {
		sb.t.Fatal(err)
	}
	return p
}

func (sb *sandbox) read(name string) string {
	data, err := os.ReadFile(filepath.Join(sb.home, name))
	if err != nil {
		sb.t.Fatal(err)
	}
	return string(data)
}

func (sb *sandbox) plan(targets []Target, servers []canonical.Server, mod func(*ExportOptions)) *Plan {
	opts := ExportOptions{Servers: canonical.Set{Servers: servers}, State: sb.st, StorePath: "/store.hcl"}
	if mod != nil {
		mod(&opts)
	}
	return PlanExport(targets, opts)
}

func (sb *sandbox) apply(p *Plan) *Result {
	sb.t.Helper()
	return sb.applyWith(p, ApplyOptions{})
}

// applyWith applies p with o, in the sandbox's state directory, and reloads
// the state as the next command would.
func (sb *sandbox) applyWith(p *Plan, o ApplyOptions) *Result {
	sb.t.Helper()
	o.StateDir, o.State = sb.stateDir, sb.st
	res, err := Apply(p, o)
	if err != nil {
		sb.t.Fatalf("Apply: %v", err)
	}
	// Reload, as the next command would.
	st, err := ledger.Load(sb.stateDir)
	if err != nil {
		sb.t.Fatal(err)
	}
	sb.st = st
	return res
}

func stdio(name, cmd string, args ...string) canonical.Server {
	return canonical.Server{Name: name, Transport: canonical.Stdio, Command: cmd, Args: args}
}

func entries(tp *TargetPlan) map[string]Action {
	out := map[string]Action{}
	for _, e := range tp.Entries {
		out[e.Name] = e.Action
	}
	return out
}

func TestExportCreatesThenIsIdempotent(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	servers := []canonical.Server{stdio("gh", "npx", "-y", "gh"), {Name: "web", Transport: canonical.HTTP, URL: "https://e.com/mcp"}}
	p := sb.plan([]Target{sb.target(a, "")}, servers, nil)
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	if len(p.Changes()) != 1 || p.Files[0].Kind != Create {
		t.Fatalf("want one created file, got %+v", p.Files[0])
	}
	d := p.Diff(DiffOptions{Base: sb.home})
	if !strings.HasPrefix(d, "diff --git a/.fake b/.fake\nnew file mode 100600\n--- /dev/null\n+++ b/.fake\n@@ -0,0 +1,2 @@\n+gh = ") {
		t.Fatalf("diff:\n%s", d)
	}
	sb.apply(p)
	fi, err := os.Stat(filepath.Join(sb.home, ".fake"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file mode %v, %v; want 0600", fi.Mode(), err)
	}
	f := sb.st.File(filepath.Join(sb.home, ".fake"))
	if f == nil || !f.Created || f.SHA256 != ledger.HashBytes([]byte(sb.read(".fake"))) {
		t.Fatalf("state file record = %+v", f)
	}
	if names := sb.st.ManagedNames(filepath.Join(sb.home, ".fake"), ""); strings.Join(names, ",") != "gh,web" {
		t.Fatalf("managed = %v", names)
	}
	if b := sb.st.Base("/store.hcl", "gh"); b == nil || b.Hash != ledger.Hash(servers[0]) {
		t.Fatalf("base not recorded: %+v", b)
	}
	again := sb.plan([]Target{sb.target(a, "")}, servers, nil)
	if len(again.Changes()) != 0 {
		t.Fatalf("second export changes files:\n%s", again.Diff(DiffOptions{}))
	}
}

func TestExportKeepsUserBytesAndMode(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	path := sb.write(".fake", "# my comment\r\nmine = {\"command\":\"x\"}\r\n")
	p := sb.plan([]Target{sb.target(a, "")}, []canonical.Server{stdio("gh", "npx")}, nil)
	sb.apply(p)
	got := sb.read(".fake")
	if !strings.HasPrefix(got, "# my comment\r\nmine = {\"command\":\"x\"}\r\ngh = ") || !strings.HasSuffix(got, "\r\n") {
		t.Fatalf("user bytes or CRLF lost: %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode changed to %v", fi.Mode())
	}
	if f := sb.st.File(path); f.Created {
		t.Fatal("a file the user had is recorded as created by mcpsync")
	}
}

func TestHandWrittenEntryIsNotOverwritten(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	sb.write(".fake", "gh = {\"command\":\"mine\"}\n")
	targets := []Target{sb.target(a, "")}
	servers := []canonical.Server{stdio("gh", "npx")}
	p := sb.plan(targets, servers, nil)
	if len(p.Changes()) != 0 {
		t.Fatalf("a hand-written entry was changed:\n%s", p.Diff(DiffOptions{}))
	}
	if got := entries(p.Files[0].Targets[0])["gh"]; got != Skip {
		t.Fatalf("action = %s, want skip", got)
	}
	w := p.Diags.Warnings()
	if len(w) != 1 || w[0].Server != "gh" || w[0].Line != 1 || !strings.Contains(w[0].Detail, "--force") {
		t.Fatalf("want one warning at line 1 naming --force, got %v", p.Diags)
	}
	forced := sb.plan(targets, servers, func(o *ExportOptions) { o.Force = true })
	if len(forced.Changes()) != 1 || entries(forced.Files[0].Targets[0])["gh"] != Update {
		t.Fatalf("--force does not replace: %+v", forced.Files[0].Targets[0].Entries)
	}
}

func TestManagedEntryFollowsStoreButNotHandEdits(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	targets := []Target{sb.target(a, "")}
	sb.apply(sb.plan(targets, []canonical.Server{stdio("gh", "npx", "v1")}, nil))

	// The store changes: mcpsync's own entry is updated.
	p := sb.plan(targets, []canonical.Server{stdio("gh", "npx", "v2")}, nil)
	if entries(p.Files[0].Targets[0])["gh"] != Update {
		t.Fatalf("managed entry not updated: %+v %v", p.Files[0].Targets[0].Entries, p.Diags)
	}
	sb.apply(p)

	// The user edits it by hand: the next export leaves it alone.
	sb.write(".fake", strings.Replace(sb.read(".fake"), "v2", "hand", 1))
	p = sb.plan(targets, []canonical.Server{stdio("gh", "npx", "v3")}, nil)
	if len(p.Changes()) != 0 || !strings.Contains(p.Diags.Warnings()[0].Summary, "edited by hand") {
		t.Fatalf("a hand edit was overwritten or not reported: %v", p.Diags)
	}
}

func TestPruneRemovesOnlyManagedAndCreatedFile(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	// A file the user has, with their own entry.
	sb.write(".fake", "mine = {\"command\":\"x\"}\n")
	// And a file mcpsync creates.
	b := lineAdapter{id: "other"}
	targets := []Target{sb.target(a, ""), sb.target(b, "")}
	sb.apply(sb.plan(targets, []canonical.Server{stdio("gh", "npx"), stdio("fs", "npx")}, nil))

	// Without --prune nothing is removed.
	p := sb.plan(targets, []canonical.Server{stdio("fs", "npx")}, nil)
	if len(p.Changes()) != 0 {
		t.Fatalf("removal without --prune:\n%s", p.Diff(DiffOptions{}))
	}
	p = sb.plan(targets, []canonical.Server{stdio("fs", "npx")}, func(o *ExportOptions) { o.Prune = true })
	sb.apply(p)
	if got := sb.read(".fake"); strings.Contains(got, "gh =") || !strings.Contains(got, "mine =") {
		t.Fatalf("prune removed the wrong entries: %q", got)
	}
	// Now the store is empty: the created file goes, the user's file stays.
	p = sb.plan(targets, nil, func(o *ExportOptions) { o.Prune = true })
	if p.Files[1].Kind != Delete {
		t.Fatalf("created file not deleted: %s", p.Files[1].Kind)
	}
	if !strings.Contains(p.Diff(DiffOptions{Base: sb.home}), "deleted file mode 100600\n--- a/.other\n+++ /dev/null\n") {
		t.Fatalf("diff of a deletion:\n%s", p.Diff(DiffOptions{Base: sb.home}))
	}
	res := sb.apply(p)
	if _, err := os.Stat(filepath.Join(sb.home, ".other")); !os.IsNotExist(err) || len(res.Removed) != 1 {
		t.Fatalf("created file still there: %v %+v", err, res)
	}
	if got := sb.read(".fake"); got != "mine = {\"command\":\"x\"}\n" {
		t.Fatalf("user file after full prune: %q", got)
	}
	if sb.st.File(filepath.Join(sb.home, ".other")) != nil {
		t.Fatal("state still remembers the removed file")
	}
}

func TestPruneKeepsHandEditedManagedEntry(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	targets := []Target{sb.target(a, "")}
	sb.apply(sb.plan(targets, []canonical.Server{stdio("gh", "npx")}, nil))
	sb.write(".fake", strings.Replace(sb.read(".fake"), "npx", "edited", 1))
	p := sb.plan(targets, nil, func(o *ExportOptions) { o.Prune = true })
	if len(p.Changes()) != 0 || len(p.Diags.Warnings()) != 1 {
		t.Fatalf("hand-edited managed entry pruned or not warned: %v\n%s", p.Diags, p.Diff(DiffOptions{}))
	}
}

func TestBadFileFailsWholePlan(t *testing.T) {
	sb := newSandbox(t)
	good, bad := lineAdapter{id: "good"}, lineAdapter{id: "bad"}
	sb.write(".bad", "ok = {\"command\":\"x\"}\n!\n")
	p := sb.plan([]Target{sb.target(good, ""), sb.target(bad, "")}, []canonical.Server{stdio("gh", "npx")}, nil)
	err := p.Err()
	if err == nil || !strings.Contains(err.Error(), ".bad:2:1: error: syntax error") {
		t.Fatalf("plan error = %v", err)
	}
	if _, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st}); !errors.Is(err, ErrPlanHasErrors) {
		t.Fatalf("Apply of a failed plan = %v", err)
	}
	if _, err := os.Stat(filepath.Join(sb.home, ".good")); !os.IsNotExist(err) {
		t.Fatal("a file was written although the plan failed")
	}
}

func TestDriftRefusesEverything(t *testing.T) {
	sb := newSandbox(t)
	a, b := lineAdapter{id: "a"}, lineAdapter{id: "b"}
	sb.write(".b", "# b\n")
	p := sb.plan([]Target{sb.target(a, ""), sb.target(b, "")}, []canonical.Server{stdio("gh", "npx")}, nil)
	sb.write(".b", "# b changed meanwhile\n")
	_, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st})
	var drift *DriftError
	if !errors.As(err, &drift) || len(drift.Paths) != 1 || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("Apply after drift = %v", err)
	}
	if _, err := os.Stat(filepath.Join(sb.home, ".a")); !os.IsNotExist(err) {
		t.Fatal(".a was written despite the drift in .b")
	}
}

func TestFailedWriteRollsBackEarlierFiles(t *testing.T) {
	sb := newSandbox(t)
	a, b := lineAdapter{id: "a"}, lineAdapter{id: "b"}
	sb.write(".a", "# a\n")
	sb.write(".b", "# b\n")
	p := sb.plan([]Target{sb.target(a, ""), sb.target(b, "")}, []canonical.Server{stdio("gh", "npx")}, nil)
	_, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st, BeforeWrite: func([]string) {
		// .b changes after the up-front check: its write is refused after .a was written.
		sb.write(".b", "# late change\n")
	}})
	if err == nil {
		t.Fatal("Apply succeeded although .b changed before its write")
	}
	if got := sb.read(".a"); got != "# a\n" {
		t.Fatalf(".a was not restored: %q", got)
	}
	if got := sb.read(".b"); got != "# late change\n" {
		t.Fatalf(".b was touched: %q", got)
	}
	if entries, _ := os.ReadDir(filepath.Join(sb.stateDir, BackupDirName)); len(entries) != 0 {
		t.Fatalf("a rolled-back apply left a backup behind: %v", entries)
	}
}

// The files of a plan are written at once: a file refused first in the
// plan's order must still have every other file restored, whether or
// not its write had already happened.
func TestFailedWriteRollsBackEveryOtherFile(t *testing.T) {
	sb := newSandbox(t)
	var targets []Target
	for _, id := range []string{"a", "b", "c", "d"} {
		sb.write("."+id, "# "+id+"\n")
		targets = append(targets, sb.target(lineAdapter{id: id}, ""))
	}
	p := sb.plan(targets, []canonical.Server{stdio("gh", "npx")}, nil)
	_, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st, BeforeWrite: func([]string) {
		sb.write(".a", "# late change\n")
	}})
	var drift *DriftError
	if !errors.As(err, &drift) || len(drift.Paths) != 1 || filepath.Base(drift.Paths[0]) != ".a" {
		t.Fatalf("want a drift error for .a, got %v", err)
	}
	for _, id := range []string{"b", "c", "d"} {
		if got := sb.read("." + id); got != "# "+id+"\n" {
			t.Errorf(".%s was not restored: %q", id, got)
		}
	}
	if got := sb.read(".a"); got != "# late change\n" {
		t.Fatalf(".a was touched: %q", got)
	}
}

// planOldAndNew plans the gh server into .a, which exists, and into
// sub/.b, which does not (nor does sub): a change and a creation. .a has
// a second name, a-link, so that checkUntouched can tell .a left alone
// from .a replaced and put back.
func planOldAndNew(t *testing.T, sb *sandbox) *Plan {
	t.Helper()
	sb.write(".a", "# a\n")
	if err := os.Link(filepath.Join(sb.home, ".a"), filepath.Join(sb.home, "a-link")); err != nil {
		t.Skip("no hard links here:", err)
	}
	b := Target{Adapter: lineAdapter{id: "b"}, Location: formats.Location{Client: "b", Scope: canonical.ScopeUser,
		Path: filepath.Join(sb.home, "sub", ".b")}}
	return sb.plan([]Target{sb.target(lineAdapter{id: "a"}, ""), b}, []canonical.Server{stdio("gh", "npx")}, nil)
}

// checkUntouched fails t unless err says nothing was written, .a is the
// very file it was, and no temporary file is left in the home.
func checkUntouched(t *testing.T, sb *sandbox, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("Apply = %v, want an error that says nothing was written", err)
	}
	link, _ := os.Stat(filepath.Join(sb.home, "a-link"))
	if cur, err := os.Stat(filepath.Join(sb.home, ".a")); err != nil || !os.SameFile(link, cur) || sb.read(".a") != "# a\n" {
		t.Fatalf(".a was replaced (and perhaps put back) instead of left alone: %v", err)
	}
	entries, _ := os.ReadDir(sb.home)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".mcpsync-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// A file whose write cannot even begin (here: the folder it is to be
// created in is a file by the time of the write) stops the apply before
// any other file is replaced: the other file is never written and
// restored, it is not touched at all, and the error says that nothing
// was written.
func TestUnstageableFileLeavesTheOthersUntouched(t *testing.T) {
	sb := newSandbox(t)
	p := planOldAndNew(t, sb)
	_, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st, BeforeWrite: func([]string) {
		sb.write("sub", "a file where .b's folder was to be made\n")
	}})
	checkUntouched(t, sb, err)
}

// The backup is made while the files are staged; when it fails, no file
// is replaced: the staged bytes and the folder made for a new file are
// gone, and the file that was there is the same file.
func TestFailedBackupReplacesNothing(t *testing.T) {
	sb := newSandbox(t)
	p := planOldAndNew(t, sb)
	// The state folder is a file: the backup cannot be made under it.
	if err := os.WriteFile(sb.stateDir, []byte("not a folder\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Apply(p, ApplyOptions{StateDir: sb.stateDir})
	checkUntouched(t, sb, err)
	if _, err := os.Lstat(filepath.Join(sb.home, "sub")); !os.IsNotExist(err) {
		t.Errorf("the folder made for .b is still there: %v", err)
	}
}

func TestSymlinkIsKeptAndBackupWritten(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	dotfiles := filepath.Join(sb.home, "dotfiles")
	os.MkdirAll(dotfiles, 0o755)
	real := filepath.Join(dotfiles, "fake")
	os.WriteFile(real, []byte("# in dotfiles\n"), 0o644)
	link := filepath.Join(sb.home, ".fake")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("symlinks not available:", err)
	}
	res := sb.apply(sb.plan([]Target{sb.target(a, "")}, []canonical.Server{stdio("gh", "npx")}, nil))
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	data, _ := os.ReadFile(real)
	if !strings.HasPrefix(string(data), "# in dotfiles\ngh = ") {
		t.Fatalf("link target not updated: %q", data)
	}
	var m BackupManifest
	raw, err := os.ReadFile(filepath.Join(res.BackupDir, "manifest.json"))
	if err != nil || json.Unmarshal(raw, &m) != nil || len(m.Files) != 1 {
		t.Fatalf("manifest: %v %s", err, raw)
	}
	old, err := os.ReadFile(filepath.Join(res.BackupDir, m.Files[0].Backup))
	if err != nil || string(old) != "# in dotfiles\n" || m.Files[0].Path != link {
		t.Fatalf("backup = %q, %v, %+v", old, err, m.Files[0])
	}
	if !strings.HasPrefix(res.BackupDir, filepath.Join(sb.stateDir, BackupDirName)) {
		t.Fatalf("backup outside the state dir: %s", res.BackupDir)
	}
}

func TestTwoSectionsOfOneFileAreChained(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake"}
	targets := []Target{sb.target(a, ""), sb.target(a, "/proj")}
	p := sb.plan(targets, []canonical.Server{stdio("gh", "npx")}, nil)
	if len(p.Files) != 1 || len(p.Files[0].Targets) != 2 {
		t.Fatalf("targets of one file not grouped: %d files", len(p.Files))
	}
	sb.apply(p)
	if got := sb.read(".fake"); strings.Count(got, "gh = ") != 2 || !strings.Contains(got, "@/proj gh = ") {
		t.Fatalf("both sections not written: %q", got)
	}
	path := filepath.Join(sb.home, ".fake")
	if !sb.st.IsManaged(path, "", "gh") || !sb.st.IsManaged(path, "/proj", "gh") {
		t.Fatal("sections not recorded apart")
	}
}

func TestLossyClientDoesNotConflict(t *testing.T) {
	sb := newSandbox(t)
	a := lineAdapter{id: "fake", noCwd: true}
	sb.write(".fake", "gh = {\"command\":\"npx\",\"transport\":\"stdio\"}\n")
	srv := stdio("gh", "npx")
	srv.Cwd = "/work"
	p := sb.plan([]Target{sb.target(a, "")}, []canonical.Server{srv}, nil)
	if got := entries(p.Files[0].Targets[0])["gh"]; got != Keep || len(p.Changes()) != 0 {
		t.Fatalf("an entry equal up to what the client cannot express is %s (diags %v)", got, p.Diags)
	}
}

func TestAllowsFiltersPerClient(t *testing.T) {
	sb := newSandbox(t)
	a, b := lineAdapter{id: "a"}, lineAdapter{id: "b"}
	p := sb.plan([]Target{sb.target(a, ""), sb.target(b, "")}, []canonical.Server{stdio("gh", "npx")},
		func(o *ExportOptions) { o.Allows = func(client, _ string) bool { return client == "a" } })
	if p.Files[0].Kind != Create || p.Files[1].Kind != Unchanged {
		t.Fatalf("kinds = %s, %s", p.Files[0].Kind, p.Files[1].Kind)
	}
}

func TestMaskSecrets(t *testing.T) {
	for in, want := range map[string]string{
		`+      "API_KEY": "sk-live-123456",`:        `+      "API_KEY": "sk-***",`,
		`  "Authorization": "Bearer abcdefghijk"`:    `  "Authorization": "Bearer abc***"`,
		`  "Authorization": "Bearer ${TOKEN}"`:       `  "Authorization": "Bearer ${TOKEN}"`,
		`  "GITHUB_TOKEN": "${env:GITHUB_TOKEN}"`:    `  "GITHUB_TOKEN": "${env:GITHUB_TOKEN}"`,
		`password = "hunter2hunter2"`:                `password = "hun***"`,
		`bearer_token_env_var = "MY_TOKEN"`:          `bearer_token_env_var = "MY_TOKEN"`,
		`  "command": "npx",`:                        `  "command": "npx",`,
		`  "x-api-key": "short"`:                     `  "x-api-key": "***"`,
		`  "OTHER": "value", "SECRET": "abcdefghij"`: `  "OTHER": "value", "SECRET": "abc***"`,
		`  "token": "{env:T}"`:                       `  "token": "{env:T}"`,
	} {
		if got := MaskSecrets(in); got != want {
			t.Errorf("MaskSecrets(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestEscapePath(t *testing.T) {
	if got := EscapePath("/home/u/.cursor/mcp.json"); got != "%2Fhome%2Fu%2F.cursor%2Fmcp.json" {
		t.Fatal(got)
	}
	if got := EscapePath(`C:\Users\me\x y.json`); got != "C%3A%5CUsers%5Cme%5Cx%20y.json" {
		t.Fatal(got)
	}
}

func TestApplyStampsTime(t *testing.T) {
	sb := newSandbox(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := sb.plan([]Target{sb.target(lineAdapter{id: "fake"}, "")}, []canonical.Server{stdio("gh", "npx")}, nil)
	res, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(res.BackupDir) != "20260102T030405.000000000Z" {
		t.Fatalf("backup dir %s", res.BackupDir)
	}
	if e := sb.st.Managed(filepath.Join(sb.home, ".fake"), "")["gh"]; !e.At.Equal(at) {
		t.Fatalf("entry time %v", e.At)
	}
}

func TestIdempotentApplyDoesNotRewriteState(t *testing.T) {
	sb := newSandbox(t)
	targets := []Target{sb.target(lineAdapter{id: "fake"}, "")}
	servers := []canonical.Server{stdio("gh", "npx")}
	sb.apply(sb.plan(targets, servers, nil))
	statePath := filepath.Join(sb.stateDir, ledger.FileName)
	before, _ := os.ReadFile(statePath)
	os.Chtimes(statePath, time.Unix(1, 0), time.Unix(1, 0))
	sb.apply(sb.plan(targets, servers, nil))
	after, _ := os.ReadFile(statePath)
	fi, _ := os.Stat(statePath)
	if string(before) != string(after) || !fi.ModTime().Equal(time.Unix(1, 0)) {
		t.Fatal("a run that changed nothing rewrote the state file")
	}
}

// FuzzMaskSecrets: masking never panics, never adds a line break, and
// masking a masked line changes nothing more.
func FuzzMaskSecrets(f *testing.F) {
	for _, s := range []string{`"API_KEY": "sk-live-123456",`, `"Authorization": "Bearer ${TOKEN}"`, `password = "x\"y"`,
		`"token": "héllo wörld ünïcode"`, `key = ""`, `"a": "b", "secret": "c"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		once := MaskSecrets(line)
		if strings.Count(once, "\n") != strings.Count(line, "\n") {
			t.Fatalf("line breaks changed: %q -> %q", line, once)
		}
		if twice := MaskSecrets(once); twice != once {
			t.Fatalf("not stable: %q -> %q -> %q", line, once, twice)
		}
	})
}

// wrapperAdapter is lineAdapter, but a new file starts with a wrapper line
// that stays when the last server goes (like {"mcpServers": {}}).
type wrapperAdapter struct{ lineAdapter }

func (a wrapperAdapter) Encode(loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) ([]byte, canonical.Diagnostics) {
	if data == nil && want.Len() > 0 {
		data = []byte("# wrapper\n")
	}
	return a.lineAdapter.Encode(loc, data, want, opts)
}

func TestPruneRemovesCreatedFileWithWrapperLeft(t *testing.T) {
	sb := newSandbox(t)
	a := wrapperAdapter{lineAdapter{id: "w"}}
	tgt := Target{Adapter: a, Location: formats.Location{Client: "w", Scope: canonical.ScopeUser, Path: filepath.Join(sb.home, ".w")}}
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("gh", "npx")}, nil))
	p := sb.plan([]Target{tgt}, nil, func(o *ExportOptions) { o.Prune = true })
	if p.Files[0].Kind != Delete {
		t.Fatalf("a created file left with only its wrapper is %s", p.Files[0].Kind)
	}
	// If the user added to it meanwhile, it stays.
	sb.write(".w", sb.read(".w")+"# the user's note\n")
	p = sb.plan([]Target{tgt}, nil, func(o *ExportOptions) { o.Prune = true })
	if p.Files[0].Kind != Modify {
		t.Fatalf("a created file the user added to is %s", p.Files[0].Kind)
	}
}

// TestExportRecordsBasesOfExportedServersOnly: an export records a sync
// base for each store server some file holds, whichever file, and none
// for a server the store keeps from every client.
func TestExportRecordsBasesOfExportedServersOnly(t *testing.T) {
	sb := newSandbox(t)
	a, b := lineAdapter{id: "a"}, lineAdapter{id: "b"}
	servers := []canonical.Server{stdio("both", "npx"), stdio("only-b", "npx"), stdio("none", "npx"), stdio("only-a", "npx")}
	allows := func(client, server string) bool {
		switch server {
		case "only-a":
			return client == "a"
		case "only-b":
			return client == "b"
		case "none":
			return false
		}
		return true
	}
	p := sb.plan([]Target{sb.target(a, ""), sb.target(b, "")}, servers, func(o *ExportOptions) { o.Allows = allows })
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	sb.apply(p)
	for _, srv := range servers {
		base := sb.st.Base("/store.hcl", srv.Name)
		if want := srv.Name != "none"; (base != nil) != want {
			t.Errorf("base of %s = %+v; want one: %v", srv.Name, base, want)
		}
		if base != nil && base.Hash != ledger.Hash(srv) {
			t.Errorf("base of %s has hash %s, want %s", srv.Name, base.Hash, ledger.Hash(srv))
		}
	}
}
