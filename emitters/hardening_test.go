package emitters

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/ledger"
)

// applyAt applies p at a fixed time, with a command recorded.
func (sb *sandbox) applyAt(p *Plan, at time.Time, command string) *Result {
	sb.t.Helper()
	return sb.applyWith(p, ApplyOptions{Command: command, Now: func() time.Time { return at }})
}

func TestReadOnlyFileIsRefusedWhilePlanning(t *testing.T) {
	sb := newSandbox(t)
	a, b := lineAdapter{id: "a"}, lineAdapter{id: "b"}
	sb.write(".a", "# mine\n")
	ro := sb.write(".b", "# locked\n")
	if err := os.Chmod(ro, 0o444); err != nil {
		t.Fatal(err)
	}
	p := sb.plan([]Target{sb.target(a, ""), sb.target(b, "")}, []canonical.Server{stdio("gh", "npx")}, nil)
	err := p.Err()
	if err == nil || !strings.Contains(err.Error(), ro+" is read-only (mode 0444)") || !strings.Contains(err.Error(), "chmod u+w") ||
		!strings.Contains(err.Error(), "leave b out of --to") {
		t.Fatalf("plan error = %v", err)
	}
	if _, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st}); !errors.Is(err, ErrPlanHasErrors) {
		t.Fatalf("Apply = %v", err)
	}
	if sb.read(".a") != "# mine\n" || sb.read(".b") != "# locked\n" {
		t.Fatal("a file was written although the plan had errors")
	}
	if _, err := os.Stat(filepath.Join(sb.stateDir, BackupDirName)); err == nil {
		t.Fatal("a backup was made for a plan that writes nothing")
	}
}

func TestReadOnlyDirectoryIsRefusedWhilePlanning(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write in any directory; the read-only file case covers what root sees")
	}
	sb := newSandbox(t)
	dir := filepath.Join(sb.home, "locked")
	os.MkdirAll(dir, 0o755)
	tgt := sb.target(lineAdapter{id: "a"}, "")
	tgt.Location.Path = filepath.Join(dir, "sub", ".a")
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	p := sb.plan([]Target{tgt}, []canonical.Server{stdio("gh", "npx")}, nil)
	if err := p.Err(); err == nil || !strings.Contains(err.Error(), "the directory "+dir+" is not writable") {
		t.Fatalf("plan error = %v", err)
	}
}

func TestBackupRecordsCommandAndState(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sb, _, before := appliedTwice(t, t0, "export --to fake", "export --to all", stdio("gh", "npx"), stdio("fs", "uvx"))
	bs, err := ListBackups(sb.stateDir)
	if err != nil || len(bs) != 2 {
		t.Fatalf("backups %v, %v", bs, err)
	}
	last := bs[1]
	if last.Command != "export --to all" || !last.At.Equal(t0.Add(time.Minute)) || len(last.Files) != 1 {
		t.Fatalf("last backup %+v", last)
	}
	rec := last.Files[0]
	if rec.State != nil || rec.StateFile == "" {
		t.Fatalf("the state is in the manifest (%+v), not a file of its own (%q)", rec.State, rec.StateFile)
	}
	state, err := last.ReadState(rec)
	if err != nil || state == nil || state.SHA256 != before.SHA256 || len(state.Sections[""].Managed) != 1 {
		t.Fatalf("recorded state %+v (%v), want %+v", state, err, before)
	}
	if data, err := last.Read(rec); err != nil || !strings.HasPrefix(string(data), "gh = ") {
		t.Fatalf("backup bytes %q, %v", data, err)
	}
	if bs[0].Files[0].Created != true {
		t.Fatal("the first apply created the file")
	}
}

