package formatstest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// CorpusResult counts what RunCorpus saw.
type CorpusResult struct {
	Files    int // files read
	Imported int // files that decoded without an error
	Servers  int // servers imported from them
	Warned   int // imported files with at least one warning
	Refused  int // files with an error (each at a line and column)
}

func (r CorpusResult) String() string {
	return fmt.Sprintf("%d files: %d imported (%d servers, %d with warnings), %d refused with a diagnostic at file:line:col, 0 panics",
		r.Files, r.Imported, r.Servers, r.Warned, r.Refused)
}

// RunCorpus decodes every file of dir (../shared/corpus/wild/<client>): none
// may panic; each either imports or yields errors with a line and column;
// each that imports gives itself back byte for byte through Encode. It skips
// the test when dir is absent.
func RunCorpus(t *testing.T, a formats.Adapter, dir string, opts ...Option) CorpusResult {
	t.Helper()
	c := newConfig(opts)
	var res CorpusResult
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Skipf("no corpus at %s (it is in the shared reference material, ../shared, next to the repository)", dir)
	}
	loc := DefaultLocation(a)
	if c.loc != nil {
		loc = *c.loc
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res.Files++
		t.Run(filepath.Base(f), func(t *testing.T) {
			set, diags := decode(t, a, loc, data)
			if len(diags) > 0 {
				t.Logf("%s", FormatDiags(diags))
			}
			if diags.HasErrors() {
				res.Refused++
				return
			}
			res.Imported++
			res.Servers += set.Len()
			if len(diags) > 0 {
				res.Warned++
			}
			if _, skip := c.skip["identity"]; !skip {
				checkIdentity(t, a, loc, data, set)
			}
		})
	}
	t.Logf("%s corpus: %s", a.ID(), res)
	return res
}

// ReadFiles returns the files under dir that match any of patterns (as
// filepath.Glob), by path: none when dir is absent.
func ReadFiles(dir string, patterns ...string) map[string][]byte {
	out := map[string][]byte{}
	for _, pattern := range patterns {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				out[f] = data
			}
		}
	}
	return out
}

// Seeds returns fuzz seeds: the inputs of the golden cases under caseDirs
// and the files of corpusDirs that exist.
func Seeds(caseDirs []string, corpusDirs []string) [][]byte {
	var out [][]byte
	for _, d := range caseDirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.txtar"))
		for _, f := range files {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				continue
			}
			for _, s := range ar.Files {
				if strings.HasPrefix(s.Name, "input") {
					out = append(out, s.Data)
				}
			}
		}
	}
	for _, d := range corpusDirs {
		files, _ := filepath.Glob(filepath.Join(d, "*"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && len(b) <= 64<<10 {
				out = append(out, b)
			}
		}
	}
	return out
}

// FuzzInputs runs CheckInput as a fuzz target for a, seeded with the
// inputs of the golden cases in caseDir and the corpus files of corpusDir;
// inputs over 16 KiB are passed over.
func FuzzInputs(f *testing.F, a formats.Adapter, caseDir, corpusDir string) {
	for _, s := range Seeds([]string{caseDir}, []string{corpusDir}) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return
		}
		CheckInput(t, a, data)
	})
}

// CheckInput is the property a fuzz target checks on any input: Decode and
// Encode never panic; every error is at a line; an input that decodes
// cleanly is given back byte for byte; removing its first server gives a
// file that still decodes, to one server fewer, by cutting bytes only, the
// other servers unchanged; and changing its first server changes no byte
// outside that entry (before the line it starts on, after the line the
// next entry starts on) and no other server.
func CheckInput(t *testing.T, a formats.Adapter, data []byte) {
	loc := DefaultLocation(a)
	set, diags := decode(t, a, loc, data)
	if diags.HasErrors() {
		return
	}
	checkSection(t, a, loc, data, set)
	out, ediags := encode(t, a, loc, data, set, formats.EncodeOptions{OS: Env.OS})
	if !bytes.Equal(out, data) || len(ediags) > 0 {
		t.Fatalf("identity failed (%s)\n--- input\n%q\n--- output\n%q", FormatDiags(ediags), data, out)
	}
	if set.Len() == 0 {
		return
	}
	fewer := canonical.Set{Servers: set.Clone().Servers[1:]}
	out, ediags = encode(t, a, loc, data, fewer, formats.EncodeOptions{OS: Env.OS})
	if ediags.HasErrors() {
		t.Fatalf("removing %q failed: %s", set.Servers[0].Name, FormatDiags(ediags))
	}
	back, bdiags := decode(t, a, loc, out)
	if bdiags.HasErrors() {
		t.Fatalf("after removing %q the file does not decode: %s\n%q", set.Servers[0].Name, FormatDiags(bdiags), out)
	}
	if back.Len() != fewer.Len() {
		t.Fatalf("after removing %q: %d servers, want %d\n%q", set.Servers[0].Name, back.Len(), fewer.Len(), out)
	}
	// Removing an entry only cuts bytes (unless it was the last one: an
	// empty YAML list is written "[]"), and the other entries read back as
	// they were.
	if fewer.Len() > 0 && !isSubsequence(out, data) {
		t.Fatalf("removing %q did more than cut bytes\n--- input\n%q\n--- output\n%q", set.Servers[0].Name, data, out)
	}
	sameOthers(t, a, fewer, back, "")
	checkEditOne(t, a, loc, data, set)
}

