// Package engine is mcpsync's verbs as Go calls: add, import, export, diff,
// sync, resolve, restore, pull, approve, probe and doctor, with the
// product's rules about which clients, which files, which store, and what
// the state remembers. The command line (cmd/mcpsync), `mcpsync serve` and
// any Go program call it the same way:
//
//	e := engine.New(engine.Env{Dirs: xdg.Resolve(os.Getenv), Cwd: cwd, GOOS: runtime.GOOS, Getenv: os.Getenv})
//	run, err := e.PlanExport(engine.ExportOptions{To: []string{"cursor"}, Lock: true})
//	if err != nil { … }
//	defer run.Close()
//	res, err := e.ApplyExport(run)
//
// The engine takes the process lock for a writing verb, is the only code
// that saves the ledger (package ledger) and the store, and returns typed
// results and typed errors (UsageError, ProblemsError, emitters.DriftError).
// It has no streams: what a verb has to tell besides its result (notes,
// warnings at file:line:col) is part of the result, for the caller to show.
package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/internal/xdg"
	"github.com/mcpsync/mcpsync/ledger"
)

// Env is where the engine runs: the directories, the working directory,
// the OS, the process environment, and the options every verb shares.
// Everything the engine reads of the machine comes through it, so that a
// test or a server can run it in a sandbox.
type Env struct {
	Dirs xdg.Dirs
	// Cwd is the working directory; ProjectDir, when set (-C), is the
	// project directory instead of it.
	Cwd, ProjectDir string
	// GOOS is this machine's OS.
	GOOS string
	// Getenv reads the environment; LookupEnv tells unset from empty (for
	// the probe, which expands references).
	Getenv    func(string) string
	LookupEnv func(string) (string, bool)
	// StorePath, when set (--store), is the store to use instead of the
	// user's or the project's.
	StorePath string
	// CommandLine is recorded with backups and in the lock (masked).
	CommandLine string
	// LockWait is how long a writing verb waits for another mcpsync (0:
	// MCPSYNC_LOCK_WAIT, else 10s); OnLockWait is told whom it waits for.
	LockWait   time.Duration
	OnLockWait func(ledger.Holder)
	// Ready, when set, is closed once the process handles Ctrl-C (the
	// command line sets its handler up beside a command's start): Lock
	// waits for it, so that no command runs under the lock without it.
	Ready <-chan struct{}
	// Hooks are test seams; nil does nothing.
	Hooks Hooks
}

// Hooks let tests act at the moments a race would.
type Hooks struct {
	// BeforeApply runs between the last check of the files and the first
	// write of an export (or add --to).
	BeforeApply func(paths []string)
	// BeforeSyncWrite is told which files a sync is about to write.
	BeforeSyncWrite func(paths []string)
}

// Engine runs the verbs in one Env.
type Engine struct {
	Env
	reg *formats.Registry
}

// New returns an engine for env. Getenv and LookupEnv default to reading
// nothing.
func New(env Env) *Engine {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.LookupEnv == nil {
		env.LookupEnv = func(string) (string, bool) { return "", false }
	}
	return &Engine{Env: env}
}

// Registry returns every client mcpsync knows: built-in adapters, then the
// user's plugins from $XDG_CONFIG_HOME/mcpsync/clients.d, read once. A
// plugin that does not load is in RegistryDiags and left out.
func (e *Engine) Registry() *formats.Registry {
	if e.reg == nil {
		e.reg = all.NewRegistry(all.Options{PluginDir: filepath.Join(e.Dirs.Config, "clients.d")})
	}
	return e.reg
}

// RegistryDiags are the problems and notes of the user's client plugins
// (one that does not load, one that replaces a built-in client).
func (e *Engine) RegistryDiags() canonical.Diagnostics { return e.Registry().Diags }

// ProjectRoot is the directory project-scope files are relative to: -C,
// else the working directory, made absolute.
func (e *Engine) ProjectRoot() string {
	root := e.ProjectDir
	if root == "" {
		root = e.Cwd
	}
	if !filepath.IsAbs(root) {
		root = filepath.Join(e.Cwd, root)
	}
	return root
}

// projectDir is -C as given, else the working directory: what the
// locations of project-scope files are built on.
func (e *Engine) projectDir() string {
	if e.ProjectDir != "" {
		return e.ProjectDir
	}
	return e.Cwd
}