func TestRestoreUndoesTheLastApply(t *testing.T) {
	sb := newSandbox(t)
	a, b := sb.target(lineAdapter{id: "a"}, ""), sb.target(lineAdapter{id: "b"}, "")
	sb.write(".b", "# user's own file\n")
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	sb.applyAt(sb.plan([]Target{a, b}, []canonical.Server{stdio("gh", "npx")}, nil), t0, "export")
	v1a, v1b := sb.read(".a"), sb.read(".b")
	stateV1 := sb.st.File(a.Location.Path).Clone()
	sb.applyAt(sb.plan([]Target{a, b}, []canonical.Server{stdio("gh", "npx", "-y")}, nil), t0.Add(time.Hour), "export (bad)")

	p, err := PlanRestore(sb.stateDir, RestoreOptions{All: true, State: sb.st})
	if err != nil || p.Err() != nil {
		t.Fatalf("PlanRestore: %v %v", err, p.Err())
	}
	if len(p.Changes()) != 2 {
		t.Fatalf("changes %d", len(p.Changes()))
	}
	if d := p.Diff(DiffOptions{Base: sb.home}); !strings.Contains(d, `-gh = {"name":"","transport":"stdio","command":"npx","args":["-y"]}`) {
		t.Fatalf("restore diff:\n%s", d)
	}
	res := sb.applyAt(p, t0.Add(2*time.Hour), "restore --all")
	if sb.read(".a") != v1a || sb.read(".b") != v1b {
		t.Fatalf("not restored:\n%s\n%s", sb.read(".a"), sb.read(".b"))
	}
	if got := sb.st.File(a.Location.Path); got == nil || got.SHA256 != stateV1.SHA256 {
		t.Fatalf("state not restored: %+v", got)
	}
	if res.BackupDir == "" {
		t.Fatal("the restore was not backed up")
	}
	// The restore is itself undone by restoring its backup.
	p, _ = PlanRestore(sb.stateDir, RestoreOptions{All: true, State: sb.st})
	sb.applyAt(p, t0.Add(3*time.Hour), "restore --all")
	if !strings.Contains(sb.read(".a"), `"args":["-y"]`) {
		t.Fatalf("undoing the restore: %s", sb.read(".a"))
	}
}

