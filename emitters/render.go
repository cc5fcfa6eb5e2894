package emitters

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// DiffOptions change how a plan is printed.
type DiffOptions struct {
	// Mask rewrites each printed line, to hide secrets (MaskSecrets or
	// Plan.SecretMask); nil prints the bytes as they are, so that the diff
	// applies with git apply.
	Mask func(line string) string
	// Base, when set, prints paths under it relative to it (the project
	// directory); other paths are printed absolute without the leading
	// slash, as git diff --no-index does.
	Base string
}

// Diff returns the git-style unified diff of every changed file, in plan
// order: exactly the bytes Apply would write.
func (p *Plan) Diff(opts DiffOptions) string {
	// The files' diffs are joined once all are made, into a text of their
	// size: a builder they were written to grew itself a dozen times for
	// plan200 (29 files, 1.2 MB), a quarter of the plain diff's time.
	var diffs []string
	_ = p.EachDiff(opts, func(d string) error { // never fails: every diff is kept
		diffs = append(diffs, d)
		return nil
	})
	return strings.Join(diffs, "")
}

// EachDiff calls emit with the diff of each changed file, in plan order
// (Diff is their concatenation), and returns the first error emit returns,
// after which it calls it no more. The diffs are made side by side, a few
// files ahead of the one emitted: a dry run of 10,000 servers to every
// client made thirty files' diffs one after the other and held them all
// in one growing text before printing any (over 1 s of copying alone).
func (p *Plan) EachDiff(opts DiffOptions, emit func(diff string) error) error {
	changes := p.Changes()
	workers := min(len(changes), runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for _, fc := range changes {
			if err := emit(fc.Diff(opts)); err != nil {
				return err
			}
		}
		return nil
	}
	// Each file's diff arrives on its own channel; ahead holds a place for
	// each file being diffed or waiting to be emitted.
	diffs := make([]chan string, len(changes))
	for i := range diffs {
		diffs[i] = make(chan string, 1)
	}
	ahead := make(chan struct{}, 2*workers)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i, fc := range changes {
			select {
			case ahead <- struct{}{}:
			case <-stop:
				return
			}
			go func() { diffs[i] <- fc.Diff(opts) }()
		}
	}()
	for i := range changes {
		d := <-diffs[i]
		<-ahead
		if err := emit(d); err != nil {
			return err
		}
	}
	return nil
}

// Diff returns the file's unified diff, or "" when it does not change.
func (fc *FileChange) Diff(opts DiffOptions) string {
	name := DisplayName(fc.Path, opts.Base)
	return unidiff.Diff(
		unidiff.File{Name: name, Data: fc.Before, Absent: fc.Before == nil, Mode: fc.Mode},
		unidiff.File{Name: name, Data: fc.After, Absent: fc.Kind == Delete, Mode: fc.Mode},
		unidiff.Options{Mask: opts.Mask})
}

