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
	"unicode/utf8"

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
//
// The lines are numbered here, from the lists, rather than by sergi's
// DiffLinesToRunes and DiffCharsToLines, which join every line into one
// text, cut it up again, and join each diff's lines back into a text that
// was then cut up a third time: for a file of 10,000 servers that was
// most of the diff. The diff is sergi's own, on the same runes
// (FuzzLineOps): only its equality of runes matters, which any one-to-one
// numbering keeps. A side with no lines is all insertions or deletions,
// as sergi makes it, without numbering the other side's lines at all.
func lineOps(oldLines, newLines []string) []lineOp {
	return deletionsFirst(matchLines(oldLines, newLines))
}

// matchLines is lineOps before deletionsFirst: sergi's matching.
func matchLines(oldLines, newLines []string) []lineOp {
	switch {
	case len(oldLines) == 0:
		return sameKind(opInsert, newLines)
	case len(newLines) == 0:
		return sameKind(opDelete, oldLines)
	}
	numbers := make(map[string]rune, len(oldLines)+len(newLines))
	var lines []string // by number
	runes := func(ls []string) []rune {
		out := make([]rune, len(ls))
		for i, l := range ls {
			r, ok := numbers[l]
			if !ok {
				r = lineRune(len(lines))
				numbers[l] = r
				lines = append(lines, l)
			}
			out[i] = r
		}
		return out
	}
	a, b := runes(oldLines), runes(newLines)
	if len(lines) > maxLines {
		// More distinct lines than runes: every old line out and every
		// new one in, a diff that still applies.
		return append(sameKind(opDelete, oldLines), sameKind(opInsert, newLines)...)
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // an exact minimal diff; config files are small
	ops := make([]lineOp, 0, len(oldLines)+len(newLines))
	for _, d := range dmp.DiffMainRunes(a, b, false) {
		kind := opEqual
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = opDelete
		case diffmatchpatch.DiffInsert:
			kind = opInsert
		}
		for _, r := range d.Text {
			ops = append(ops, lineOp{kind, lines[runeLine(r)]})
		}
	}
	return ops
}

// deletionsFirst puts, within each run of changes, every deletion before
// the insertions, as diff -u prints them; sergi may interleave them.
func deletionsFirst(ops []lineOp) []lineOp {
	for i := 0; i < len(ops); {
		if ops[i].kind == opEqual {
			i++
			continue
		}
		j := i
		ordered, inserted := true, false // no deletion after an insertion yet
		for j < len(ops) && ops[j].kind != opEqual {
			inserted = inserted || ops[j].kind == opInsert
			ordered = ordered && !(inserted && ops[j].kind == opDelete)
			j++
		}
		if ordered {
			i = j // mostly so: a run of one kind, or sergi's own order
			continue
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

// sameKind is every line as one kind of change.
func sameKind(kind opKind, lines []string) []lineOp {
	ops := make([]lineOp, len(lines))
	for i, l := range lines {
		ops[i] = lineOp{kind, l}
	}
	return ops
}

// lineRune is the rune that stands for line number n: n itself below the
// surrogates, which are not runes a string can hold (sergi turns its
// diffs into strings), and shifted past them above. runeLine undoes it.
// maxLines (1,112,064) distinct lines is the most a diff can number.
func lineRune(n int) rune {
	if n >= surrogates {
		n += surrogatesLen
	}
	return rune(n)
}

func runeLine(r rune) int {
	if r >= surrogates+surrogatesLen {
		return int(r) - surrogatesLen
	}
	return int(r)
}

const (
	surrogates    = 0xD800
	surrogatesLen = 0xE000 - 0xD800
	maxLines      = utf8.MaxRune + 1 - surrogatesLen
)

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
	// Room for every line shown and a header per hunk: a new file of
	// 10,000 servers grew the text two dozen times, copying it each time.
	size := 0
	for _, s := range spans {
		size += 32
		for _, op := range ops[s.start:s.end] {
			size += 1 + len(op.text)
		}
	}
	b.Grow(size)
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
			b.WriteByte(byte(op.kind))
			if opts.Mask != nil {
				// The masked body, then the line's own ending: the two
				// joined into one string first were a tenth of a masked
				// diff (BenchmarkDiffMaskedX200).
				body := trimLineEnd(text)
				b.WriteString(opts.Mask(body))
				b.WriteString(text[len(body):])
			} else {
				b.WriteString(text)
			}
			if !strings.HasSuffix(text, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
}

// trimLineEnd is text without the carriage returns and line feeds it
// ends in: strings.TrimRight(text, "\r\n"), which makes a set of its
// cutset's bytes for every call (6 % of a masked diff's samples).
func trimLineEnd(text string) string {
	end := len(text)
	for end > 0 && (text[end-1] == '\n' || text[end-1] == '\r') {
		end--
	}
	return text[:end]
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
