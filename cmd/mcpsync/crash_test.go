//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/ledger"
)

// These tests run the real binary, built once, against a home holding a
// file for every client in the user and project scopes, and a big
// ~/.claude.json, as a user's machine would.

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// mcpsyncBinary builds cmd/mcpsync once for the test binary's life.
func mcpsyncBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpsync-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "mcpsync")
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// crashHome is a sandboxed machine: a home, a project, their client files.
type crashHome struct {
	t       *testing.T
	bin     string
	work    string
	home    string
	project string
	env     []string
	// files are every client file of both scopes, by scope.
	files map[canonical.Scope][]string
}

func newCrashHome(t *testing.T, bin string) *crashHome {
	work := t.TempDir()
	h := &crashHome{t: t, bin: bin, work: work, home: filepath.Join(work, "home"), project: filepath.Join(work, "project"),
		files: map[canonical.Scope][]string{}}
	os.MkdirAll(filepath.Join(h.project, ".git"), 0o755)
	vars := map[string]string{
		"HOME": h.home, "USERPROFILE": h.home, "XDG_CONFIG_HOME": filepath.Join(h.home, ".config"),
		"XDG_STATE_HOME": filepath.Join(h.home, ".local", "state"), "XDG_CACHE_HOME": filepath.Join(h.home, ".cache"),
		"APPDATA": filepath.Join(h.home, "AppData", "Roaming"), "CODEX_HOME": "", "COPILOT_HOME": "", "QWEN_HOME": "",
		"GEMINI_CLI_HOME": "", "CLAUDE_CONFIG_DIR": "", "MCPSYNC_STORE": "", "NO_COLOR": "1", "PATH": os.Getenv("PATH"),
	}
	for k, v := range vars {
		h.env = append(h.env, k+"="+v)
	}
	fenv := formats.Env{Home: h.home, ProjectDir: h.project, OS: "linux", Getenv: func(k string) string { return vars[k] }}
	reg := all.NewRegistry(all.Options{})
	seen := map[string]bool{}
	for _, ad := range reg.All() {
		for _, scope := range []canonical.Scope{canonical.ScopeUser, canonical.ScopeProject} {
			var loc formats.Location
			found := false
			for _, l := range ad.Locations(fenv) {
				if l.Scope == scope && !l.ReadOnly {
					loc, found = l, true
					break
				}
			}
			if !found || seen[loc.Path] {
				continue
			}
			seen[loc.Path] = true
			mine := canonical.Server{Name: "mine-" + ad.ID(), Transport: canonical.Stdio, Command: "uvx", Args: []string{"my-own-server"}}
			data, ds := ad.Encode(loc, nil, canonical.Set{Servers: []canonical.Server{mine}}, formats.EncodeOptions{OS: "linux"})
			if ds.HasErrors() {
				t.Fatalf("%s: %v", ad.ID(), ds.Err())
			}
			if ad.ID() == "claude-code" && scope == canonical.ScopeUser {
				data = bigClaudeJSON(data)
			}
			write(t, loc.Path, data)
			h.files[scope] = append(h.files[scope], loc.Path)
		}
	}
	var userStore, projectStore strings.Builder
	for i := range 30 {
		fmt.Fprintf(&userStore, "server \"user-%d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@example/server-%d\"]\n  env     = { TOKEN = env(\"TOKEN_%d\") }\n}\n\n", i, i, i)
	}
	for i := range 10 {
		fmt.Fprintf(&projectStore, "server \"proj-%d\" {\n  url     = \"https://mcp%d.example.com/mcp\"\n  headers = { Authorization = \"Bearer ${env(\"KEY_%d\")}\" }\n}\n\n", i, i, i)
	}
	write(t, filepath.Join(h.home, ".config", "mcpsync", "mcpsync.hcl"), []byte(userStore.String()))
	write(t, filepath.Join(h.project, "mcpsync.hcl"), []byte(projectStore.String()))
	return h
}

// bigClaudeJSON adds what a long-used ~/.claude.json holds: hundreds of
// projects with their history, a few megabytes.
func bigClaudeJSON(data []byte) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"numStartups\": 412,\n  \"projects\": {\n")
	for i := range 600 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    \"/home/u/src/project-%d\": {\n      \"allowedTools\": [],\n      \"history\": [", i)
		for j := range 20 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{\"display\": \"refactor the parser of module %d, step %d, keeping the tests green\", \"pastedContents\": {}}", i, j)
		}
		b.WriteString("],\n      \"mcpServers\": {}\n    }")
	}
	b.WriteString("\n  },\n")
	rest := bytes.TrimPrefix(bytes.TrimSpace(data), []byte("{"))
	b.Write(rest)
	return []byte(b.String())
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (h *crashHome) command(args ...string) *exec.Cmd {
	cmd := exec.Command(h.bin, args...)
	cmd.Dir, cmd.Env = h.project, h.env
	return cmd
}