func TestRestoreAtATime(t *testing.T) {
	sb := newSandbox(t)
	a := sb.target(lineAdapter{id: "a"}, "")
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	var versions []string
	for i, args := range [][]string{{"1"}, {"2"}, {"3"}} {
		sb.applyAt(sb.plan([]Target{a}, []canonical.Server{stdio("gh", "npx", args...)}, func(o *ExportOptions) { o.Force = true }),
			t0.Add(time.Duration(i)*time.Hour), "export")
		versions = append(versions, sb.read(".a"))
	}
	// As it was at 01:30: version 2 (written at 01:00).
	p, err := PlanRestore(sb.stateDir, RestoreOptions{Paths: []string{a.Location.Path}, At: t0.Add(90 * time.Minute), State: sb.st})
	if err != nil || p.Err() != nil {
		t.Fatal(err, p.Err())
	}
	sb.applyAt(p, t0.Add(5*time.Hour), "restore")
	if sb.read(".a") != versions[1] {
		t.Fatalf("got %s, want %s", sb.read(".a"), versions[1])
	}
	// Before the first apply the file did not exist: restoring removes it.
	bs, _ := ListBackups(sb.stateDir)
	p, err = PlanRestore(sb.stateDir, RestoreOptions{Paths: []string{a.Location.Path}, ID: bs[0].ID, State: sb.st})
	if err != nil || p.Err() != nil || p.Files[0].Kind != Delete {
		t.Fatalf("%v %v %+v", err, p.Err(), p.Files)
	}
	// A time after the last write: already as it was.
	p, err = PlanRestore(sb.stateDir, RestoreOptions{Paths: []string{a.Location.Path}, At: t0.Add(24 * time.Hour), State: sb.st})
	if err != nil || len(p.Changes()) != 0 {
		t.Fatalf("%v %+v", err, p.Files)
	}
	if _, err := PlanRestore(sb.stateDir, RestoreOptions{Paths: []string{"/nowhere"}}); err == nil || !strings.Contains(err.Error(), "has no backup") {
		t.Fatalf("unknown file: %v", err)
	}
	if _, err := PlanRestore(sb.stateDir, RestoreOptions{ID: "nope"}); err == nil || !strings.Contains(err.Error(), `no backup "nope"`) {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestRestoreRefusesAFileChangedSince(t *testing.T) {
	sb := newSandbox(t)
	a := sb.target(lineAdapter{id: "a"}, "")
	sb.write(".a", "# v0\n")
	sb.applyAt(sb.plan([]Target{a}, []canonical.Server{stdio("gh", "npx")}, nil), time.Now(), "export")
	sb.write(".a", sb.read(".a")+"# edited by hand\n")
	p, err := PlanRestore(sb.stateDir, RestoreOptions{All: true, State: sb.st})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Err(); err == nil || !strings.Contains(err.Error(), "changed since mcpsync last wrote it") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("plan error %v", err)
	}
	p, _ = PlanRestore(sb.stateDir, RestoreOptions{All: true, State: sb.st, Force: true})
	sb.applyAt(p, time.Now(), "restore --force")
	if sb.read(".a") != "# v0\n" {
		t.Fatalf("got %q", sb.read(".a"))
	}
	// The hand edit is in the restore's own backup.
	bs, _ := ListBackups(sb.stateDir)
	last := bs[len(bs)-1]
	data, _ := last.Read(last.Files[0])
	if !strings.Contains(string(data), "# edited by hand") {
		t.Fatalf("the overwritten edit was not backed up: %q", data)
	}
}

func TestPruneBackups(t *testing.T) {
	sb := newSandbox(t)
	a, b := sb.target(lineAdapter{id: "a"}, ""), sb.target(lineAdapter{id: "b"}, "")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	none := &Retention{}
	apply := func(targets []Target, arg string, at time.Time) {
		p := sb.plan(targets, []canonical.Server{stdio("gh", "npx", arg)}, func(o *ExportOptions) { o.Force = true })
		if _, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st, Now: func() time.Time { return at }, Retention: none}); err != nil {
			t.Fatal(err)
		}
	}
	// Five applies writing a and b, then three writing only a.
	for i := range 5 {
		apply([]Target{a, b}, string(rune('a'+i)), t0.Add(time.Duration(i)*24*time.Hour))
	}
	for i := range 3 {
		apply([]Target{a}, string(rune('A'+i)), t0.Add(time.Duration(10+i)*24*time.Hour))
	}
	// A directory an apply left without a manifest (killed while backing up).
	os.MkdirAll(filepath.Join(sb.stateDir, BackupDirName, "20260101T000000.000000000Z-9"), 0o700)

	now := t0.Add(13 * 24 * time.Hour)
	if _, err := PruneBackups(sb.stateDir, Retention{Keep: 3, MaxAge: 5 * 24 * time.Hour}, now); err != nil {
		t.Fatal(err)
	}
	bs, _ := ListBackups(sb.stateDir)
	count := map[string]int{}
	for _, bk := range bs {
		for _, rec := range bk.Files {
			count[filepath.Base(rec.Path)]++
			if _, err := bk.Read(rec); err != nil {
				t.Errorf("kept record unreadable: %v", err)
			}
		}
	}
	// a: 8 backups, keep 3 but only those within 5 days: the three at days
	// 10-12. b: its newest (day 4) is older than 5 days but is its newest.
	if count[".a"] != 3 || count[".b"] != 1 {
		t.Fatalf("kept %v", count)
	}
	entries, _ := os.ReadDir(filepath.Join(sb.stateDir, BackupDirName))
	if len(entries) != len(bs) {
		t.Fatalf("%d directories for %d backups (incomplete or emptied directories left)", len(entries), len(bs))
	}
}

func TestApplyPrunesByDefault(t *testing.T) {
	sb := newSandbox(t)
	a := sb.target(lineAdapter{id: "a"}, "")
	t0 := time.Now().UTC()
	for i := range DefaultRetention.Keep + 5 {
		p := sb.plan([]Target{a}, []canonical.Server{stdio("gh", "npx", string(rune('a'+i)))}, func(o *ExportOptions) { o.Force = true })
		if _, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st, Now: func() time.Time { return t0.Add(time.Duration(i) * time.Second) }}); err != nil {
			t.Fatal(err)
		}
	}
	bs, _ := ListBackups(sb.stateDir)
	if len(bs) != DefaultRetention.Keep {
		t.Fatalf("%d backups kept, want %d", len(bs), DefaultRetention.Keep)
	}
}

