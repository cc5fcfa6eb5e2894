package tomledit

import (
	"fmt"
	"slices"
	"strings"
)

// A patch replaces src[start:end] with text; start == end inserts.
type patch struct {
	start, end int
	text       string
	seq        int
}

func (e *editor) add(p patch) {
	p.seq = len(e.patches)
	e.patches = append(e.patches, p)
}

func (e *editor) replace(start, end int, text string) {
	e.add(patch{start: start, end: end, text: text})
}
func (e *editor) del(start, end int) {
	if end > start {
		e.add(patch{start: start, end: end})
	}
}
func (e *editor) insert(at int, text string) { e.add(patch{start: at, end: at, text: text}) }

// applyPatches applies non-overlapping patches. Deletions may overlap each
// other (two definitions that share blank lines); they are merged first. An
// insertion may sit at either end of a deleted or replaced range, never
// inside it.
func applyPatches(src []byte, patches []patch) ([]byte, error) {
	var dels, rest []patch
	for _, p := range patches {
		if p.end > p.start && p.text == "" {
			dels = append(dels, p)
		} else {
			rest = append(rest, p)
		}
	}
	slices.SortFunc(dels, func(a, b patch) int { return a.start - b.start })
	var merged []patch
	for _, d := range dels {
		if n := len(merged); n > 0 && d.start <= merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, d.end)
			continue
		}
		merged = append(merged, d)
	}
	all := append(merged, rest...)
	for i, a := range all {
		for _, b := range all[i+1:] {
			if overlaps(a, b) {
				return nil, fmt.Errorf("two changes overlap at bytes %d-%d and %d-%d", a.start, a.end, b.start, b.end)
			}
		}
	}
	slices.SortStableFunc(all, func(a, b patch) int {
		if a.start != b.start {
			return a.start - b.start
		}
		// At one offset, insertions go first, in the order they were made.
		ai, bi := a.start == a.end, b.start == b.end
		if ai != bi {
			if ai {
				return -1
			}
			return 1
		}
		return a.seq - b.seq
	})
	var b strings.Builder
	b.Grow(len(src) + 256)
	last := 0
	for _, p := range all {
		b.Write(src[last:p.start])
		b.WriteString(p.text)
		last = p.end
	}
	b.Write(src[last:])
	return []byte(b.String()), nil
}

// overlaps reports whether two patches touch the same bytes: two ranges
// that share a byte, or an insertion strictly inside a range.
func overlaps(a, b patch) bool {
	ai, bi := a.start == a.end, b.start == b.end
	switch {
	case ai && bi:
		return false
	case ai:
		return b.start < a.start && a.start < b.end
	case bi:
		return a.start < b.start && b.start < a.end
	}
	return a.start < b.end && b.start < a.end
}
