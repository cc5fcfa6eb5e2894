// Package unidiff renders git-style unified diffs that `git apply` and
// `patch` accept, byte for byte: CRLF line endings are kept inside the lines,
// a missing final newline is marked "\ No newline at end of file", and new or
// deleted files get /dev/null and a file-mode line.
//
// The line matching comes from sergi/go-diff in line mode; sergi's own
// PatchToText is not a unified diff (character offsets, %-escaped text), so
// the hunks, headers and context are built here.
package unidiff

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Context is the number of unchanged lines shown around each change, as in
// git and diff -u.
const Context = 3

// File describes one side of a diff. Absent marks a file that does not
// exist on that side (a created or deleted file).
type File struct {
	// Name is the path shown after a/ and b/, relative (git style, without
	// a leading slash).
	Name   string
	Data   []byte
	Absent bool
	// Mode is the file's permission bits; it appears in the "new file mode"
	// and "deleted file mode" lines.
	Mode fs.FileMode
}

// Options change how lines are rendered.
type Options struct {
	// Mask rewrites each changed or context line before it is printed (for
	// example to hide secret values). It must not add or remove newlines.
	// The result is for display: a masked diff no longer applies.
	Mask func(line string) string
}

// Diff returns the git-style unified diff from old to new, or "" when the
// bytes are equal.
func Diff(old, new File, opts Options) string {
	if string(old.Data) == string(new.Data) && old.Absent == new.Absent {
		return ""
	}
	var b strings.Builder
	name := new.Name
	if new.Absent {
		name = old.Name
	}
	fmt.Fprintf(&b, "diff --git a/%s b/%s\n", old.nameOr(name), name)
	switch {
	case old.Absent:
		fmt.Fprintf(&b, "new file mode %s\n", gitMode(new.Mode))
	case new.Absent:
		fmt.Fprintf(&b, "deleted file mode %s\n", gitMode(old.Mode))
	}
	oldLines, newLines := splitLines(string(old.Data)), splitLines(string(new.Data))
	if len(oldLines) == 0 && len(newLines) == 0 {
		return b.String() // an empty file created or deleted: no hunk, as git prints it
	}
	if old.Absent {
		b.WriteString("--- /dev/null\n")
	} else {
		fmt.Fprintf(&b, "--- a/%s\n", old.nameOr(name))
	}
	if new.Absent {
		b.WriteString("+++ /dev/null\n")
	} else {
		fmt.Fprintf(&b, "+++ b/%s\n", name)
	}
	writeHunks(&b, lineOps(oldLines, newLines), opts)
	return b.String()
}

func (f File) nameOr(def string) string {
	if f.Name == "" {
		return def
	}
	return f.Name
}

// gitMode spells a permission the way git does for a regular file.
func gitMode(m fs.FileMode) string {
	if m.Perm() == 0 {
		m = 0o644
	}
	return fmt.Sprintf("100%03o", m.Perm())
}

// splitLines cuts s after every "\n"; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

type lineOp struct {
	kind opKind
	text string // with its line ending, if any
}

// lineOps matches the two line lists with sergi/go-diff's line mode: each
// distinct line becomes one rune, the runes are diffed, and the result is
// expanded back into lines.
func lineOps(oldLines, newLines []string) []lineOp {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // an exact minimal diff; config files are small
	a, b, table := dmp.DiffLinesToRunes(strings.Join(oldLines, ""), strings.Join(newLines, ""))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), table)
	ops := make([]lineOp, 0, len(oldLines)+len(newLines))
	for _, d := range diffs {
		kind := opEqual
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = opDelete
		case diffmatchpatch.DiffInsert:
			kind = opInsert
		}
		for _, l := range splitLines(d.Text) {
			ops = append(ops, lineOp{kind, l})
		}
	}
	// Within a run of changes, print every deletion before the insertions,
	// as diff -u does; sergi may interleave them.
	for i := 0; i < len(ops); {
		if ops[i].kind == opEqual {
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != opEqual {
			j++
		}
		var del, ins []lineOp
		for _, o := range ops[i:j] {
			if o.kind == opDelete {
				del = append(del, o)
			} else {
				ins = append(ins, o)
			}
		}
		copy(ops[i:], append(del, ins...))
		i = j
	}
	return ops
}

// writeHunks groups the changes into hunks with Context lines around them,
// merging hunks whose context would overlap.
func writeHunks(b *strings.Builder, ops []lineOp, opts Options) {
	// The positions of changed lines decide the hunk boundaries.
	type span struct{ start, end int } // ops[start:end]
	var spans []span
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == opEqual {
			continue
		}
		start := max(0, i-Context)
		j := i
		for j < len(ops) {
			if ops[j].kind != opEqual {
				j++
				continue
			}
			// Count the equal run; a run longer than 2*Context ends the hunk.
			k := j
			for k < len(ops) && ops[k].kind == opEqual {
				k++
			}
			if k == len(ops) || k-j > 2*Context {
				break
			}
			j = k
		}
		end := min(len(ops), j+Context)
		spans = append(spans, span{start, end})
		i = j
	}
	// Line numbers at the start of each op.
	oldNo, newNo := make([]int, len(ops)+1), make([]int, len(ops)+1)
	o, n := 1, 1
	for i, op := range ops {
		oldNo[i], newNo[i] = o, n
		if op.kind != opInsert {
			o++
		}
		if op.kind != opDelete {
			n++
		}
	}
	oldNo[len(ops)], newNo[len(ops)] = o, n
	for _, s := range spans {
		var oldCount, newCount int
		for _, op := range ops[s.start:s.end] {
			if op.kind != opInsert {
				oldCount++
			}
			if op.kind != opDelete {
				newCount++
			}
		}
		fmt.Fprintf(b, "@@ -%s +%s @@\n", rangeOf(oldNo[s.start], oldCount), rangeOf(newNo[s.start], newCount))
		for _, op := range ops[s.start:s.end] {
			text := op.text
			if opts.Mask != nil {
				text = maskKeepingEnding(text, opts.Mask)
			}
			b.WriteByte(byte(op.kind))
			b.WriteString(text)
			if !strings.HasSuffix(text, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
}

// rangeOf spells a hunk range: "start,count", with "start" alone for one
// line and the line before the hunk for an empty range, as diff -u does.
func rangeOf(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

func maskKeepingEnding(line string, mask func(string) string) string {
	body := strings.TrimRight(line, "\r\n")
	return mask(body) + line[len(body):]
}