func TestApplyCleansTempFilesOfKilledWriters(t *testing.T) {
	sb := newSandbox(t)
	a := sb.target(lineAdapter{id: "a"}, "")
	sb.write(".a", "")
	leftover := filepath.Join(sb.home, "..a.mcpsync-4194305-1") // "." + ".a" + ".mcpsync-PID-…"
	os.WriteFile(leftover, []byte("gh = {partial"), 0o600)
	// The plan changes nothing in .a: the leftover goes anyway.
	sb.apply(sb.plan([]Target{a}, nil, nil))
	if _, err := os.Stat(leftover); err == nil {
		t.Fatal("the killed writer's temporary file is still there")
	}
}

func TestSecretMaskKnowsTheServersSecrets(t *testing.T) {
	sb := newSandbox(t)
	srv := stdio("gh", "npx", "--token", "abcd1234efgh")
	srv.Env = map[string]string{"PROJECT": "Zk3q9XvB2mLp7RtW4nYc8HsD6fGj"}
	p := sb.plan([]Target{sb.target(lineAdapter{id: "a"}, "")}, []canonical.Server{srv}, nil)
	mask := p.SecretMask()
	// A line holding only the value, as a multi-line args array prints it.
	if got := mask(`    "abcd1234efgh",`); got != `    "abc***",` {
		t.Fatalf("got %s", got)
	}
	d := p.Diff(DiffOptions{Mask: mask})
	for _, leak := range []string{"abcd1234efgh", "Zk3q9XvB2mLp7RtW4nYc8HsD6fGj"} {
		if strings.Contains(d, leak) {
			t.Fatalf("diff shows %s:\n%s", leak, d)
		}
	}
}

// A plan that let its server sets go once planned still masks every
// secret its diff would show, the old entry's and the new one's: read
// again from the bytes (DropSets: a plan that is written, not shown), or
// from the values kept as the sets went (KeepMask: a dry run).
func TestSecretMaskAfterSetsDropped(t *testing.T) {
	secretsShown := []string{"oldtok5678wxyz", "Qm7Lp2Vx9Rk4Tz8Wc3Nb6Hy5Jd1Fg", "abcd1234efgh", "Zk3q9XvB2mLp7RtW4nYc8HsD6fGj"}
	var diffs []string
	for _, mode := range []struct{ drop, keep bool }{{false, false}, {true, false}, {true, true}} {
		drop := mode.drop
		sb := newSandbox(t)
		a := lineAdapter{id: "a"}
		target := sb.target(a, "")
		old := stdio("gh", "npx", "--token", secretsShown[0])
		old.Env = map[string]string{"PROJECT": secretsShown[1]}
		sb.write(".a", a.entry(target.Location, old, "\n"))
		srv := stdio("gh", "npx", "--token", secretsShown[2])
		srv.Env = map[string]string{"PROJECT": secretsShown[3]}
		p := sb.plan([]Target{target}, []canonical.Server{srv}, func(o *ExportOptions) { o.Force, o.DropSets, o.KeepMask = true, drop, mode.keep })
		tp := p.Files[0].Targets[0]
		if dropped := tp.Current.Len()+tp.Desired.Len()+tp.After.Len() == 0; dropped != drop {
			t.Fatalf("DropSets %v: sets dropped %v", drop, dropped)
		}
		if kept := len(p.Files[0].maskValues) > 0; kept != mode.keep {
			t.Fatalf("KeepMask %v: values kept %v", mode.keep, p.Files[0].maskValues)
		}
		mask := p.SecretMask()
		for _, v := range []string{secretsShown[0], secretsShown[2]} {
			// alone on a line, as a multi-line args array prints it:
			// only the servers' own secrets say it is one
			if line := `    "` + v + `",`; mask(line) == line {
				t.Fatalf("DropSets %v: %s is not masked", drop, v)
			}
		}
		d := p.Diff(DiffOptions{Base: sb.home, Mask: mask})
		for _, leak := range secretsShown {
			if strings.Contains(d, leak) {
				t.Fatalf("DropSets %v: the diff shows %s:\n%s", drop, leak, d)
			}
		}
		diffs = append(diffs, d)
	}
	for i := 1; i < len(diffs); i++ {
		if diffs[0] != diffs[i] {
			t.Fatalf("masked differently once the sets are dropped (mode %d):\n%s\n---\n%s", i, diffs[0], diffs[i])
		}
	}
}

