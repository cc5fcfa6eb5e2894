package engine_test

// Speed goals, each held as a ratio measured in the same run:
//
//   - x-naive: an engine call against naiveExport, a program written here
//     that reads the same servers as JSON and writes the same five project
//     files with no checks, no merge, no backup: the floor;
//   - x-fresh: a no-op export, a diff or a no-op sync against a fresh
//     export of the same servers (the no-op must cost less);
//   - x-from-1000 (BenchmarkScaling): the cost at 10,000 servers against
//     the cost at 1,000 (linear is 10×).
//
// Every timed benchmark runs under the collector settings the mcpsync
// process runs with (productGC): Go's default collects a 100-server export
// every few hundred KB, which the command never does, and doubled what the
// engine call cost at that size.
//
// go test ./engine -run '^$' -bench . -benchtime 3x
// A goal missed is logged ("goal missed"); MCPSYNC_BENCH_STRICT=1 makes it
// fail the benchmark. Never a test: a timed test is noise.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
	"github.com/mcpsync/mcpsync/internal/gctune"
	"github.com/mcpsync/mcpsync/internal/xdg"
	"github.com/mcpsync/mcpsync/paste"
	"github.com/mcpsync/mcpsync/store"
)

// fiveClients are the five whose project files the peers write too.
var fiveClients = []string{"claude-code", "cursor", "vscode", "codex", "opencode"}

// benchServers is n servers: stdio with an env reference, http with a
// header reference, sse, in turn.
func benchServers(n int) []canonical.Server {
	out := make([]canonical.Server, n)
	for i := range out {
		switch i % 3 {
		case 0:
			out[i] = canonical.Server{Name: fmt.Sprintf("fs-%05d", i), Transport: canonical.Stdio, Command: "npx",
				Args: []string{"-y", "@modelcontextprotocol/server-filesystem", fmt.Sprintf("/srv/%d", i)},
				Env:  map[string]string{"API_KEY": "${API_KEY}"}}
		case 1:
			out[i] = canonical.Server{Name: fmt.Sprintf("remote-%05d", i), Transport: canonical.HTTP,
				URL: fmt.Sprintf("https://mcp%d.example.com/mcp", i), Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}}
		default:
			out[i] = canonical.Server{Name: fmt.Sprintf("sse-%05d", i), Transport: canonical.SSE, URL: fmt.Sprintf("https://mcp%d.example.com/sse", i)}
		}
	}
	return out
}

// storeHCL is the servers as a project's mcpsync.hcl.
func storeHCL(servers []canonical.Server) string {
	var b strings.Builder
	for _, s := range servers {
		fmt.Fprintf(&b, "server %q {\n", s.Name)
		switch s.Transport {
		case canonical.Stdio:
			fmt.Fprintf(&b, "  command = %q\n  args    = [", s.Command)
			for i, a := range s.Args {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q", a)
			}
			b.WriteString("]\n  env     = { API_KEY = env(\"API_KEY\") }\n")
		case canonical.HTTP:
			fmt.Fprintf(&b, "  url     = %q\n  headers = { Authorization = \"Bearer ${env(\"TOKEN\")}\" }\n", s.URL)
		default:
			fmt.Fprintf(&b, "  url       = %q\n  transport = \"sse\"\n", s.URL)
		}
		b.WriteString("}\n\n")
	}
	return b.String()
}

// project is a temporary home with a git project holding a store of n
// servers, and an engine started in the project.
type project struct {
	tb        testing.TB
	home, dir string
	e         *engine.Engine
	servers   []canonical.Server
}