// run runs mcpsync to the end and fails the test if it fails.
func (h *crashHome) run(args ...string) string {
	h.t.Helper()
	out, err := h.command(args...).CombinedOutput()
	if err != nil {
		h.t.Fatalf("mcpsync %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (h *crashHome) snapshot(scope canonical.Scope) map[string]string {
	out := map[string]string{}
	for _, p := range h.files[scope] {
		data, err := os.ReadFile(p)
		if err != nil {
			h.t.Fatal(err)
		}
		out[p] = string(data)
	}
	return out
}

func (h *crashHome) stateDir() string { return filepath.Join(h.home, ".local", "state", "mcpsync") }

func (h *crashHome) lastBackup() string {
	bs, err := emitters.ListBackups(h.stateDir())
	if err != nil {
		h.t.Fatal(err)
	}
	if len(bs) == 0 {
		return ""
	}
	return bs[len(bs)-1].ID
}

// tempFiles lists the temporary files mcpsync left next to client files.
func (h *crashHome) tempFiles() []string {
	var out []string
	dirs := map[string]bool{}
	for _, fs := range h.files {
		for _, p := range fs {
			dirs[filepath.Dir(p)] = true
		}
	}
	for d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".mcpsync-") {
				out = append(out, filepath.Join(d, e.Name()))
			}
		}
	}
	return out
}