func TestPlanWriteIsBackedUpAndDriftChecked(t *testing.T) {
	sb := newSandbox(t)
	path := sb.write("store.hcl", "# v1\n")
	p := PlanWrite(path, "", []byte("# v1\n"), []byte("# v2\n"))
	if _, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, Command: "add x"}); err != nil {
		t.Fatal(err)
	}
	if sb.read("store.hcl") != "# v2\n" {
		t.Fatal("not written")
	}
	bs, _ := ListBackups(sb.stateDir)
	if len(bs) != 1 || bs[0].Command != "add x" || bs[0].Files[0].State != nil {
		t.Fatalf("backup %+v", bs)
	}
	// Someone changed it since it was read: refused.
	p = PlanWrite(path, "", []byte("# v1\n"), []byte("# v3\n"))
	var drift *DriftError
	if _, err := Apply(p, ApplyOptions{StateDir: sb.stateDir}); !errors.As(err, &drift) {
		t.Fatalf("Apply = %v, want a drift error", err)
	}
}

func TestWritingASecretIntoAReadableFileWarns(t *testing.T) {
	sb := newSandbox(t)
	path := sb.write(".a", "# mine\n")
	os.Chmod(path, 0o644)
	srv := stdio("gh", "npx")
	srv.Env = map[string]string{"GITHUB_TOKEN": "ghp_R8kq2Lm9Xv4TzW7bN1cP5sD3fG6hJ0aQeY2u"}
	p := sb.plan([]Target{sb.target(lineAdapter{id: "a"}, "")}, []canonical.Server{srv}, nil)
	w := p.Diags.Warnings()
	if len(w) != 1 || !strings.Contains(w[0].Summary, "readable by every user of this machine (mode 0644) and will hold a literal secret (env GITHUB_TOKEN holds a GitHub token (ghp_***))") ||
		!strings.Contains(w[0].Detail, "chmod 600") || strings.Contains(w[0].Error(), "R8kq2") {
		t.Fatalf("warnings %v", w)
	}
	os.Chmod(path, 0o600)
	if w := sb.plan([]Target{sb.target(lineAdapter{id: "a"}, "")}, []canonical.Server{srv}, nil).Diags.Warnings(); len(w) != 0 {
		t.Fatalf("a private file: %v", w)
	}
}

