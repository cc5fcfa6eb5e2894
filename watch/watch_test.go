package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder runs a Watcher and records each batch.
type recorder struct {
	t       *testing.T
	w       *Watcher
	batches chan Batch
	fn      func(Batch) error
	cancel  context.CancelFunc
	done    chan error
}

const testDebounce = 40 * time.Millisecond

func start(t *testing.T, paths []string, opts Options, fn func(Batch) error) *recorder {
	t.Helper()
	if opts.Debounce == 0 {
		opts.Debounce = testDebounce
	}
	w, err := New(paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &recorder{t: t, w: w, batches: make(chan Batch, 100), fn: fn, cancel: cancel, done: make(chan error, 1)}
	go func() {
		r.done <- w.Run(ctx, func(ctx context.Context, b Batch) error {
			r.batches <- b
			if r.fn != nil {
				return r.fn(b)
			}
			return nil
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-r.done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
		w.Close()
	})
	return r
}

// next waits for the next batch.
func (r *recorder) next() Batch {
	r.t.Helper()
	select {
	case b := <-r.batches:
		return b
	case <-time.After(5 * time.Second):
		r.t.Fatal("no batch within 5s")
	}
	return Batch{}
}

// none checks that no batch comes for a while.
func (r *recorder) none(d time.Duration) {
	r.t.Helper()
	select {
	case b := <-r.batches:
		r.t.Fatalf("unexpected batch %+v", b)
	case <-time.After(d):
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// saveByRename writes the way editors save: a new file, renamed over the old.
func saveByRename(t *testing.T, path, data string) {
	t.Helper()
	tmp := path + ".tmp~"
	write(t, tmp, data)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestRenameStyleSaveIsOneBatch(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp.json")
	write(t, p, "{}")
	r := start(t, []string{p}, Options{}, nil)
	saveByRename(t, p, `{"a": 1}`)
	b := r.next()
	if !slices.Equal(b.Paths, []string{p}) || b.Attempt != 1 {
		t.Errorf("batch %+v", b)
	}
	r.none(3 * testDebounce)
	// the same content saved again is no change
	saveByRename(t, p, `{"a": 1}`)
	os.Chmod(p, 0o644)
	r.none(3 * testDebounce)
}

func TestBurstIsDebounced(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp.json")
	q := filepath.Join(dir, "other.json")
	write(t, p, "{}")
	// a debounce long enough that a loaded machine still writes the whole
	// burst within it
	debounce := 300 * time.Millisecond
	r := start(t, []string{p, q}, Options{Debounce: debounce}, nil)
	for i := range 30 {
		write(t, p, fmt.Sprintf(`{"n": %d}`, i))
	}
	write(t, q, "{}")
	b := r.next()
	if !slices.Equal(b.Paths, []string{p, q}) {
		t.Errorf("batch %+v", b)
	}
	r.none(2 * debounce)
}

func TestMaxWaitBoundsAnEndlessStream(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp.json")
	r := start(t, []string{p}, Options{MaxWait: 4 * testDebounce}, nil)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() { // changes a quarter of the debounce apart, until told to stop
		defer close(stopped)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(testDebounce / 4):
				os.WriteFile(p, []byte(fmt.Sprint(i)), 0o600)
			}
		}
	}()
	b := r.next() // fails unless a batch comes while the changes go on
	close(stop)
	<-stopped
	if !slices.Equal(b.Paths, []string{p}) {
		t.Errorf("batch %+v", b)
	}
}

func TestOwnWritesAreIgnored(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp.json")
	q := filepath.Join(dir, "created.json")
	write(t, p, "{}")
	r := start(t, []string{p, q}, Options{}, nil)
	r.w.Expect(p, []byte(`{"mine": 1}`))
	saveByRename(t, p, `{"mine": 1}`)
	r.w.Expect(q, []byte("new"))
	saveByRename(t, q, "new")
	r.none(4 * testDebounce)
	r.w.Expect(q, nil)
	os.Remove(q)
	r.none(4 * testDebounce)
	// someone else's write right after is seen
	write(t, p, `{"theirs": 1}`)
	if b := r.next(); !slices.Equal(b.Paths, []string{p}) {
		t.Errorf("batch %+v", b)
	}
}

func TestDeleteAndRecreate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp.json")
	write(t, p, "{}")
	r := start(t, []string{p}, Options{}, nil)
	os.Remove(p)
	if b := r.next(); !slices.Equal(b.Paths, []string{p}) {
		t.Errorf("delete: batch %+v", b)
	}
	write(t, p, `{"back": 1}`)
	if b := r.next(); !slices.Equal(b.Paths, []string{p}) {
		t.Errorf("recreate: batch %+v", b)
	}
	// vim's way: rename to a backup, write a new file
	if err := os.Rename(p, p+"~"); err != nil {
		t.Fatal(err)
	}
	write(t, p, `{"vim": 1}`)
	if b := r.next(); !slices.Equal(b.Paths, []string{p}) {
		t.Errorf("vim save: batch %+v", b)
	}
}

func TestDirectoryThatDoesNotExistYet(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, ".config", "opencode", "opencode.jsonc")
	r := start(t, []string{p}, Options{}, nil)
	if got := r.w.Dirs(); !slices.Equal(got, []string{home}) {
		t.Fatalf("watching %v, want the nearest existing ancestor %s", got, home)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p, "{}") // written right after mkdir: found by the rescan on re-arm
	if b := r.next(); !slices.Equal(b.Paths, []string{p}) {
		t.Errorf("batch %+v", b)
	}
	if got := r.w.Dirs(); !slices.Equal(got, []string{filepath.Dir(p)}) {
		t.Errorf("watching %v after mkdir", got)
	}
	saveByRename(t, p, `{"x": 1}`)
	r.next()
	// the directory goes, and comes back
	os.RemoveAll(filepath.Join(home, ".config"))
	r.next()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p, `{"again": 1}`)
	if b := r.next(); !slices.Equal(b.Paths, []string{p}) {
		t.Errorf("batch %+v", b)
	}
}