// TestKilledExportLeavesEveryFileWhole kills 'mcpsync export --to all' with
// SIGKILL at random moments, many times: before it writes, while it writes
// and after. Every client file must afterwards hold exactly its old or its
// new bytes, never a mix, and 'mcpsync restore --all' must bring the old
// set back. Temporary files a killed run leaves are never read by a client
// and are removed by the next write.
func TestKilledExportLeavesEveryFileWhole(t *testing.T) {
	// 100 runs by default (about 40 s on two busy cores), 20 with -short;
	// MCPSYNC_CRASH_ITERATIONS=1000 for a longer soak.
	iterations := 100
	if testing.Short() {
		iterations = 20
	}
	if v := os.Getenv("MCPSYNC_CRASH_ITERATIONS"); v != "" {
		fmt.Sscanf(v, "%d", &iterations)
	}
	h := newCrashHome(t, mcpsyncBinary(t))
	scopes := []canonical.Scope{canonical.ScopeUser, canonical.ScopeProject}
	oldSet, newSet := map[canonical.Scope]map[string]string{}, map[canonical.Scope]map[string]string{}
	took := map[canonical.Scope]time.Duration{}
	for _, s := range scopes {
		oldSet[s] = h.snapshot(s)
		start := time.Now()
		h.run("export", "--to", "all", "--scope", string(s))
		took[s] = time.Since(start)
		newSet[s] = h.snapshot(s)
		changed := 0
		for p := range oldSet[s] {
			if oldSet[s][p] != newSet[s][p] {
				changed++
			}
		}
		// A client that cannot hold any of the store's servers (a stdio-only
		// one and the project's remote servers) keeps its file.
		if changed < len(oldSet[s])/2 {
			t.Fatalf("%s scope: the export changed only %d of %d files", s, changed, len(oldSet[s]))
		}
		h.run("restore", "--all")
		if got := h.snapshot(s); !mapsEqual(got, oldSet[s]) {
			t.Fatalf("%s scope: restore --all did not bring the old files back", s)
		}
	}
	t.Logf("%d user files and %d project files; a full export takes %v (user) and %v (project)",
		len(h.files[canonical.ScopeUser]), len(h.files[canonical.ScopeProject]), took[canonical.ScopeUser], took[canonical.ScopeProject])

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 8))
	var before, midApply, allWritten, finished, tempsLeft int
	for i := range iterations {
		s := scopes[i%2]
		prev := h.lastBackup()
		cmd := h.command("export", "--to", "all", "--scope", string(s))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if i%3 == 0 {
			// Aim at the writes: wait for this run's backup manifest, the
			// last step before the first write, then kill a moment later.
			deadline := time.Now().Add(5 * time.Second)
			for h.lastBackup() == prev && time.Now().Before(deadline) {
				select {
				case <-exited:
					deadline = time.Now()
				default:
					time.Sleep(200 * time.Microsecond)
				}
			}
			time.Sleep(time.Duration(rng.Int64N(int64(8 * time.Millisecond))))
		} else {
			time.Sleep(time.Duration(rng.Int64N(int64(took[s] * 13 / 10))))
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		if cmd.ProcessState.Success() {
			finished++
		}

		got := h.snapshot(s)
		nNew, nChanging := 0, 0
		for p, data := range got {
			if oldSet[s][p] != newSet[s][p] {
				nChanging++
			}
			switch data {
			case oldSet[s][p]:
			case newSet[s][p]:
				nNew++
			default:
				t.Fatalf("iteration %d: %s is neither its old nor its new version (%d bytes)", i, p, len(data))
			}
		}
		if len(h.tempFiles()) > 0 {
			tempsLeft++
		}
		newBackup := h.lastBackup() != prev
		switch {
		case !newBackup:
			// Killed before its backup was complete: it replaced nothing.
			if nNew > 0 {
				t.Fatalf("iteration %d: %d files written without a backup", i, nNew)
			}
			// It may have staged files (they are staged while the backup
			// is made): the next write of them removes what it left.
			if len(h.tempFiles()) > 0 {
				h.run("export", "--to", "all", "--scope", string(s))
				h.run("restore", "--all")
				if got := h.snapshot(s); !mapsEqual(got, oldSet[s]) {
					t.Fatalf("iteration %d: restore --all did not bring the old set back", i)
				}
				if left := h.tempFiles(); len(left) > 0 {
					t.Fatalf("iteration %d: temporary files still there after the next write: %v", i, left)
				}
			}
			before++
			continue
		case nNew == nChanging:
			allWritten++
		case nNew > 0:
			midApply++
		default:
			before++
		}
		h.run("restore", "--all")
		if got := h.snapshot(s); !mapsEqual(got, oldSet[s]) {
			t.Fatalf("iteration %d: restore --all did not bring the old set back", i)
		}
		if left := h.tempFiles(); len(left) > 0 {
			t.Fatalf("iteration %d: temporary files still there after the next write: %v", i, left)
		}
	}
	if _, err := ledger.Load(h.stateDir()); err != nil {
		t.Fatalf("the state does not load after %d kills: %v", iterations, err)
	}
	t.Logf("%d runs killed with SIGKILL: %d before writing, %d in the middle of writing (some files old, some new), "+
		"%d after writing every file, %d finished before the kill; %d left a temporary file, removed by the next write",
		iterations, before, midApply, allWritten, finished, tempsLeft)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestConcurrentExportsNeverInterleave runs two exports of two different
// stores at the same moment, many times. With the state lock, the second
// waits for the first: both succeed, every file ends holding both stores'
// servers, and the state's hash of each file is the file's.
func TestConcurrentExportsNeverInterleave(t *testing.T) {
	iterations := 30
	if testing.Short() {
		iterations = 5
	}
	bin := mcpsyncBinary(t)
	for i := range iterations {
		h := newCrashHome(t, bin)
		write(t, filepath.Join(h.work, "a.hcl"), []byte("server \"from-a\" {\n  command = \"uvx\"\n  args = [\"a\"]\n}\n"))
		write(t, filepath.Join(h.work, "b.hcl"), []byte("server \"from-b\" {\n  command = \"uvx\"\n  args = [\"b\"]\n}\n"))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		outs := make([][]byte, 2)
		for j, store := range []string{"a.hcl", "b.hcl"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.CommandContext(ctx, bin, "--store", filepath.Join(h.work, store), "export", "--to", "all")
				cmd.Dir, cmd.Env = h.project, h.env
				outs[j], errs[j] = cmd.CombinedOutput()
			}()
		}
		wg.Wait()
		cancel()
		for j := range errs {
			if errs[j] != nil {
				t.Fatalf("iteration %d: export %d failed: %v\n%s", i, j, errs[j], outs[j])
			}
		}
		st, err := ledger.Load(h.stateDir())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range h.files[canonical.ScopeUser] {
			data, _ := os.ReadFile(p)
			if !bytes.Contains(data, []byte("from-a")) || !bytes.Contains(data, []byte("from-b")) {
				t.Fatalf("iteration %d: %s lost one export's server:\n%s", i, p, data)
			}
			sum := sha256.Sum256(data)
			if f := st.File(p); f == nil || f.SHA256 != hex.EncodeToString(sum[:]) {
				t.Fatalf("iteration %d: the state's hash of %s is not the file's", i, p)
			}
		}
	}
}
