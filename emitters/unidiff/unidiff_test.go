package unidiff

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

type diffCase struct {
	name     string
	old, new string
	oldAbs   bool // the file does not exist before
	newAbs   bool // the file does not exist after
}

func cases() []diffCase {
	long := func(n int, eol string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "line %d%s", i, eol)
		}
		return b.String()
	}
	return []diffCase{
		{name: "middle", old: "a\nb\nc\nd\ne\nf\ng\n", new: "a\nb\nc\nD\ne\nf\ng\n"},
		{name: "crlf", old: "{\r\n  \"a\": 1\r\n}\r\n", new: "{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}\r\n"},
		{name: "old-no-final-newline", old: "a\nb", new: "a\nb\nc\n"},
		{name: "new-no-final-newline", old: "a\nb\n", new: "a\nc"},
		{name: "both-no-final-newline", old: "{\n  \"x\": 1\n}", new: "{\n  \"x\": 2\n}"},
		{name: "new-file", old: "", new: "{\n  \"mcpServers\": {}\n}\n", oldAbs: true},
		{name: "new-file-no-newline", old: "", new: "{\n  \"mcpServers\": {}\n}", oldAbs: true},
		{name: "deleted-file", old: "{\n}\n", new: "", newAbs: true},
		{name: "empty-to-content", old: "", new: "x\n"},
		{name: "two-hunks", old: long(40, "\n"), new: strings.Replace(strings.Replace(long(40, "\n"), "line 3\n", "three\n", 1), "line 35\n", "", 1)},
		{name: "merged-hunks", old: long(20, "\n"), new: strings.Replace(strings.Replace(long(20, "\n"), "line 5\n", "five\n", 1), "line 11\n", "eleven\n", 1)},
		{name: "crlf-long", old: long(30, "\r\n"), new: strings.Replace(long(30, "\r\n"), "line 15\r\n", "line 15\r\nadded\r\n", 1)},
		{name: "to-empty", old: "a\nb\n", new: ""},
		{name: "at-start-and-end", old: "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", new: "A\nb\nc\nd\ne\nf\ng\nh\ni\nJ"},
	}
}

func (c diffCase) diff() string {
	return Diff(File{Name: "cfg/mcp.json", Data: []byte(c.old), Absent: c.oldAbs, Mode: 0o600},
		File{Name: "cfg/mcp.json", Data: []byte(c.new), Absent: c.newAbs, Mode: 0o600}, Options{})
}

// TestDiffAppliesWithGit proves the diff is a real unified diff: git apply
// (and patch, when installed) turn the old file into the new bytes exactly.
func TestDiffAppliesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: cannot check that the diff applies")
	}
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			d := c.diff()
			for _, tool := range []string{"git", "patch"} {
				dir := t.TempDir()
				file := filepath.Join(dir, "cfg", "mcp.json")
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if !c.oldAbs {
					if err := os.WriteFile(file, []byte(c.old), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				var cmd *exec.Cmd
				if tool == "git" {
					cmd = exec.Command(git, "apply", "--whitespace=nowarn", "-")
				} else {
					p, err := exec.LookPath("patch")
					if err != nil {
						continue
					}
					if c.oldAbs || c.newAbs || c.old == "" {
						continue // patch needs -E and treats empty files differently; git covers these
					}
					cmd = exec.Command(p, "-p1", "--quiet", "--no-backup-if-mismatch")
				}
				cmd.Dir = dir
				cmd.Stdin = strings.NewReader(d)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s rejected the diff: %v\n%s\ndiff:\n%s", tool, err, out, d)
				}
				got, err := os.ReadFile(file)
				if c.newAbs {
					if !os.IsNotExist(err) {
						t.Fatalf("%s: file should be deleted, err=%v", tool, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, []byte(c.new)) {
					t.Fatalf("%s produced %q, want %q\ndiff:\n%s", tool, got, c.new, d)
				}
			}
		})
	}
}

