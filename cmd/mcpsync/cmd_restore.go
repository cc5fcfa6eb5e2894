package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/state"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/urfave/cli/v3"
)

const restoreDescription = `Brings files back from the backups mcpsync keeps. Every time mcpsync
writes a client file or the store (export, import, add, remove, sync,
watch, restore itself), the previous bytes are saved first under
$XDG_STATE_HOME/mcpsync/backups/, one directory per write with a manifest
of the files, when and by which command.

  mcpsync restore --list [FILE…]       the backups, per file, newest first
  mcpsync restore FILE…                undo the last write of each file
  mcpsync restore FILE… --at TIME      each file as it was at TIME
  mcpsync restore --all                undo the last write (every file it changed)
  mcpsync restore --all --at TIME      every file as it was at TIME

TIME is a backup id from --list, a date and time in local time
("2026-11-30 14:05", "14:05" for today, RFC 3339), or how long ago ("2h",
"3d"). A restore is itself a write: it is checked and atomic, it backs the
current bytes up first (so it can be undone with another restore), and it
puts back what mcpsync knew about each file then (which entries it wrote).
A file changed since mcpsync last wrote it (by hand, or by its client) is
refused unless --force, since restoring would also undo that change.

Old backups are pruned after every write: beyond the newest 20 of each
file, or older than 30 days (a file's newest backup is always kept). Set
MCPSYNC_BACKUP_KEEP and MCPSYNC_BACKUP_MAX_AGE (e.g. 50 and 90d) to keep
more; 'mcpsync restore --prune --keep N --max-age D' prunes now.

Examples:
  mcpsync restore --list
  mcpsync restore ~/.cursor/mcp.json --dry-run
  mcpsync restore --all                      # undo a bad export
  mcpsync restore --all --at 20261130T100203.123456789Z
  mcpsync restore ~/.codex/config.toml --at 2h`

func (a *App) restoreCommand() *cli.Command {
	return &cli.Command{
		Name:        "restore",
		Usage:       "bring client files (and the store) back from mcpsync's backups",
		ArgsUsage:   "[FILE…]",
		UsageText:   "mcpsync restore --list [FILE…] | FILE… [--at TIME] | --all [--at TIME] [--dry-run] [--force]",
		Description: restoreDescription,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "list", Aliases: []string{"l"}, Usage: "list the backups per file (of the FILEs given, or all)"},
			&cli.BoolFlag{Name: "all", Usage: "restore every file the chosen write changed (the last write, or every write after --at)"},
			&cli.StringFlag{Name: "at", Usage: "restore as things were at `TIME`: a backup id, a local date and time, or a duration ago (2h, 3d)"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff that would be written and write nothing"},
			&cli.BoolFlag{Name: "force", Usage: "restore a file even if it changed since mcpsync last wrote it (its current bytes are backed up first)"},
			&cli.BoolFlag{Name: "prune", Usage: "remove old backups now (see --keep and --max-age)"},
			&cli.IntFlag{Name: "keep", Usage: "with --prune: keep the newest `N` backups of each file (default 20, or MCPSYNC_BACKUP_KEEP)"},
			&cli.StringFlag{Name: "max-age", Usage: "with --prune: remove backups older than `AGE` such as 30d or 12h (default 30d, or MCPSYNC_BACKUP_MAX_AGE)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			paths := make([]string, 0, cmd.Args().Len())
			for _, p := range cmd.Args().Slice() {
				paths = append(paths, a.absPath(p))
			}
			switch {
			case cmd.Bool("prune"):
				if len(paths) > 0 || cmd.Bool("list") || cmd.Bool("all") || cmd.String("at") != "" {
					return usagef("--prune takes no files and no --list, --all or --at")
				}
				return a.runPruneBackups(cmd)
			case cmd.Int("keep") != 0 || cmd.String("max-age") != "":
				return usagef("--keep and --max-age go with --prune")
			case cmd.Bool("list"):
				if cmd.Bool("all") || cmd.String("at") != "" || cmd.Bool("force") {
					return usagef("--list takes no --all, --at or --force")
				}
				return a.runRestoreList(paths)
			case len(paths) == 0 && !cmd.Bool("all"):
				return usagef("name the files to restore, or give --all (see 'mcpsync restore --list')")
			case len(paths) > 0 && cmd.Bool("all"):
				return usagef("give FILEs or --all, not both")
			}
			o := emitters.RestoreOptions{Paths: paths, All: cmd.Bool("all"), Force: cmd.Bool("force")}
			if at := cmd.String("at"); at != "" {
				t, id, err := parseAt(at, time.Now())
				if err != nil {
					return err
				}
				o.At, o.ID = t, id
			}
			return a.runRestore(o, cmd.Bool("dry-run"))
		},
	}
}

