package sources

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/store"
)

// DefaultTimeout bounds one source's fetch.
const DefaultTimeout = 2 * time.Minute

// FetchOptions say how to fetch.
type FetchOptions struct {
	// CacheDir holds one checkout per source: $XDG_CACHE_HOME/mcpsync/sources.
	CacheDir string
	// BaseDir is what a relative local repository path is relative to: the
	// directory of the store that names the source.
	BaseDir string
	// Timeout bounds the whole fetch and checkout; zero is DefaultTimeout.
	Timeout time.Duration
	// Git is the git program; "" finds git on PATH.
	Git string
	// Env is the environment git runs in; nil is the process's.
	Env []string
}

// Checkout is a fetched source.
type Checkout struct {
	// Dir is the working tree: CacheDir/NAME.
	Dir string
	// Commit is the full hash of the commit checked out.
	Commit string
}

// gitConfig hardens every git run: a source is someone else's repository,
// so nothing in it may run a command on this machine. No hooks (and no hook
// templates: the cache repository is created with an empty template), no
// ext:: transport, no fsmonitor, no submodules, no automatic gc left
// running in the background.
var gitConfig = []string{
	"-c", "core.hooksPath=" + os.DevNull,
	"-c", "protocol.ext.allow=never",
	"-c", "core.fsmonitor=false",
	"-c", "submodule.recurse=false",
	"-c", "fetch.recurseSubmodules=false",
	"-c", "advice.detachedHead=false",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
}

// locationVars point git at another repository; one inherited from a
// surrounding git hook would make the fetch land in the user's own
// repository.
var locationVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX"}

// Fetch brings the source's ref into CacheDir/NAME with the system git, as
// a shallow fetch (depth 1, no tags) and a detached checkout of exactly
// that commit. git never prompts (GIT_TERMINAL_PROMPT=0, ssh in batch
// mode): a repository that needs credentials git does not already have
// fails instead of hanging, and the whole fetch is bounded by Timeout.
//
// The checkout is a cache: a failed fetch leaves the previous checkout as
// it was, and a checkout may be thrown away at any time.
func Fetch(ctx context.Context, src store.Source, opts FetchOptions) (Checkout, error) {
	if ds := CheckSource(src); ds.HasErrors() {
		return Checkout{}, ds.Err()
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	g := &gitRunner{git: opts.Git, env: gitEnv(opts.Env)}
	if g.git == "" {
		g.git = "git"
	}
	dir := filepath.Join(opts.CacheDir, src.Name)
	repo := RepoURL(src.Git, opts.BaseDir)
	ref := src.Ref
	if ref == "" {
		ref = "HEAD"
	}
	describe := func(err error) error {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("fetching %s timed out after %s", src.Git, timeout)
		}
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return Checkout{}, fmt.Errorf("cannot create the cache directory: %w", err)
		}
		if _, err := g.run(ctx, dir, "init", "--quiet", "--template="); err != nil {
			return Checkout{}, describe(fmt.Errorf("cannot create the cache repository %s: %w", dir, err))
		}
	}
	if _, err := g.run(ctx, dir, "fetch", "--quiet", "--depth=1", "--no-tags", "--recurse-submodules=no", "--", repo, ref); err != nil {
		return Checkout{}, describe(fmt.Errorf("cannot fetch %s (ref %s): %w", src.Git, ref, err))
	}
	out, err := g.run(ctx, dir, "rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}")
	if err != nil {
		return Checkout{}, describe(fmt.Errorf("%s (ref %s) did not give a commit: %w", src.Git, ref, err))
	}
	commit := strings.TrimSpace(string(out))
	if _, err := g.run(ctx, dir, "checkout", "--quiet", "--force", "--detach", commit); err != nil {
		return Checkout{}, describe(fmt.Errorf("cannot check out %s of %s: %w", shortCommit(commit), src.Git, err))
	}
	if _, err := g.run(ctx, dir, "clean", "--quiet", "-ffdx"); err != nil {
		return Checkout{}, describe(fmt.Errorf("cannot clean the checkout %s: %w", dir, err))
	}
	return Checkout{Dir: dir, Commit: commit}, nil
}

// RepoURL returns the repository git should fetch: a relative local path is
// taken relative to baseDir; URLs (https://, ssh://, file://, user@host:path)
// are returned as they are.
func RepoURL(repo, baseDir string) string {
	if strings.Contains(repo, "://") || filepath.IsAbs(repo) || baseDir == "" {
		return repo
	}
	if i := strings.Index(repo, ":"); i > 0 && !strings.ContainsAny(repo[:i], `/\`) && len(repo[:i]) > 1 {
		return repo // scp-like host:path (a one-letter prefix is a Windows drive)
	}
	return filepath.Join(baseDir, repo)
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// gitEnv is the environment for git: the caller's, without variables that
// would point git at another repository, and with prompts turned off.
func gitEnv(base []string) []string {
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+3)
	hasSSH := false
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		skip := false
		for _, v := range locationVars {
			if name == v {
				skip = true
			}
		}
		if name == "GIT_SSH" || name == "GIT_SSH_COMMAND" {
			hasSSH = true
		}
		if !skip {
			env = append(env, kv)
		}
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never")
	if !hasSSH {
		env = append(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	return env
}

type gitRunner struct {
	git string
	env []string
}

// run runs git in dir and returns its stdout; a failure's error is git's
// own message (the last lines of its stderr).
func (g *gitRunner) run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	full := append(append(append([]string{}, gitConfig...), "-C", dir), args...)
	cmd := exec.CommandContext(ctx, g.git, full...)
	cmd.Env = g.env
	cmd.Stdin = nil
	// A helper git started (ssh, a credential helper) may keep the pipes
	// open after git is killed; do not wait for it forever.
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if msg := gitMessage(stderr.String()); msg != "" {
				return nil, errors.New(msg)
			}
		}
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("git is not installed (or not on PATH); mcpsync fetches sources with the system git")
		}
		return nil, err
	}
	return stdout.Bytes(), nil
}

// gitMessage picks what to tell the user from git's stderr: its first
// "fatal:" or "error:" line, which names the cause (the lines after it are
// generic advice), or else its last line.
func gitMessage(stderr string) string {
	var last string
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "fatal: ") || strings.HasPrefix(l, "error: ") {
			return l
		}
		if l != "" {
			last = l
		}
	}
	return last
}