// checkSection checks a formats.SectionRemover on any file: a file that
// holds servers has its server map (MissingKeys is 0), and removing the
// keys mcpsync added, however many it is asked to, only cuts bytes, and
// never a server: the file reads back as it did.
func checkSection(t *testing.T, a formats.Adapter, loc formats.Location, data []byte, set canonical.Set) {
	t.Helper()
	sr, ok := a.(formats.SectionRemover)
	if !ok {
		return
	}
	if m := sr.MissingKeys(loc, data); set.Len() > 0 && m != 0 {
		t.Fatalf("MissingKeys = %d for a file that holds %d server(s)\n%q", m, set.Len(), data)
	}
	for n := 1; n <= 3; n++ {
		out, ds := sr.RemoveEmptyKeys(loc, data, n)
		if ds.HasErrors() || bytes.Equal(out, data) {
			continue
		}
		if set.Len() > 0 {
			t.Fatalf("RemoveEmptyKeys(%d) changed a file that holds servers\n--- input\n%q\n--- output\n%q", n, data, out)
		}
		if !isSubsequence(out, data) {
			t.Fatalf("RemoveEmptyKeys(%d) did more than cut bytes\n--- input\n%q\n--- output\n%q", n, data, out)
		}
		back, bdiags := decode(t, a, loc, out)
		if bdiags.HasErrors() || back.Len() != 0 {
			t.Fatalf("after RemoveEmptyKeys(%d) the file reads differently (%s, %d servers)\n%q", n, FormatDiags(bdiags), back.Len(), out)
		}
	}
}

// checkEditOne changes one server (an argument more, or a longer URL) and
// checks that every byte outside that entry stays: the bytes before the
// line the entry starts on, and after the line the next entry starts on.
func checkEditOne(t *testing.T, a formats.Adapter, loc formats.Location, data []byte, set canonical.Set) {
	t.Helper()
	k := set.Servers[0]
	changed := k.Clone()
	switch {
	case k.Transport == canonical.Stdio && k.Command != "":
		changed.Args = append(changed.Args, "fuzz-arg")
	case k.Transport.IsRemote() && k.URL != "":
		changed.URL = strings.TrimSuffix(k.URL, "/") + "/fuzz"
	default:
		return
	}
	want := set.Clone()
	want.Servers[0] = changed
	out, ediags := encode(t, a, loc, data, want, formats.EncodeOptions{OS: Env.OS})
	if ediags.HasErrors() {
		return // refused, nothing written: allowed
	}
	for _, d := range ediags {
		if d.Server == k.Name {
			return // the client cannot hold the change (an SSE server for a client without SSE): warned
		}
	}
	back, bdiags := decode(t, a, loc, out)
	if bdiags.HasErrors() {
		t.Fatalf("after changing %q the file does not decode: %s\n%q", k.Name, FormatDiags(bdiags), out)
	}
	got, ok := back.Get(k.Name)
	if !ok || !slices.Equal(got.Args, changed.Args) || got.URL != changed.URL {
		t.Fatalf("changing %q: it reads back as %+v, want args %q url %q\n%q", k.Name, got, changed.Args, changed.URL, out)
	}
	sameOthers(t, a, canonical.Set{Servers: set.Servers[1:]}, back, k.Name)
	if k.Origin.Line <= 0 {
		return
	}
	start := canonical.LineOffset(data, k.Origin.Line)
	end := len(data)
	next := 0
	for _, s := range set.Servers[1:] {
		if s.Origin.Line > k.Origin.Line && (next == 0 || s.Origin.Line < next) {
			next = s.Origin.Line
		}
	}
	if next > 0 {
		end = lineEnd(data, next)
	}
	prefix, suffix := commonPrefix(data, out), commonSuffix(data, out)
	if prefix > len(data)-suffix {
		return // the change is a pure insertion at one point
	}
	if prefix < start || len(data)-suffix > end {
		t.Fatalf("changing %q (line %d) changed bytes outside its entry: input bytes %d..%d differ, the entry spans %d..%d\n--- input\n%q\n--- output\n%q",
			k.Name, k.Origin.Line, prefix, len(data)-suffix, start, end, data, out)
	}
}

// sameOthers checks that every server of want reads back equal in back,
// but skip.
func sameOthers(t *testing.T, a formats.Adapter, want, back canonical.Set, skip string) {
	t.Helper()
	for _, s := range want.Servers {
		if s.Name == skip {
			continue
		}
		got, ok := back.Get(s.Name)
		if !ok {
			t.Fatalf("%q is gone after editing another entry", s.Name)
		}
		s.Origin, got.Origin = canonical.Pos{}, canonical.Pos{}
		if !canonical.Equal(s, got, a.ID()) {
			t.Fatalf("%q changed after editing another entry:\n%+v\n%+v", s.Name, s, got)
		}
	}
}

func lineEnd(data []byte, line int) int {
	off := canonical.LineOffset(data, line)
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

// isSubsequence reports whether short can be had by cutting bytes out of long.
func isSubsequence(short, long []byte) bool {
	i := 0
	for j := 0; j < len(long) && i < len(short); j++ {
		if long[j] == short[i] {
			i++
		}
	}
	return i == len(short)
}