// absPath makes a path given on the command line absolute: ~/ is the home
// directory, a relative path is relative to the working directory.
func (a *App) absPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(a.Dirs.Home, rest)
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(a.Cwd, p)
	}
	return filepath.Clean(p)
}

// backupID is a backup directory's name: the apply's UTC time.
var backupID = regexp.MustCompile(`^\d{8}T\d{6}\.\d{9}Z(-\d+)?$`)

// parseAt reads --at: a backup id, a duration ago, or a local date and time.
func parseAt(s string, now time.Time) (time.Time, string, error) {
	if backupID.MatchString(s) {
		return time.Time{}, s, nil
	}
	if d, err := parseAge(s); err == nil && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) > 0 {
		return now.Add(-d), "", nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, "", nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, "", nil
		}
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			y, m, d := now.In(time.Local).Date()
			return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.Local), "", nil
		}
	}
	return time.Time{}, "", usagef("--at %q: give a backup id (mcpsync restore --list), a local time such as "+
		"\"2026-11-30 14:05\" or \"14:05\", an RFC 3339 time, or a duration ago such as 2h or 3d", s)
}

// matchBackedUp maps each path the user named to the path the backups
// record, through symlinks: the user may name a dotfile's link or its target.
func matchBackedUp(paths []string, backups []*emitters.Backup) []string {
	known := map[string]string{}
	for _, b := range backups {
		for _, r := range b.Files {
			known[r.Path] = r.Path
			if real, err := atomicfile.Resolve(r.Path); err == nil {
				if _, taken := known[real]; !taken {
					known[real] = r.Path
				}
			}
		}
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if k, ok := known[p]; ok {
			out[i] = k
		} else if real, err := atomicfile.Resolve(p); err == nil {
			if k, ok := known[real]; ok {
				out[i] = k
			}
		}
	}
	return out
}

