// Package splice applies byte-range edits to a file: replace, insert and
// delete, checked not to overlap, so that editors of TOML and YAML files can
// collect their changes first and write them in one pass.
package splice

import (
	"fmt"
	"slices"
)

// A Patch replaces src[Start:End] with Text; Start == End inserts.
type Patch struct {
	Start, End int
	Text       string
	seq        int
}

// A List collects patches in the order they are made.
type List struct{ patches []Patch }

func (l *List) add(p Patch) {
	p.seq = len(l.patches)
	l.patches = append(l.patches, p)
}

// Replace replaces src[start:end] with text.
func (l *List) Replace(start, end int, text string) { l.add(Patch{Start: start, End: end, Text: text}) }

// Delete removes src[start:end]; an empty range is ignored.
func (l *List) Delete(start, end int) {
	if end > start {
		l.add(Patch{Start: start, End: end})
	}
}

// Insert inserts text at offset at. Insertions at one offset keep the order
// in which they were made.
func (l *List) Insert(at int, text string) { l.add(Patch{Start: at, End: at, Text: text}) }

// Len returns the number of patches.
func (l *List) Len() int { return len(l.patches) }

// Apply returns src with the patches applied. Deletions may overlap each
// other (two definitions that share blank lines) and are merged; any other
// overlap, or an insertion strictly inside a changed range, is an error,
// and nothing is applied.
func (l *List) Apply(src []byte) ([]byte, error) {
	var dels, rest []Patch
	for _, p := range l.patches {
		if p.Start < 0 || p.End > len(src) || p.Start > p.End {
			return nil, fmt.Errorf("change at bytes %d-%d is outside the file", p.Start, p.End)
		}
		if p.End > p.Start && p.Text == "" {
			dels = append(dels, p)
		} else {
			rest = append(rest, p)
		}
	}
	slices.SortFunc(dels, func(a, b Patch) int { return a.Start - b.Start })
	var merged []Patch
	for _, d := range dels {
		if n := len(merged); n > 0 && d.Start <= merged[n-1].End {
			merged[n-1].End = max(merged[n-1].End, d.End)
			continue
		}
		merged = append(merged, d)
	}
	all := append(merged, rest...)
	slices.SortStableFunc(all, func(a, b Patch) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		ai, bi := a.Start == a.End, b.Start == b.End
		if ai != bi {
			if ai {
				return -1
			}
			return 1
		}
		return a.seq - b.seq
	})
	// One sweep in that order finds any overlap (a check of every pair
	// made a file of n entries cost n²): every range seen so far starts at
	// or before this patch, so it overlaps one of them exactly when it
	// starts before the furthest end among them (an insertion at a range's
	// own start sorts before it, and does not overlap it).
	var reach *Patch
	for i := range all {
		p := &all[i]
		if reach != nil && overlaps(*reach, *p) {
			return nil, fmt.Errorf("two changes overlap at bytes %d-%d and %d-%d", reach.Start, reach.End, p.Start, p.End)
		}
		if p.End > p.Start && (reach == nil || p.End > reach.End) {
			reach = p
		}
	}
	// The result, sized once: a new file is one patch of all its text.
	size := len(src)
	for _, p := range all {
		size += len(p.Text) - (p.End - p.Start)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, p := range all {
		out = append(out, src[last:p.Start]...)
		out = append(out, p.Text...)
		last = p.End
	}
	return append(out, src[last:]...), nil
}

// overlaps reports whether two patches touch the same bytes: two ranges that
// share a byte, or an insertion strictly inside a range.
func overlaps(a, b Patch) bool {
	ai, bi := a.Start == a.End, b.Start == b.End
	switch {
	case ai && bi:
		return false
	case ai:
		return b.Start < a.Start && a.Start < b.End
	case bi:
		return a.Start < b.Start && b.Start < a.End
	}
	return a.Start < b.End && b.Start < a.End
}

// Patches returns the patches in the order they were made.
func (l *List) Patches() []Patch { return slices.Clone(l.patches) }