func newProject(tb testing.TB, n int) *project {
	tb.Helper()
	home := tb.TempDir()
	dir := filepath.Join(home, "proj")
	p := &project{tb: tb, home: home, dir: dir, servers: benchServers(n)}
	write(filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(filepath.Join(dir, "mcpsync.hcl"), storeHCL(p.servers))
	p.e = p.engine()
	// Read the store once, as any earlier run would have: the runs timed
	// are the ones after the store was written (BenchmarkStoreLoad times
	// the first read of a store just edited).
	if _, _, err := p.e.OpenStore(canonical.ScopeProject); err != nil {
		tb.Fatal(err)
	}
	// The runs timed are each a process of their own, which reads the
	// parse cache and holds no syntax tree of the store.
	store.ForgetParsed()
	return p
}

// engine is a new engine, as a new process would have: nothing cached.
func (p *project) engine() *engine.Engine {
	env := map[string]string{
		"HOME": p.home, "XDG_CONFIG_HOME": filepath.Join(p.home, ".config"),
		"XDG_STATE_HOME": filepath.Join(p.home, ".local", "state"), "XDG_CACHE_HOME": filepath.Join(p.home, ".cache"),
		"API_KEY": "k", "TOKEN": "t",
	}
	getenv := func(k string) string { return env[k] }
	return engine.New(engine.Env{Dirs: xdg.Resolve(getenv), Cwd: p.dir, GOOS: runtime.GOOS, Getenv: getenv,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
}

// clean removes every client file and mcpsync's state: the next export is
// a fresh one.
func (p *project) clean() {
	for _, rel := range []string{".mcp.json", ".cursor", ".vscode", ".codex", "opencode.json", ".gemini", ".amazonq", ".kiro", ".roo",
		".windsurf", ".continue", ".zed", ".goose", ".amp", ".qwen", ".github", ".crush.json", ".junie", ".trae"} {
		os.RemoveAll(filepath.Join(p.dir, rel))
	}
	os.RemoveAll(filepath.Join(p.home, ".local", "state"))
	// The parsed store stays: a fresh export is the first one to these
	// clients, not the first read of a store just edited (that costs one
	// HCL parse more; BenchmarkStoreLoad measures it).
	entries, _ := os.ReadDir(filepath.Join(p.home, ".cache", "mcpsync"))
	for _, e := range entries {
		if e.Name() != "parsed" {
			os.RemoveAll(filepath.Join(p.home, ".cache", "mcpsync", e.Name()))
		}
	}
}

func (p *project) export(clients []string, dryRun bool) *engine.ExportRun {
	return p.exportWith(clients, engine.ExportOptions{DryRun: dryRun})
}

// exportWith plans an export to clients with o (To, Scope and Force set
// here).
func (p *project) exportWith(clients []string, o engine.ExportOptions) *engine.ExportRun {
	o.To, o.Scope, o.Force = clients, canonical.ScopeProject, true
	run, err := p.engine().Export(o)
	if err != nil {
		p.tb.Fatal(err)
	}
	if err := run.Plan.Err(); err != nil {
		p.tb.Fatal(err)
	}
	return run
}

// exportApply is 'mcpsync export': planned to be written, not shown
// (WriteOnly), and written.
func (p *project) exportApply(clients []string) int {
	run := p.exportWith(clients, engine.ExportOptions{WriteOnly: true})
	defer run.Close()
	if _, err := run.Apply(); err != nil {
		p.tb.Fatal(err)
	}
	return len(run.Plan.Changes())
}

// naiveExport is the floor: read the servers as JSON, write the five
// project files in their clients' shapes, nothing else. With durable,
// each file is written as any tool that must not lose a file on a crash
// writes it (and as mcpsync does): a temporary file beside it, synced,
// renamed over it, and its directory synced; the rest is the same.
func naiveExport(tb testing.TB, src, dir string, durable bool) {
	data, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	var in struct {
		Servers []canonical.Server `json:"servers"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		tb.Fatal(err)
	}
	type entry struct {
		Type    string            `json:"type,omitempty"`
		Command string            `json:"command,omitempty"`
		Args    []string          `json:"args,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		URL     string            `json:"url,omitempty"`
		Headers map[string]string `json:"headers,omitempty"`
	}
	claude, vscode, opencode := map[string]entry{}, map[string]entry{}, map[string]any{}
	var codex strings.Builder
	for _, s := range in.Servers {
		e := entry{Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers}
		if s.Transport.IsRemote() {
			e.Type = string(s.Transport)
		}
		claude[s.Name] = e
		vscode[s.Name] = e
		if s.Transport == canonical.Stdio {
			opencode[s.Name] = map[string]any{"type": "local", "command": append([]string{s.Command}, s.Args...), "environment": s.Env}
			fmt.Fprintf(&codex, "[mcp_servers.%q]\ncommand = %q\nargs = %q\n\n", s.Name, s.Command, s.Args)
		} else {
			opencode[s.Name] = map[string]any{"type": "remote", "url": s.URL, "headers": s.Headers}
			fmt.Fprintf(&codex, "[mcp_servers.%q]\nurl = %q\n\n", s.Name, s.URL)
		}
	}
	put := func(rel string, v any) {
		path := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(path), 0o755)
		var data []byte
		if s, ok := v.(string); ok {
			data = []byte(s)
		} else if data, err = json.MarshalIndent(v, "", "  "); err != nil {
			tb.Fatal(err)
		}
		if !durable {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				tb.Fatal(err)
			}
			return
		}
		if err := durableWrite(path, data); err != nil {
			tb.Fatal(err)
		}
	}
	put(".mcp.json", map[string]any{"mcpServers": claude})
	put(".cursor/mcp.json", map[string]any{"mcpServers": claude})
	put(".vscode/mcp.json", map[string]any{"servers": vscode})
	put("opencode.json", map[string]any{"$schema": "https://opencode.ai/config.json", "mcp": opencode})
	put(".codex/config.toml", codex.String())
}

// durableWrite replaces path with data: temporary file, fsync, rename,
// fsync of the directory.
func durableWrite(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".naive-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// naive returns a function that runs naiveExport on the project's servers
// into a directory of its own.
func (p *project) naive(durable bool) func() {
	src := filepath.Join(p.home, "servers.json")
	data, _ := json.Marshal(map[string]any{"servers": p.servers})
	write(src, string(data))
	out := filepath.Join(p.home, "naive")
	return func() { naiveExport(p.tb, src, out, durable) }
}

// productGC sets the collector as the mcpsync process sets it
// (internal/gctune, which main applies) until the benchmark ends.
func productGC(b *testing.B) { b.Cleanup(gctune.Apply(os.LookupEnv)) }

// timed runs op b.N times, each after setup (untimed), and returns the mean.
func timed(b *testing.B, setup, op func()) time.Duration {
	var total time.Duration
	for range b.N {
		if setup != nil {
			setup()
		}
		t := time.Now()
		op()
		total += time.Since(t)
	}
	return total / time.Duration(b.N)
}

// allocsOf is how many heap allocations f makes (a fresh export's, for
// one: the figure the changes that spare allocations are measured by).
func allocsOf(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// goal reports ratio as metric and says when it is above max: the goal
// is missed (benchgoal.Ratio).
func goal(b *testing.B, metric string, ratio, max float64) {
	b.Helper()
	benchgoal.Ratio(b, metric, ratio, max)
}

var benchSizes = []int{10, 100, 1000, 10000}

// BenchmarkExport: fresh, no-op and diff (dry run with the diff text) to
// five clients and to every client, at each size. x-naive holds the
// five-client fresh export within 3× of the floor at 50 servers and more;
// x-fresh holds the no-op and the diff under the fresh export's cost.
func BenchmarkExport(b *testing.B) {
	productGC(b)
	// Every client by name: "all" means the clients detected here, and a
	// fresh export starts with none of their folders.
	var all []string
	for _, ad := range newProject(b, 0).e.Registry().All() {
		all = append(all, ad.ID())
	}
	for _, n := range benchSizes {
		for _, clients := range [][]string{fiveClients, all} {
			label := fmt.Sprintf("servers=%d/clients=%d", n, len(clients))
			b.Run(label, func(b *testing.B) {
				if n == 10000 && testing.Short() {
					b.Skip("10,000 servers: not with -short")
				}
				p := newProject(b, n)
				files := 0
				fresh := timed(b, p.clean, func() { files = p.exportApply(clients) })
				b.ReportMetric(float64(files), "files")
				p.clean()
				b.ReportMetric(float64(allocsOf(func() { p.exportApply(clients) })), "allocs-fresh")
				noop := timed(b, nil, func() {
					if n := p.exportApply(clients); n != 0 {
						b.Fatalf("no-op export changed %d files", n)
					}
				})
				diff := timed(b, nil, func() {
					run := p.export(clients, true)
					_ = run.Plan.Diff(emitters.DiffOptions{Base: p.dir, Mask: run.Plan.SecretMask()})
					run.Close()
				})
				b.ReportMetric(float64(fresh.Microseconds())/1000, "ms-fresh")
				b.ReportMetric(float64(noop.Microseconds())/1000, "ms-noop")
				b.ReportMetric(float64(diff.Microseconds())/1000, "ms-diff")
				goal(b, "noop-x-fresh", float64(noop)/float64(fresh), 1)
				goal(b, "diff-x-fresh", float64(diff)/float64(fresh), 1)
				if len(clients) == 5 {
					naive := timed(b, nil, p.naive(false))
					b.ReportMetric(float64(naive.Microseconds())/1000, "ms-naive")
					max := 3.0
					if n < 50 {
						max = 10 // at 10 servers both are the fixed cost of a run
					}
					goal(b, "x-naive", float64(fresh)/float64(naive), max)
					// The same floor writing each file durably: how much
					// of x-naive is the fsyncs any safe writer pays.
					durable := timed(b, nil, p.naive(true))
					b.ReportMetric(float64(durable.Microseconds())/1000, "ms-naive-durable")
					b.ReportMetric(float64(fresh)/float64(durable), "x-naive-durable")
				}
			})
		}
	}
}

// BenchmarkExportMemory is the heap an export plan holds once planned,
// fresh, to every client: planned to be shown (a dry run) and planned to
// be written (WriteOnly, as 'mcpsync export' plans). Both let each file's
// server sets go once it is planned; the one shown keeps the secret
// values its masked diff needs of them (it kept the sets whole, about
// twice the heap, before the dry run at 10,000 servers was made to hold
// as little). shown-x-written is the first over the second: at most 1.1.
// MiB-peak-live is the largest live heap any collection found during a
// whole export (planned to be written, and written) over the heap before
// it: what the collector's goal, and so the resident memory, grows from.
// It varies by ±10 % with when the collections fall.
func BenchmarkExportMemory(b *testing.B) {
	var all []string
	for _, ad := range newProject(b, 0).e.Registry().All() {
		all = append(all, ad.ID())
	}
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("servers=%d/clients=%d", n, len(all)), func(b *testing.B) {
			if n == 10000 && testing.Short() {
				b.Skip("10,000 servers: not with -short")
			}
			p := newProject(b, n)
			held := func(o engine.ExportOptions) uint64 {
				p.clean()
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				run := p.exportWith(all, o)
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(run)
				run.Close()
				return after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
			}
			var shown, written, peak uint64
			for range b.N {
				shown += held(engine.ExportOptions{DryRun: true})
				written += held(engine.ExportOptions{WriteOnly: true})
				p.clean()
				peak += peakLive(func() { p.exportApply(all) })
			}
			b.ReportMetric(float64(shown)/float64(b.N)/(1<<20), "MiB-shown")
			b.ReportMetric(float64(written)/float64(b.N)/(1<<20), "MiB-written")
			b.ReportMetric(float64(peak)/float64(b.N)/(1<<20), "MiB-peak-live")
			goal(b, "shown-x-written", float64(shown)/float64(written), 1.1)
		})
	}
}

// peakLive runs f and returns the largest live heap a collection found
// while it ran, over the live heap before it. Each collection runs the
// finalizer of a sentinel object, which reads the live heap and sets the
// next sentinel (as internal/gctune does).
func peakLive(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var mu sync.Mutex
	var peak uint64
	running := true
	var arm func()
	arm = func() {
		s := &peakSentinel{}
		runtime.SetFinalizer(s, func(*peakSentinel) {
			mu.Lock()
			defer mu.Unlock()
			live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			metrics.Read(live)
			peak = max(peak, live[0].Value.Uint64())
			if running {
				arm()
			}
		})
	}
	arm()
	f()
	runtime.GC() // the last collection sees f's heap still live, or not: either way, after f
	mu.Lock()
	defer mu.Unlock()
	running = false
	return peak - min(base, peak)
}

// peakSentinel is peakLive's object to be collected: large enough not to
// be a tiny allocation, which shares its block with others.
type peakSentinel struct{ _ [4]uint64 }

// BenchmarkSync is a no-op sync of five clients in step, against a fresh
// export of the same servers: the sync after an earlier one (x-fresh), and
// the first sync after the first export of the servers (first-x-fresh),
// which finds in the cache only what that export kept.
func BenchmarkSync(b *testing.B) {
	productGC(b)
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			if n == 10000 && testing.Short() {
				b.Skip("10,000 servers: not with -short")
			}
			p := newProject(b, n)
			fresh := timed(b, p.clean, func() { p.exportApply(fiveClients) })
			first := timed(b, func() {
				p.clean()
				os.RemoveAll(filepath.Join(p.home, ".cache", "mcpsync")) // the store is parsed again, untimed
				p.exportApply(fiveClients)
			}, p.syncNoop)
			p.clean()
			p.exportApply(fiveClients)
			sync := timed(b, nil, func() { p.syncNoop() })
			b.ReportMetric(float64(sync.Microseconds())/1000, "ms-sync")
			b.ReportMetric(float64(first.Microseconds())/1000, "ms-first-sync")
			goal(b, "x-fresh", float64(sync)/float64(fresh), 1)
			goal(b, "first-x-fresh", float64(first)/float64(fresh), 1)
		})
	}
}