// backupJSON is one backup of one file in --list --json.
type backupJSON struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Command string    `json:"command,omitempty"`
	// Size is the size of the saved bytes; Absent means the file did not
	// exist before that write (restoring it removes the file).
	Size   int64  `json:"size,omitempty"`
	Absent bool   `json:"absent,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

type backedUpFileJSON struct {
	Path    string       `json:"path"`
	Display string       `json:"display"`
	Backups []backupJSON `json:"backups"`
}

func (a *App) runRestoreList(paths []string) error {
	backups, err := emitters.ListBackups(a.Dirs.State)
	if err != nil {
		return err
	}
	paths = matchBackedUp(paths, backups)
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	byFile := map[string]*backedUpFileJSON{}
	for i := len(backups) - 1; i >= 0; i-- {
		b := backups[i]
		for _, rec := range b.Files {
			if len(want) > 0 && !want[rec.Path] {
				continue
			}
			f := byFile[rec.Path]
			if f == nil {
				f = &backedUpFileJSON{Path: rec.Path, Display: a.displayPath(rec.Path)}
				byFile[rec.Path] = f
			}
			bj := backupJSON{ID: b.ID, At: b.At, Command: b.Command, SHA256: rec.SHA256, Absent: rec.Created}
			if !rec.Created {
				bj.Size = b.Size(rec)
			}
			f.Backups = append(f.Backups, bj)
		}
	}
	files := make([]*backedUpFileJSON, 0, len(byFile))
	for _, f := range byFile {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Display < files[j].Display })
	for _, p := range paths {
		if byFile[p] == nil {
			return fmt.Errorf("%s has no backup: mcpsync never wrote it, or its backups were pruned", a.displayPath(p))
		}
	}
	if a.JSON {
		return a.printJSON(map[string]any{"backupDir": filepath.Join(a.Dirs.State, emitters.BackupDirName), "files": files})
	}
	if len(files) == 0 {
		fmt.Fprintf(a.Stderr, "no backups yet: mcpsync keeps one in %s each time it writes a file\n",
			a.displayPath(filepath.Join(a.Dirs.State, emitters.BackupDirName)))
		return nil
	}
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(a.Stdout)
		}
		fmt.Fprintln(a.Stdout, a.paint(false, styleBold, f.Display))
		tw := a.newTable()
		for _, b := range f.Backups {
			size := "(absent)"
			if !b.Absent {
				size = humanSize(b.Size)
			}
			cmd := b.Command
			if cmd == "" {
				cmd = "-"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", b.At.Local().Format("2006-01-02 15:04:05"), size, cmd, a.paint(false, styleDim, b.ID))
		}
		tw.Flush()
	}
	fmt.Fprintln(a.Stderr, "each line is a file as it was just before that write; restore one with: mcpsync restore FILE --at ID")
	return nil
}

func humanSize(n int64) string {
	switch {
	case n < 0:
		return "?"
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f kB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// restoredJSON is one file of a restore in --json.
type restoredJSON struct {
	Path    string              `json:"path"`
	Display string              `json:"display"`
	Change  emitters.ChangeKind `json:"change"`
	Diff    string              `json:"diff,omitempty"`
}

func (a *App) runRestore(o emitters.RestoreOptions, dryRun bool) error {
	var lock *state.Lock
	var err error
	if !dryRun {
		if lock, err = a.acquireLock(); err != nil {
			return err
		}
		defer lock.Unlock()
	}
	st, err := state.Load(a.Dirs.State)
	if err != nil {
		return err
	}
	o.State = st
	if len(o.Paths) > 0 {
		backups, err := emitters.ListBackups(a.Dirs.State)
		if err != nil {
			return err
		}
		o.Paths = matchBackedUp(o.Paths, backups)
	}
	p, err := emitters.PlanRestore(a.Dirs.State, o)
	if err != nil {
		var re *emitters.RestoreError
		if errors.As(err, &re) {
			return fmt.Errorf("%s", re.Msg)
		}
		return err
	}
	diffOpts := emitters.DiffOptions{Base: a.projectRoot(), Mask: emitters.MaskSecrets}
	out := func(res *emitters.Result) error {
		var files []restoredJSON
		for _, fc := range p.Files {
			f := restoredJSON{Path: fc.Path, Display: a.displayPath(fc.Path), Change: fc.Kind}
			if dryRun {
				f.Diff = fc.Diff(diffOpts)
			}
			files = append(files, f)
		}
		m := map[string]any{"dryRun": dryRun, "files": files}
		if res != nil {
			m["result"] = res
		}
		if e := p.Diags.Errors(); len(e) > 0 {
			m["errors"] = e
		}
		return a.printJSON(m)
	}
	if p.Diags.HasErrors() {
		if a.JSON {
			out(nil)
		}
		a.printDiagnostics(p.Diags)
		fmt.Fprintf(a.Stderr, "mcpsync: %d error(s); no file was restored\n", len(p.Diags.Errors()))
		return reportedError{p.Err()}
	}
	if dryRun {
		if a.JSON {
			return out(nil)
		}
		a.printExact(a.colorDiff(p.Diff(diffOpts)))
		fmt.Fprintf(a.Stderr, "dry run: %d file(s) would be restored; nothing was written\n", len(p.Changes()))
		return nil
	}
	res, err := emitters.Apply(p, a.applyOptions(st))
	if err != nil {
		return applyError(err)
	}
	if a.JSON {
		return out(res)
	}
	tw := a.newTable()
	for _, fc := range p.Files {
		verb := map[emitters.ChangeKind]string{emitters.Create: "restored", emitters.Modify: "restored",
			emitters.Delete: "removed", emitters.Unchanged: "unchanged"}[fc.Kind]
		note := ""
		switch fc.Kind {
		case emitters.Delete:
			note = "(it did not exist then)"
		case emitters.Unchanged:
			note = "(already as it was)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", verb, a.displayPath(fc.Path), note)
	}
	tw.Flush()
	if res.BackedUp > 0 {
		fmt.Fprintf(a.Stderr, "the replaced bytes are backed up too: undo this with 'mcpsync restore --all'\n")
	}
	return nil
}

func (a *App) runPruneBackups(cmd *cli.Command) error {
	r := a.retention()
	if n := cmd.Int("keep"); n != 0 {
		r.Keep = int(n)
	}
	if v := cmd.String("max-age"); v != "" {
		d, err := parseAge(v)
		if err != nil {
			return usagef("--max-age: %v", err)
		}
		r.MaxAge = d
	}
	lock, err := a.acquireLock()
	if err != nil {
		return err
	}
	defer lock.Unlock()
	touched, err := emitters.PruneBackups(a.Dirs.State, r, time.Now().UTC())
	if err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"keep": r.Keep, "maxAge": r.MaxAge.String(), "pruned": touched})
	}
	fmt.Fprintf(a.Stderr, "pruned %d backup director%s (keeping the newest %d of each file, none older than %s but each file's newest)\n",
		len(touched), map[bool]string{true: "y", false: "ies"}[len(touched) == 1], r.Keep, r.MaxAge)
	return nil
}
