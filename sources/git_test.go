package sources

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/store"
)

// gitRepo makes a bare repository with one commit on main holding files,
// and returns its path and a function that commits more files.
func gitRepo(t *testing.T, files map[string]string) (bare string, commit func(map[string]string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	bare, work := filepath.Join(dir, "remote.git"), filepath.Join(dir, "work")
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "init.defaultBranch=main", "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "--bare", bare)
	git("init", "-q", work)
	commit = func(files map[string]string) string {
		for name, text := range files {
			p := filepath.Join(work, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("-C", work, "add", "-A")
		git("-C", work, "commit", "-q", "-m", "c")
		git("-C", work, "push", "-q", bare, "HEAD:main")
		return git("-C", work, "rev-parse", "HEAD")
	}
	commit(files)
	return bare, commit
}

func TestFetch(t *testing.T) {
	bare, commit := gitRepo(t, map[string]string{"mcp/a.json": `{"command": "a"}`})
	cache := t.TempDir()
	src := store.Source{Name: "acme", Git: bare, Ref: "main", Path: "mcp"}

	// hooks from the user's git configuration never run on a source
	hooks, marker := t.TempDir(), filepath.Join(t.TempDir(), "hook-ran")
	if runtime.GOOS != "windows" {
		os.WriteFile(filepath.Join(hooks, "post-checkout"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	}
	global := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(global, []byte("[core]\n\thooksPath = "+filepath.ToSlash(hooks)+"\n"), 0o644)
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL="+global, "GIT_DIR=/nonexistent/elsewhere")

	co, err := Fetch(context.Background(), src, FetchOptions{CacheDir: cache, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if co.Dir != filepath.Join(cache, "acme") || len(co.Commit) != 40 {
		t.Errorf("checkout %+v", co)
	}
	if set, ds := Read(co.Dir, src.Path); ds.HasErrors() || set.Names()[0] != "a" {
		t.Errorf("read %v %v", set.Names(), ds)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a hook ran during the fetch")
	}

	// a new commit upstream is fetched into the same checkout; files gone
	// upstream are gone from the checkout
	os.WriteFile(filepath.Join(co.Dir, "mcp", "stray.json"), []byte(`{"command": "stray"}`), 0o644)
	want := commit(map[string]string{"mcp/b.json": `{"command": "b"}`})
	co, err = Fetch(context.Background(), src, FetchOptions{CacheDir: cache, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if co.Commit != want {
		t.Errorf("commit %s, want %s", co.Commit, want)
	}
	if set, _ := Read(co.Dir, src.Path); strings.Join(set.Names(), ",") != "a,b" {
		t.Errorf("after the second fetch: %v", set.Names())
	}

	// the default ref is the remote's HEAD
	src.Ref = ""
	if co, err := Fetch(context.Background(), src, FetchOptions{CacheDir: cache, Env: env}); err != nil || co.Commit != want {
		t.Errorf("default ref: %+v %v", co, err)
	}

	// an unknown ref and an unknown repository say so, in git's words
	src.Ref = "nope"
	_, err = Fetch(context.Background(), src, FetchOptions{CacheDir: cache, Env: env})
	if err == nil || !strings.Contains(err.Error(), "cannot fetch "+bare+" (ref nope): fatal: couldn't find remote ref nope") {
		t.Errorf("unknown ref: %v", err)
	}
	src.Ref, src.Git = "main", filepath.Join(t.TempDir(), "missing.git")
	_, err = Fetch(context.Background(), src, FetchOptions{CacheDir: cache, Env: env})
	if err == nil || !strings.Contains(err.Error(), "does not appear to be a git repository") {
		t.Errorf("unknown repository: %v", err)
	}
	// the checkout of the last good fetch is still there
	if set, _ := Read(co.Dir, "mcp"); set.Len() != 2 {
		t.Errorf("a failed fetch must leave the checkout: %v", set.Names())
	}
}

func TestFetchRefusesBadSources(t *testing.T) {
	_, err := Fetch(context.Background(), store.Source{Name: "x", Git: "--upload-pack=touch /tmp/pwned"}, FetchOptions{CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "is not a repository") {
		t.Errorf("got %v", err)
	}
}

func TestFetchTimeout(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a shell script as git")
	}
	slow := filepath.Join(t.TempDir(), "git")
	os.WriteFile(slow, []byte("#!/bin/sh\nexec sleep 10\n"), 0o755)
	start := time.Now()
	_, err := Fetch(context.Background(), store.Source{Name: "x", Git: "https://example.invalid/x.git"},
		FetchOptions{CacheDir: t.TempDir(), Git: slow, Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out after 200ms") {
		t.Errorf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the timeout did not stop git: %v", d)
	}
}

func TestFetchWithoutGit(t *testing.T) {
	_, err := Fetch(context.Background(), store.Source{Name: "x", Git: "https://example.invalid/x.git"},
		FetchOptions{CacheDir: t.TempDir(), Git: filepath.Join(t.TempDir(), "no-git-here")})
	if err == nil || !strings.Contains(err.Error(), "git") {
		t.Errorf("got %v", err)
	}
}

func TestGitEnv(t *testing.T) {
	env := strings.Join(gitEnv([]string{"HOME=/h", "GIT_DIR=/x", "GIT_WORK_TREE=/y", "GIT_SSH_COMMAND=my-ssh"}), "\n")
	for _, want := range []string{"HOME=/h", "GIT_TERMINAL_PROMPT=0", "GIT_SSH_COMMAND=my-ssh"} {
		if !strings.Contains(env, want) {
			t.Errorf("missing %s in %s", want, env)
		}
	}
	for _, bad := range []string{"GIT_DIR", "GIT_WORK_TREE", "BatchMode"} {
		if strings.Contains(env, bad) {
			t.Errorf("%s must not be passed: %s", bad, env)
		}
	}
	if env := strings.Join(gitEnv([]string{}), "\n"); !strings.Contains(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes") {
		t.Errorf("ssh must not prompt: %s", env)
	}
}