// A backup written before states moved out of the manifest (State inline)
// still gives its state; pruning removes a dropped record's state file
// with its copy.
func TestBackupStateInlineAndPruned(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.target(lineAdapter{id: "fake"}, "")
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, servers := range [][]canonical.Server{{stdio("gh", "npx")}, {stdio("gh", "npx"), stdio("fs", "uvx")}, {stdio("fs", "uvx")}} {
		sb.applyAt(sb.plan([]Target{tgt}, servers, func(o *ExportOptions) { o.Prune = true }), t0.Add(time.Duration(i)*time.Minute), "export")
	}
	bs, err := ListBackups(sb.stateDir)
	if err != nil || len(bs) != 3 {
		t.Fatalf("backups %v, %v", bs, err)
	}
	// Rewrite the middle one as an older mcpsync wrote it.
	mid := bs[1]
	rec := mid.Files[0]
	want, err := mid.ReadState(rec)
	if err != nil || want == nil {
		t.Fatalf("state of the middle backup: %v, %v", want, err)
	}
	os.Remove(filepath.Join(mid.Dir, rec.StateFile))
	rec.State, rec.StateFile = want, ""
	data, _ := json.MarshalIndent(BackupManifest{At: mid.At, Command: mid.Command, Files: []BackupRecord{rec}}, "", "  ")
	os.WriteFile(filepath.Join(mid.Dir, ManifestName), data, 0o600)
	bs, _ = ListBackups(sb.stateDir)
	got, err := bs[1].ReadState(bs[1].Files[0])
	if err != nil || got == nil || got.SHA256 != want.SHA256 || len(got.Sections[""].Managed) != len(want.Sections[""].Managed) {
		t.Fatalf("inline state read as %+v, %v; want %+v", got, err, want)
	}
	// Keep one backup per file: the newest stays, the others go, and with
	// them their state files.
	if _, err := PruneBackups(sb.stateDir, Retention{Keep: 1}, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	bs, _ = ListBackups(sb.stateDir)
	if len(bs) != 1 {
		t.Fatalf("%d backups after pruning, want 1", len(bs))
	}
	entries, _ := os.ReadDir(filepath.Join(sb.stateDir, BackupDirName))
	for _, e := range entries {
		files, _ := os.ReadDir(filepath.Join(sb.stateDir, BackupDirName, e.Name()))
		for _, f := range files {
			if strings.HasPrefix(f.Name(), "state") && e.Name() != bs[0].ID {
				t.Errorf("state file %s left in a pruned backup", f.Name())
			}
		}
	}
	if s, err := bs[0].ReadState(bs[0].Files[0]); err != nil || s == nil {
		t.Fatalf("the newest backup lost its state: %v, %v", s, err)
	}
}

// A backup of an apply that rewrites several files holding the same
// servers keeps what mcpsync knew of each file with every server's
// definition once, not once per file; each file's state reads back whole,
// and pruning one file's record keeps what the others still need.
func TestBackupStatesShareServers(t *testing.T) {
	sb := newSandbox(t)
	targets := []Target{sb.target(lineAdapter{id: "a"}, ""), sb.target(lineAdapter{id: "b"}, ""), sb.target(lineAdapter{id: "c"}, "")}
	servers := []canonical.Server{stdio("gh", "npx", "--marker-gh"), stdio("fs", "uvx", "--marker-fs")}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sb.applyAt(sb.plan(targets, servers, nil), t0, "export")
	var want []*ledger.File
	for _, tgt := range targets {
		want = append(want, sb.st.File(tgt.Location.Path).Clone())
	}
	sb.applyAt(sb.plan(targets, append(servers, stdio("new", "npx")), nil), t0.Add(time.Minute), "export")
	bs, err := ListBackups(sb.stateDir)
	if err != nil || len(bs) != 2 || len(bs[1].Files) != 3 {
		t.Fatalf("backups %v, %v", bs, err)
	}
	last := bs[1]
	var states string
	names := map[string]bool{}
	for _, rec := range last.Files {
		if rec.StateFile == "" || rec.State != nil {
			t.Fatalf("record %+v keeps no state file", rec)
		}
		if !names[rec.StateFile] {
			names[rec.StateFile] = true
			data, err := os.ReadFile(filepath.Join(last.Dir, rec.StateFile))
			if err != nil {
				t.Fatal(err)
			}
			states += string(data)
		}
	}
	for _, marker := range []string{"--marker-gh", "--marker-fs"} {
		if n := strings.Count(states, marker); n != 1 {
			t.Errorf("the backup's states hold %s %d times, want once:\n%s", marker, n, states)
		}
	}
	for i, rec := range last.Files {
		got, err := last.ReadState(rec)
		if err != nil || got == nil {
			t.Fatalf("state of %s: %v, %v", rec.Path, got, err)
		}
		w := want[slices.IndexFunc(targets, func(t Target) bool { return t.Location.Path == rec.Path })]
		if got.SHA256 != w.SHA256 || len(got.Sections[""].Managed) != 2 {
			t.Fatalf("record %d: state %+v, want %+v", i, got, w)
		}
		for name, e := range w.Sections[""].Managed {
			g := got.Sections[""].Managed[name]
			if g == nil || g.Hash != e.Hash || !g.HasServer() || !canonical.Equal(*g.Server, *e.Server) {
				t.Errorf("%s: entry %s read back as %+v, want %+v", rec.Path, name, g, e)
			}
		}
	}
	// Prune so that the last backup loses one file's record (a newer
	// backup of that file alone is made first): the others' states stay.
	sb.applyAt(sb.plan(targets[:1], servers, nil), t0.Add(2*time.Minute), "export")
	if _, err := PruneBackups(sb.stateDir, Retention{Keep: 1}, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	bs, _ = ListBackups(sb.stateDir)
	for _, b := range bs {
		for _, rec := range b.Files {
			if s, err := b.ReadState(rec); err != nil || s == nil {
				t.Errorf("backup %s lost the state of %s: %v, %v", b.ID, rec.Path, s, err)
			}
		}
	}
}

// A backup made before the states were shared keeps a file per record
// ("state~" and the escaped path, ledger.MarshalFile): it still reads.
func TestBackupStatePerRecordFile(t *testing.T) {
	sb, _, want := appliedTwice(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "export", "export", stdio("gh", "npx", "-y"))
	bs, _ := ListBackups(sb.stateDir)
	last := bs[len(bs)-1]
	rec := last.Files[0]
	data, err := ledger.MarshalFile(want)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(last.Dir, rec.StateFile))
	rec.StateFile = "state~" + EscapePath(rec.Path) + ".json"
	os.WriteFile(filepath.Join(last.Dir, rec.StateFile), data, 0o600)
	m, _ := json.MarshalIndent(BackupManifest{At: last.At, Command: last.Command, Files: []BackupRecord{rec}}, "", "  ")
	os.WriteFile(filepath.Join(last.Dir, ManifestName), m, 0o600)
	bs, _ = ListBackups(sb.stateDir)
	got, err := bs[len(bs)-1].ReadState(bs[len(bs)-1].Files[0])
	if err != nil || got == nil || got.SHA256 != want.SHA256 || !canonical.Equal(*got.Sections[""].Managed["gh"].Server, *want.Sections[""].Managed["gh"].Server) {
		t.Fatalf("per-record state read as %+v, %v; want %+v", got, err, want)
	}
}

// appliedTwice applies gh alone to a file of its own at t0 (firstCmd),
// then second a minute later (secondCmd), and returns what the state knew
// of the file between the two.
func appliedTwice(t *testing.T, t0 time.Time, firstCmd, secondCmd string, second ...canonical.Server) (*sandbox, Target, *ledger.File) {
	sb := newSandbox(t)
	tgt := sb.target(lineAdapter{id: "fake"}, "")
	sb.applyAt(sb.plan([]Target{tgt}, []canonical.Server{stdio("gh", "npx")}, nil), t0, firstCmd)
	between := sb.st.File(tgt.Location.Path).Clone()
	sb.applyAt(sb.plan([]Target{tgt}, second, nil), t0.Add(time.Minute), secondCmd)
	return sb, tgt, between
}

// A backup whose shared states file is damaged, or does not name the
// file, says so for that backup and file; the copy itself still reads.
func TestBackupStatesDamaged(t *testing.T) {
	sb, tgt, _ := appliedTwice(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "export", "export", stdio("gh", "npx", "-y"))
	bs, _ := ListBackups(sb.stateDir)
	last := bs[len(bs)-1]
	rec, _ := last.Record(tgt.Location.Path)
	states := filepath.Join(last.Dir, StatesFileName)
	for _, c := range []struct{ text, want string }{
		{`{"version":2,"files":{`, "is damaged or unreadable"},
		{`{"version":2,"files":{"/elsewhere":{}}}`, "is missing from " + StatesFileName},
		{`{"version":99,"files":{}}`, "newer mcpsync"},
	} {
		os.WriteFile(states, []byte(c.text), 0o600)
		fresh, _ := ListBackups(sb.stateDir)
		_, err := fresh[len(fresh)-1].ReadState(rec)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), last.ID) || !strings.Contains(err.Error(), rec.Path) {
			t.Errorf("%s: error %v, want one naming the backup, %s, and %q", c.text, err, rec.Path, c.want)
		}
		if data, err := fresh[len(fresh)-1].Read(rec); err != nil || data == nil {
			t.Errorf("%s: the copy reads as %q, %v", c.text, data, err)
		}
	}
}