// BenchmarkSyncEdit is the cycle watch runs after a save: one server
// added in Cursor's project file, synced to the store and the other four
// clients (BenchmarkWatchLatency in cmd/mcpsync times the same with the
// watcher, fsnotify and the debounce around it). MB-alloc is what each
// such sync allocates: its collections, at 10,000 servers under the
// product's heap limit, are much of its time.
func BenchmarkSyncEdit(b *testing.B) {
	productGC(b)
	for _, n := range []int{50, 1000, 10000} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			if n == 10000 && testing.Short() {
				b.Skip("10,000 servers: not with -short")
			}
			p := newProject(b, n)
			p.exportApply(fiveClients)
			cursor := filepath.Join(p.dir, ".cursor", "mcp.json")
			i := 0
			edit := func() {
				i++
				data, err := os.ReadFile(cursor)
				if err != nil {
					b.Fatal(err)
				}
				added := fmt.Sprintf(`"mcpServers": {"edited-%d": {"command": "edited", "args": ["%d"]},`, i, i)
				write(cursor, strings.Replace(string(data), `"mcpServers": {`, added, 1))
			}
			var alloc uint64
			d := timed(b, edit, func() {
				var before, after runtime.MemStats // a stop of the world each: microseconds, against a sync's tens of ms
				runtime.ReadMemStats(&before)
				defer func() {
					runtime.ReadMemStats(&after)
					alloc += after.TotalAlloc - before.TotalAlloc
				}()
				run, err := p.engine().Sync(engine.SyncOptions{Scope: canonical.ScopeProject, Only: fiveClients})
				if err != nil {
					b.Fatal(err)
				}
				defer run.Close()
				if len(run.Result.Plan.Changes()) < 4 {
					b.Fatalf("the edit in Cursor changes %d files, want the store and three clients", len(run.Result.Plan.Changes()))
				}
				if _, err := run.Apply(nil); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(d.Microseconds())/1000, "ms-sync-edit")
			b.ReportMetric(float64(alloc)/float64(b.N)/(1<<20), "MB-alloc")
		})
	}
}