func TestSymlinkedFile(t *testing.T) {
	home, dotfiles := t.TempDir(), t.TempDir()
	target := filepath.Join(dotfiles, "mcp.json")
	write(t, target, "{}")
	link := filepath.Join(home, "mcp.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks are not available:", err)
	}
	r := start(t, []string{link}, Options{}, nil)
	if got := r.w.Dirs(); !slices.Contains(got, dotfiles) || !slices.Contains(got, home) {
		t.Fatalf("watching %v; want the link's and the target's directories", got)
	}
	saveByRename(t, target, `{"edited in the dotfiles": 1}`)
	if b := r.next(); !slices.Equal(b.Paths, []string{link}) {
		t.Errorf("batch %+v", b)
	}
	r.w.Expect(link, []byte(`{"ours": 1}`))
	saveByRename(t, target, `{"ours": 1}`) // as mcpsync writes through a link
	r.none(3 * testDebounce)
}

func TestNotReadyIsRetriedABoundedNumberOfTimes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp.json")
	var mu sync.Mutex
	ready := false
	var errs []error
	opts := Options{Retries: 2, RetryDelay: testDebounce, OnError: func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}}
	r := start(t, []string{p}, opts, func(b Batch) error {
		mu.Lock()
		defer mu.Unlock()
		if !ready {
			return NotReady(errors.New("unexpected end of JSON input"), p)
		}
		return nil
	})
	saveByRename(t, p, `{"half": `) // one event: an in-place write could make two batches
	for i, want := range []Batch{{Attempt: 1}, {Attempt: 2}, {Attempt: 3, Last: true}} {
		b := r.next()
		if b.Attempt != want.Attempt || b.Last != want.Last || !slices.Equal(b.Paths, []string{p}) {
			t.Errorf("try %d: batch %+v, want attempt %d last %v", i+1, b, want.Attempt, want.Last)
		}
	}
	r.none(4 * testDebounce) // gave up: waits for the next change
	mu.Lock()
	if len(errs) != 1 {
		t.Errorf("OnError got %v, want the one give-up", errs)
	}
	ready = true
	mu.Unlock()
	saveByRename(t, p, `{"half": 1}`)
	if b := r.next(); b.Attempt != 1 {
		t.Errorf("batch %+v", b)
	}
	r.none(3 * testDebounce)
}

func TestKickRunsEveryFile(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	r := start(t, []string{q, p}, Options{}, nil)
	r.w.Kick()
	if b := r.next(); !slices.Equal(b.Paths, []string{p, q}) {
		t.Errorf("batch %+v", b)
	}
}
