package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// FuzzParseConfigPieces: parsed in pieces (cut every few bytes here, so
// that small inputs are cut too), any text gives the very body and
// diagnostics of one whole parse.
func FuzzParseConfigPieces(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.hcl")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint8(40))
		}
	}
	f.Add([]byte(manyServers(6)), uint8(30))
	f.Add([]byte("x = 1\nserver \"a\" {\n  url = \"u\"\n}\nx = 2\nserver \"b\" {\n  url = \"v\"\n}\n"), uint8(8))
	f.Add([]byte("server \"a\" {\n  args = [<<EOT\n}\nserver \"b\" {\nEOT\n  ]\n}\nserver \"c\" {\n}\n"), uint8(10))
	f.Add([]byte("server \"a\" {\n/*\n}\nserver \"b\" {\n*/\n}\nserver \"c\" {\n}\n"), uint8(6))
	f.Add([]byte("server \"a\" {\r\n  url = \"u\"\r\n}\r\nserver \"b\" {\r\n}\r\n"), uint8(5))
	f.Add([]byte("server \"a\" {\n  oauth {\n}\nclient_id = 1\n}\nserver \"b\" {\n}\n"), uint8(5))
	f.Fuzz(func(t *testing.T, src []byte, size uint8) {
		if len(src) > 16<<10 {
			return
		}
		want, wantDiags := hclsyntax.ParseConfig(src, "s.hcl", hcl.InitialPos)
		got, gotDiags := parseConfigIn(src, "s.hcl", 4+int(size))
		if fmt.Sprint(gotDiags) != fmt.Sprint(wantDiags) {
			t.Fatalf("diagnostics %v, whole parse %v", gotDiags, wantDiags)
		}
		if !reflect.DeepEqual(got, want.Body.(*hclsyntax.Body)) {
			t.Fatalf("body differs from a whole parse")
		}
	})
}

// TestParseConfigPiecesCuts: a large store is cut, each piece at a
// server block, and parses to the whole parse's body.
func TestParseConfigPiecesCuts(t *testing.T) {
	src := []byte(plainServers(10000))
	cuts := pieceCuts(src, pieceSize)
	if len(cuts) < 2 {
		t.Fatalf("%d cuts in %d bytes", len(cuts), len(src))
	}
	for _, c := range cuts {
		if !strings.HasPrefix(string(src[c:]), "server \"") || !strings.HasSuffix(strings.TrimRight(string(src[:c]), "\r\n"), "\n}") {
			t.Fatalf("cut at %d: %q", c, src[c-2:c+10])
		}
	}
	want, _ := hclsyntax.ParseConfig(src, "s.hcl", hcl.InitialPos)
	got, diags := parseConfig(src, "s.hcl")
	if len(diags) > 0 || !reflect.DeepEqual(got, want.Body.(*hclsyntax.Body)) {
		t.Fatalf("pieces differ from a whole parse (%v)", diags)
	}
	// The same store with CRLF line ends (saved on Windows) is cut at the
	// same blocks.
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	if n := len(pieceCuts(crlf, pieceSize)); n < len(cuts)/2 {
		t.Fatalf("%d cuts with CRLF line ends, %d without", n, len(cuts))
	}
	want, _ = hclsyntax.ParseConfig(crlf, "s.hcl", hcl.InitialPos)
	if got, diags = parseConfig(crlf, "s.hcl"); len(diags) > 0 || !reflect.DeepEqual(got, want.Body.(*hclsyntax.Body)) {
		t.Fatalf("pieces of the CRLF store differ from a whole parse (%v)", diags)
	}
}

// TestParseConfigPiecesHeredoc: a line "}" and a line starting a word
// inside a heredoc look like a place to cut; the piece before it does not
// parse alone, so the text is parsed whole, to the same body.
func TestParseConfigPiecesHeredoc(t *testing.T) {
	src := []byte(manyServers(40))
	if len(pieceCuts(src, 64)) == 0 {
		t.Fatal("no cut: the test cuts nothing")
	}
	want, _ := hclsyntax.ParseConfig(src, "s.hcl", hcl.InitialPos)
	got, diags := parseConfigIn(src, "s.hcl", 64)
	if len(diags) > 0 || !reflect.DeepEqual(got, want.Body.(*hclsyntax.Body)) {
		t.Fatalf("pieces differ from a whole parse (%v)", diags)
	}
}

// plainServers is a store of n servers as people write them.
func plainServers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "server \"s%05d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg%d\"]\n  env     = { KEY = env(\"KEY\") }\n}\n\n", i, i)
	}
	return b.String()
}

// manyServers is a store of n servers of every kind of value.
func manyServers(n int) string {
	var b strings.Builder
	b.WriteString("# my servers\n\n")
	for i := range n {
		fmt.Fprintf(&b, "server \"s%d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg%d\", <<EOT\nline\n}\nEOT\n  ]\n  env     = { KEY = env(\"KEY\") }\n}\n\n", i, i)
		if i%7 == 0 {
			fmt.Fprintf(&b, "// between\nclient \"c%d\" {\n  include = [\"s%d\"]\n}\n\n", i, i)
		}
	}
	return b.String()
}