func (p *project) syncNoop() {
	run, err := p.engine().Sync(engine.SyncOptions{Scope: canonical.ScopeProject, Only: fiveClients})
	if err != nil {
		p.tb.Fatal(err)
	}
	defer run.Close()
	if n := len(run.Result.Plan.Changes()); n != 0 {
		p.tb.Fatalf("no-op sync changes %d files", n)
	}
	if _, err := run.Apply(nil); err != nil {
		p.tb.Fatal(err)
	}
}

// importCursor imports Cursor's project file after an export: every
// server is the same, nothing changes.
func (p *project) importCursor() {
	run, err := p.engine().Import(engine.ImportOptions{From: "cursor", Scope: canonical.ScopeProject})
	if err != nil {
		p.tb.Fatal(err)
	}
	defer run.Close()
	if len(run.Conflicts) > 0 || run.Changes() > 0 {
		p.tb.Fatalf("import after export: %d conflicts, %d changes", len(run.Conflicts), run.Changes())
	}
	if err := run.Apply(); err != nil {
		p.tb.Fatal(err)
	}
}

// pasteJSON is the servers as a pasted mcpServers snippet (add -).
func pasteJSON(servers []canonical.Server) []byte {
	m := map[string]any{}
	for _, s := range servers {
		if s.Transport == canonical.Stdio {
			m[s.Name] = map[string]any{"command": s.Command, "args": s.Args, "env": s.Env}
		} else {
			e := map[string]any{"type": string(s.Transport), "url": s.URL}
			if s.Headers != nil {
				e["headers"] = s.Headers
			}
			m[s.Name] = e
		}
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": m})
	return data
}

// addPaste is add - into an empty user store.
func (p *project) addPaste(data []byte) {
	set, ds := paste.Parse(data, paste.Options{})
	if ds.HasErrors() {
		p.tb.Fatal(ds.Err())
	}
	run, err := p.engine().Add(engine.AddOptions{Scope: canonical.ScopeUser, Servers: set.Servers})
	if err != nil {
		p.tb.Fatal(err)
	}
	defer run.Close()
	if _, err := run.Apply(); err != nil {
		p.tb.Fatal(err)
	}
}

func (p *project) convert(data []byte) {
	c, err := p.engine().Convert(engine.ConvertOptions{From: "cursor", To: "codex", Scope: canonical.ScopeProject, Data: data, Name: "mcp.json"})
	if err != nil || c.Diags.HasErrors() {
		p.tb.Fatal(err, c.Diags.Err())
	}
}

// BenchmarkVerbs: import, add - and convert at each size.
func BenchmarkVerbs(b *testing.B) {
	productGC(b)
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			if n == 10000 && testing.Short() {
				b.Skip("10,000 servers: not with -short")
			}
			p := newProject(b, n)
			p.exportApply(fiveClients)
			imp := timed(b, nil, p.importCursor)
			data := pasteJSON(p.servers)
			userStore := filepath.Join(p.home, ".config", "mcpsync", "mcpsync.hcl")
			add := timed(b, func() { os.Remove(userStore) }, func() { p.addPaste(data) })
			cursor, err := os.ReadFile(filepath.Join(p.dir, ".cursor", "mcp.json"))
			if err != nil {
				b.Fatal(err)
			}
			conv := timed(b, nil, func() { p.convert(cursor) })
			b.ReportMetric(float64(imp.Microseconds())/1000, "ms-import")
			b.ReportMetric(float64(add.Microseconds())/1000, "ms-add")
			b.ReportMetric(float64(conv.Microseconds())/1000, "ms-convert")
		})
	}
}