func TestDiffGolden(t *testing.T) {
	got := Diff(File{Name: ".cursor/mcp.json", Data: []byte("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  }\n}")},
		File{Name: ".cursor/mcp.json", Data: []byte("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"y\"}\n  }\n}")}, Options{})
	want := `diff --git a/.cursor/mcp.json b/.cursor/mcp.json
--- a/.cursor/mcp.json
+++ b/.cursor/mcp.json
@@ -1,5 +1,5 @@
 {
   "mcpServers": {
-    "a": {"command": "x"}
+    "a": {"command": "y"}
   }
 }
\ No newline at end of file
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	newFile := Diff(File{Name: "x.json", Absent: true}, File{Name: "x.json", Data: []byte("{}\n"), Mode: 0o600}, Options{})
	wantNew := "diff --git a/x.json b/x.json\nnew file mode 100600\n--- /dev/null\n+++ b/x.json\n@@ -0,0 +1 @@\n+{}\n"
	if newFile != wantNew {
		t.Fatalf("new file:\n%s\nwant:\n%s", newFile, wantNew)
	}
	if d := Diff(File{Name: "x", Data: []byte("a")}, File{Name: "x", Data: []byte("a")}, Options{}); d != "" {
		t.Fatalf("equal files gave a diff: %q", d)
	}
}

func TestDiffMaskKeepsLineEndings(t *testing.T) {
	d := Diff(File{Name: "f", Data: []byte("k: secret\r\n")}, File{Name: "f", Data: []byte("k: other\r\n")},
		Options{Mask: func(s string) string { return strings.ToUpper(s) }})
	if !strings.Contains(d, "-K: SECRET\r\n+K: OTHER\r\n") {
		t.Fatalf("mask not applied or line ending lost: %q", d)
	}
}

func TestTrimLineEnd(t *testing.T) {
	for _, s := range []string{"", "\n", "\r\n", "a", "a\n", "a\r\n", "a\r", "a\n\r\n", "\r\r\n", "a\rb\n", " \t\n", "a\x00\n"} {
		if got, want := trimLineEnd(s), strings.TrimRight(s, "\r\n"); got != want {
			t.Errorf("trimLineEnd(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzDiff checks, for any pair of texts, that applying the diff with a
// strict in-test applier reproduces the new text exactly, that every
// hunk header counts its lines correctly, and that a mask that changes
// nothing leaves the diff as it is.
func FuzzDiff(f *testing.F) {
	for _, c := range cases() {
		f.Add(c.old, c.new)
	}
	f.Add("a\n", "a")
	f.Add("\n\n\n", "\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		if len(old) > 4096 || len(new) > 4096 {
			return
		}
		d := Diff(File{Name: "f", Data: []byte(old)}, File{Name: "f", Data: []byte(new)}, Options{})
		// A mask that changes nothing gives the plain diff: each line's
		// body is cut from its ending and joined to it again, byte for byte.
		same := func(s string) string { return s }
		if m := Diff(File{Name: "f", Data: []byte(old)}, File{Name: "f", Data: []byte(new)}, Options{Mask: same}); m != d {
			t.Fatalf("identity mask changed the diff:\n%q\nwant:\n%q", m, d)
		}
		if old == new {
			if d != "" {
				t.Fatalf("equal texts gave a diff")
			}
			return
		}
		got, err := apply(old, d)
		if err != nil {
			t.Fatalf("diff does not apply: %v\nold=%q new=%q\n%s", err, old, new, d)
		}
		if got != new {
			t.Fatalf("applied to %q, want %q\n%s", got, new, d)
		}
	})
}

// apply is a strict unified-diff applier: context must match exactly and
// hunk counts must be right.
func apply(old, diff string) (string, error) {
	src := splitLines(old)
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	pos := 0 // next unread line of src (0-based)
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
		i++
	}
	for i < len(lines) && lines[i] != "" {
		h := lines[i]
		var os_, oc, ns, nc int
		if _, err := parseHunk(h, &os_, &oc, &ns, &nc); err != nil {
			return "", err
		}
		i++
		start := os_ - 1
		if oc == 0 {
			start = os_
		}
		if start < pos {
			return "", fmt.Errorf("hunk %q goes backwards", h)
		}
		out = append(out, src[pos:start]...)
		pos = start
		var gotOld, gotNew int
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			body := l[1:]
			if i < len(lines) && strings.HasPrefix(lines[i], `\ No newline at end of file`) {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != body {
					return "", fmt.Errorf("line %d: context %q does not match %q", pos+1, body, at(src, pos))
				}
				pos++
				gotOld++
				if l[0] == ' ' {
					out = append(out, body)
					gotNew++
				}
			case '+':
				out = append(out, body)
				gotNew++
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
		}
		if gotOld != oc || gotNew != nc {
			return "", fmt.Errorf("hunk %q counts %d,%d lines, has %d,%d", strings.TrimSpace(h), oc, nc, gotOld, gotNew)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "<end of file>"
}

func parseHunk(h string, os_, oc, ns, nc *int) (bool, error) {
	f := strings.Fields(h)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" {
		return false, fmt.Errorf("bad hunk header %q", h)
	}
	parse := func(s string, start, count *int) error {
		a, b, ok := strings.Cut(s[1:], ",")
		var err error
		if *start, err = strconv.Atoi(a); err != nil {
			return err
		}
		*count = 1
		if ok {
			*count, err = strconv.Atoi(b)
		}
		return err
	}
	if err := parse(f[1], os_, oc); err != nil {
		return false, err
	}
	return true, parse(f[2], ns, nc)
}

// lineOpsSergi is lineOps as it was: sergi's DiffLinesToRunes on the
// joined texts and DiffCharsToLines back, then the lines cut out again.
func lineOpsSergi(oldLines, newLines []string) []lineOp {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	a, b, table := dmp.DiffLinesToRunes(strings.Join(oldLines, ""), strings.Join(newLines, ""))
	var ops []lineOp
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), table) {
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
	return ops
}

// FuzzLineOps holds lineOps to sergi's own line mode (matchLines, before
// deletionsFirst): the same matching of lines for any two texts; and the
// order of each run of changes to the one it had. Lines are drawn from a few, so that texts
// repeat them as configuration files do (closing braces, blank lines).
func FuzzLineOps(f *testing.F) {
	for _, c := range cases() {
		f.Add(c.old, c.new)
	}
	f.Add("a\nb\na\n", "a\na\nb\na\n")
	f.Add("}\n},\n}\n", "},\n}\n},\n}\n")
	f.Add("", "x\ny")
	f.Add("x\ny", "")
	f.Fuzz(func(t *testing.T, old, new string) {
		if len(old) > 4096 || len(new) > 4096 {
			return
		}
		o, n := splitLines(old), splitLines(new)
		got, want := matchLines(o, n), lineOpsSergi(o, n)
		if !slices.Equal(got, want) {
			t.Fatalf("old=%q new=%q:\n got %v\nwant %v", old, new, got, want)
		}
		if got, want := lineOps(o, n), reorderedAsBefore(want); !slices.Equal(got, want) {
			t.Fatalf("old=%q new=%q, deletions first:\n got %v\nwant %v", old, new, got, want)
		}
	})
}

// reorderedAsBefore is deletionsFirst as it was: every run of changes
// split into its deletions and its insertions, whatever its order.
func reorderedAsBefore(ops []lineOp) []lineOp {
	ops = slices.Clone(ops)
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

// TestLineNumbersSkipSurrogates: lines numbered across the surrogates
// (55,296 and more distinct lines) keep runes of their own, so that
// sergi, which turns runes into strings, tells them apart.
func TestLineNumbersSkipSurrogates(t *testing.T) {
	for _, n := range []int{0, 1, surrogates - 1, surrogates, surrogates + 1, 100000, maxLines - 1} {
		r := lineRune(n)
		if !utf8.ValidRune(r) || runeLine(r) != n {
			t.Fatalf("line %d: rune %U (valid %v) reads back as %d", n, r, utf8.ValidRune(r), runeLine(r))
		}
		if s := string(r); []rune(s)[0] != r {
			t.Fatalf("line %d: rune %U does not survive a string", n, r)
		}
	}
	// A file with more distinct lines than that: each of 60,000 lines
	// changed in the middle of the file still diffs line by line.
	var old, new strings.Builder
	for i := range 60000 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i == 59000 {
			new.WriteString("changed\n")
			continue
		}
		fmt.Fprintf(&new, "line %d\n", i)
	}
	d := Diff(File{Name: "f", Data: []byte(old.String())}, File{Name: "f", Data: []byte(new.String())}, Options{})
	if want := "@@ -58998,7 +58998,7 @@\n line 58997\n line 58998\n line 58999\n-line 59000\n+changed\n line 59001\n"; !strings.Contains(d, want) {
		t.Fatalf("diff of one changed line among 60,000:\n%s", d)
	}
}

// BenchmarkLineOps matches the lines of a client file of 10,000 servers
// (five lines each) against a new file (nothing before it) and against
// the same file with one server added in the middle, with lineOps and
// with sergi's line mode as lineOps used it (lineOpsSergi): x-sergi is
// the first's time over the second's.
func BenchmarkLineOps(b *testing.B) {
	var old, added strings.Builder
	for i := range 10000 {
		entry := fmt.Sprintf("    \"server-%05d\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"pkg-%d\"]\n    },\n", i, i)
		old.WriteString(entry)
		added.WriteString(entry)
		if i == 5000 {
			added.WriteString("    \"added\": {\n      \"command\": \"uvx\",\n      \"args\": [\"added\"]\n    },\n")
		}
	}
	for _, c := range []struct{ name, old, new string }{
		{"new-file", "", old.String()},
		{"one-added", old.String(), added.String()},
	} {
		b.Run(c.name, func(b *testing.B) {
			o, n := splitLines(c.old), splitLines(c.new)
			var mine, sergi time.Duration
			for range b.N {
				t0 := time.Now()
				lineOps(o, n)
				t1 := time.Now()
				deletionsFirst(lineOpsSergi(o, n))
				mine, sergi = mine+t1.Sub(t0), sergi+time.Since(t1)
			}
			b.ReportMetric(float64(mine.Microseconds())/1000/float64(b.N), "ms")
			b.ReportMetric(float64(sergi.Microseconds())/1000/float64(b.N), "ms-sergi")
			b.ReportMetric(float64(mine)/float64(sergi), "x-sergi")
		})
	}
}