// UsageError is a request that cannot be met as asked: a client that does
// not exist, options that do not go together. The command line exits 2.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error { return UsageError{Err: fmt.Errorf(format, args...)} }

// ProblemsError is a request that met problems in files (a store or a
// client file that does not parse, a plan with errors): Diags says what and
// where, Msg what happened ("nothing was written"). Nothing was written.
type ProblemsError struct {
	Diags canonical.Diagnostics
	Msg   string
}

func (e *ProblemsError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return e.Diags.Err().Error()
}

// problems is the ProblemsError of ds, or nil when ds holds no error.
func problems(ds canonical.Diagnostics, msg string) error {
	if !ds.HasErrors() {
		return nil
	}
	return &ProblemsError{Diags: ds, Msg: msg}
}

// lockWaitEnv overrides how long a writing verb waits for another mcpsync.
const lockWaitEnv = "MCPSYNC_LOCK_WAIT"

// defaultLockWait is how long a writing verb waits for another mcpsync.
const defaultLockWait = 10 * time.Second

// Lock takes mcpsync's advisory lock on the state directory for the whole
// read-plan-write of a verb that writes client files, the store or the
// state, so that two mcpsync processes (or serve and a command) never
// interleave. While another holds it, OnLockWait is told whom it waits
// for; after LockWait (MCPSYNC_LOCK_WAIT, default 10s) it gives up.
func (e *Engine) Lock() (*ledger.Lock, error) {
	if e.Ready != nil {
		<-e.Ready
	}
	wait := e.LockWait
	if wait == 0 {
		wait = defaultLockWait
		if v := e.Getenv(lockWaitEnv); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return nil, Usagef("%s=%q: give a duration such as 30s or 500ms", lockWaitEnv, v)
			}
			wait = d
		}
	}
	return ledger.AcquireWith(e.Dirs.State, ledger.LockOptions{Wait: wait, Command: e.CommandLine, OnWait: e.OnLockWait})
}

// LockWaitFor is the wait Lock uses, for a message.
func (e *Engine) LockWaitFor() time.Duration {
	if e.LockWait != 0 {
		return e.LockWait
	}
	if d, err := time.ParseDuration(e.Getenv(lockWaitEnv)); err == nil && d >= 0 {
		return d
	}
	return defaultLockWait
}

// ApplyOptions are the ApplyOptions of every write: the state directory,
// the command line recorded with the backups, and the backup retention
// (MCPSYNC_BACKUP_KEEP, MCPSYNC_BACKUP_MAX_AGE).
func (e *Engine) ApplyOptions(st *ledger.State) emitters.ApplyOptions {
	r := e.retention()
	return emitters.ApplyOptions{StateDir: e.Dirs.State, State: st, Command: e.CommandLine, Retention: &r}
}

// retention reads the backup retention from the environment; a value that
// does not parse keeps the default (a typo must not delete backups).
func (e *Engine) retention() emitters.Retention {
	r := emitters.DefaultRetention
	if v := e.Getenv("MCPSYNC_BACKUP_KEEP"); v != "" {
		var n int
		if _, err := fmt.Sscanf(v, "%d", &n); err == nil {
			r.Keep = n
		}
	}
	if v := e.Getenv("MCPSYNC_BACKUP_MAX_AGE"); v != "" {
		if d, err := ParseAge(v); err == nil {
			r.MaxAge = d
		}
	}
	return r
}

// ParseAge reads a duration that may also be given in days: "30d", "12h".
func ParseAge(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		var days float64
		if _, err := fmt.Sscanf(n, "%g", &days); err != nil || days < 0 {
			return 0, fmt.Errorf("%q is not a number of days", v)
		}
		return time.Duration(days * 24 * float64(time.Hour)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q: give a duration such as 30d, 12h or 90m", v)
	}
	return d, nil
}

// ApplyError is what a write says when emitters.Apply failed: a file that
// changed meanwhile in the drift error's own words (it says what to do),
// any other error as it is.
func ApplyError(err error) error {
	var drift *emitters.DriftError
	if errors.As(err, &drift) {
		return errors.New(drift.Error())
	}
	return err
}