// BenchmarkScaling holds linear cost: each verb at 10,000 servers costs
// at most 11× what it costs at 1,000 (10× is linear; 1× of noise).
func BenchmarkScaling(b *testing.B) {
	if testing.Short() {
		b.Skip("10,000 servers: not with -short")
	}
	productGC(b)
	small, large := newProject(b, 1000), newProject(b, 10000)
	type verb struct {
		name string
		prep func(p *project) (setup, op func())
	}
	verbs := []verb{
		{"export", func(p *project) (func(), func()) { return p.clean, func() { p.exportApply(fiveClients) } }},
		{"noop-export", func(p *project) (func(), func()) {
			p.clean()
			p.exportApply(fiveClients)
			return nil, func() { p.exportApply(fiveClients) }
		}},
		{"diff", func(p *project) (func(), func()) {
			return nil, func() {
				run := p.export(fiveClients, true)
				_ = run.Plan.Diff(emitters.DiffOptions{Base: p.dir, Mask: run.Plan.SecretMask()})
				run.Close()
			}
		}},
		{"sync", func(p *project) (func(), func()) { return nil, p.syncNoop }},
		{"import", func(p *project) (func(), func()) { return nil, p.importCursor }},
		{"add", func(p *project) (func(), func()) {
			data := pasteJSON(p.servers)
			userStore := filepath.Join(p.home, ".config", "mcpsync", "mcpsync.hcl")
			return func() { os.Remove(userStore) }, func() { p.addPaste(data) }
		}},
		{"convert", func(p *project) (func(), func()) {
			data, _ := os.ReadFile(filepath.Join(p.dir, ".cursor", "mcp.json"))
			return nil, func() { p.convert(data) }
		}},
		{"clients", func(p *project) (func(), func()) {
			return nil, func() {
				if len(p.engine().Clients("", "")) == 0 {
					p.tb.Fatal("no clients")
				}
			}
		}},
	}
	for _, v := range verbs {
		s1, o1 := v.prep(small)
		s2, o2 := v.prep(large)
		t1, t2 := timed(b, s1, o1), timed(b, s2, o2)
		b.ReportMetric(float64(t2.Microseconds())/1000, "ms-10000-"+v.name)
		goal(b, "x-from-1000-"+v.name, float64(t2)/float64(t1), 11)
	}
}