// DisplayName is the path shown after a/ and b/ in a diff: relative to
// base when inside it, else absolute without the leading slash (so that
// `git apply --directory=/` or `patch -p1 -d /` can apply it).
func DisplayName(path, base string) string {
	if base != "" {
		if rel, err := filepath.Rel(base, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	p := filepath.ToSlash(path)
	if vol := filepath.VolumeName(path); vol != "" {
		p = strings.TrimPrefix(p, filepath.ToSlash(vol))
	}
	return strings.TrimPrefix(p, "/")
}

// MaskSecrets hides the secret-looking literals on one diff line (see
// secrets.MaskLine): values of keys named like secrets, provider tokens,
// Bearer credentials, credentials in URLs. References (${TOKEN}) are not
// secrets and stay. It is meant for diffs shown to people and logs; a
// masked diff no longer applies. Plan.SecretMask also hides the values it
// knows from the servers, which no single line shows as secret.
func MaskSecrets(line string) string { return secrets.MaskLine(line) }

// SecretMask returns a line masker for this plan's diff: every
// secret-looking literal of every server the plan read or writes (an
// argument after a --token on the line before, a value spanning lines) is
// hidden wherever it appears, then MaskSecrets applies.
func (p *Plan) SecretMask() func(line string) string {
	if p.masksKept {
		// The values each file's sets held, kept as the sets went.
		s := &secrets.Scrubber{}
		for _, fc := range p.Files {
			for _, v := range fc.maskValues {
				s.Add(v)
			}
		}
		return memoLines(s.Line, maxMemoLines)
	}
	var sets []canonical.Set
	for _, fc := range p.Files {
		for _, tp := range fc.Targets {
			if p.setsDropped {
				// Let go after planning (ExportOptions.DropSets): read
				// again from the bytes the diff shows.
				sets = append(sets, tp.decoded(fc.Before), tp.decoded(fc.After))
				continue
			}
			sets = append(sets, tp.Current, tp.Desired, tp.After)
		}
	}
	return memoLines(secrets.ScrubberFor(sets...).Line, maxMemoLines)
}

// maxMemoLines bounds what memoLines keeps: beyond it, lines are masked
// each time (a diff of 10,000 servers in thirty files would otherwise hold
// every distinct line of it).
const maxMemoLines = 1 << 16

// memoLines returns mask, remembering what it made of up to max distinct
// lines. A diff says the same lines over and over (the same server in
// every client's file: plan200's diff is 34,511 lines, 3,011 of them
// different), and masking a line runs a dozen regular expressions: the
// masked diff cost 3.4 times the plain one. mask must give a line the same
// answer every time (a Scrubber does once it is made). Safe for concurrent
// use, as the files' diffs are made side by side: the lines are kept in
// shards, each a map of strings behind a read-write lock, so that two
// diffs seldom wait on each other (behind one mutex the two processors
// here spent a fifth of a masked diff waiting) and a lookup boxes nothing
// (a sync.Map, keyed by interface values, made a string header on the
// heap for each of the 34,511 lookups).
func memoLines(mask func(string) string, max int) func(string) string {
	var memo lineMemo
	var kept atomic.Int64
	return func(line string) string {
		sh := memo.shard(line)
		sh.mu.RLock()
		m, ok := sh.lines[line]
		sh.mu.RUnlock()
		if ok {
			return m
		}
		m = mask(line)
		if kept.Add(1) <= int64(max) {
			sh.mu.Lock()
			if sh.lines == nil {
				sh.lines = make(map[string]string, 64)
			}
			sh.lines[line] = m
			sh.mu.Unlock()
		}
		return m
	}
}

// lineMemo is memoLines' store: lineShards maps, a line's by its length
// and the bytes at both ends and its middle (lines of a diff differ
// there: indent, key, server number), which costs less than hashing the
// line once more.
type lineMemo struct{ shards [lineShards]lineShard }

type lineShard struct {
	mu    sync.RWMutex
	lines map[string]string
	// A shard to a cache line: the locks are written by every lookup.
	_ [64 - unsafe.Sizeof(sync.RWMutex{}) - unsafe.Sizeof(map[string]string(nil))]byte
}

// lineShards is many for two diffs at once: with 16, the two processors
// here met on a shard often enough that its lock (a reader's count kept
// in one word, and a reader parked behind each new line's write) was a
// quarter of what memoLines cost. With 128 a masked diff of plan200 took
// 8.6 against 9.6 ms (BenchmarkDiffMasked200, medians of 12 runs of each
// binary in turn); 1,024 took what 128 did. The shards cost 16 KB a memo.
const lineShards = 256

func (l *lineMemo) shard(line string) *lineShard {
	h := uint(len(line))
	if n := len(line); n > 0 {
		h = h*31 + uint(line[0])
		h = h*31 + uint(line[n/2])
		h = h*31 + uint(line[n-1])
	}
	return &l.shards[h%lineShards]
}

// decoded is what tp's section of data holds, as far as it reads; nothing
// for a file that is not there.
func (tp *TargetPlan) decoded(data []byte) canonical.Set {
	if data == nil {
		return canonical.Set{}
	}
	set, _ := tp.Target.Adapter.Decode(tp.Target.Location, data)
	return set
}
