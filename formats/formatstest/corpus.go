package formatstest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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

// CheckInput is the property a fuzz target checks on any input: Decode and
// Encode never panic; every error is at a line; an input that decodes
// cleanly is given back byte for byte; and removing its first server gives a
// file that still decodes, to one server fewer.
func CheckInput(t *testing.T, a formats.Adapter, data []byte) {
	loc := DefaultLocation(a)
	set, diags := decode(t, a, loc, data)
	if diags.HasErrors() {
		return
	}
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
}