// BenchmarkStoreLoad: loading the store of n servers, parsed (the first
// run after an edit) and from the parse cache (every run after it).
func BenchmarkStoreLoad(b *testing.B) {
	productGC(b)
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			p := newProject(b, n)
			cache := filepath.Join(p.home, ".cache", "mcpsync", "parsed")
			load := func() {
				if _, _, err := p.engine().OpenStore(canonical.ScopeProject); err != nil {
					b.Fatal(err)
				}
			}
			parsed := timed(b, func() { os.RemoveAll(cache) }, load)
			cached := timed(b, nil, load)
			b.ReportMetric(float64(parsed.Microseconds())/1000, "ms-parse")
			b.ReportMetric(float64(cached.Microseconds())/1000, "ms-cached")
			goal(b, "cached-x-parse", float64(cached)/float64(parsed), 1)
		})
	}
}

// BenchmarkStoreEdit: switching one server off and on again (disable,
// enable) in a store of n servers that the runs before it read, against
// the first read of that store after an edit (a parse): edit-x-parse at
// most 2 at 1,000 servers and more. An edit parses the blocks it changes,
// writes the store and reads back only the changed text (0.4 at 10,000
// servers); it was 6.4 when it parsed the whole store three times.
func BenchmarkStoreEdit(b *testing.B) {
	productGC(b)
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			if n == 10000 && testing.Short() {
				b.Skip("10,000 servers: not with -short")
			}
			p := newProject(b, n)
			name := p.servers[0].Name
			on := false
			edit := func() {
				run, err := p.engine().Switch(engine.SwitchOptions{On: on, Scope: canonical.ScopeProject, Names: []string{name}})
				if err != nil {
					b.Fatal(err)
				}
				if err := run.Apply(); err != nil {
					b.Fatal(err)
				}
				run.Close()
				on = !on
			}
			edit() // the store as an edit leaves it, read once since
			cache := filepath.Join(p.home, ".cache", "mcpsync", "parsed")
			load := func() {
				if _, _, err := p.engine().OpenStore(canonical.ScopeProject); err != nil {
					b.Fatal(err)
				}
			}
			// Each run a process of its own: none holds the last parse.
			edited := timed(b, store.ForgetParsed, edit)
			parsed := timed(b, func() { os.RemoveAll(cache); store.ForgetParsed() }, load)
			b.ReportMetric(float64(edited.Microseconds())/1000, "ms-edit")
			b.ReportMetric(float64(parsed.Microseconds())/1000, "ms-parse")
			if n >= 1000 {
				goal(b, "edit-x-parse", float64(edited)/float64(parsed), 2)
			}
		})
	}
}
