package tomledit

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/formats/internal/value"
)

// sharedDir is /work/shared seen from this package: the public samples and
// the corpus of real config files.
const sharedDir = "../../../../shared"

// seedFiles returns the Codex samples and corpus files, or nothing when the
// shared directory is absent.
func seedFiles() map[string][]byte {
	return formatstest.ReadFiles(sharedDir,
		"reference/client-samples/codex/*/*.toml",
		"reference/client-samples/codex/*/.codex/*.toml",
		"reference/client-samples/codex/rewrite/*",
		"reference/client-samples/codex/project/*",
		"corpus/wild/codex/*")
}

var inlineSeeds = []string{
	"",
	"model = \"x\"",
	"[mcp_servers.a]\ncommand = \"x\"\n",
	"[mcp_servers]\na = { command = \"x\" }\nb.command = \"y\"\nb.args = [\"1\"]\n",
	"mcp_servers = { a = { url = \"https://e\" } }\n",
	"\xef\xbb\xbf[mcp_servers.\"dotted.name\"] # c\r\ncommand = \"true\"\r\n",
	"[mcp_servers.a.env]\nK = \"v\"\n[[mcp_servers.a.list]]\nx = 1\n",
	"[mcp_servers.a]\nargs = [\n  \"a\", # c\n]\n# trailing\n\n[other]\nx = 1979-05-27T07:32:00-08:00\ny = 1979-05-27\n",
}

// FuzzSplice checks the editing properties on any input: no panic; a file
// that decodes comes back unchanged when nothing changes; editing one entry
// keeps every byte before and after that entry's text and everything
// outside the section.
func FuzzSplice(f *testing.F) {
	for _, s := range inlineSeeds {
		f.Add([]byte(s))
	}
	for _, data := range seedFiles() {
		f.Add(data)
	}
	for _, data := range formatstest.Seeds([]string{"../../../testdata/clients/codex"}, nil) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return
		}
		d, err := Parse(data)
		if err != nil {
			return
		}
		sec, isMap := d.Root["mcp_servers"].(map[string]any)
		if _, present := d.Root["mcp_servers"]; present && !isMap {
			return
		}
		names := d.Names("mcp_servers")
		entries := make([]Entry, 0, len(names))
		for _, n := range names {
			m, ok := sec[n].(map[string]any)
			if !ok {
				return
			}
			entries = append(entries, Entry{n, TableFromMap(m, d.Keys("mcp_servers", n))})
		}
		same, err := d.EditSection("mcp_servers", entries)
		if err != nil || !bytes.Equal(same, data) {
			t.Fatalf("identity edit changed the file (err %v)", err)
		}
		if d.Editable() != nil || len(entries) == 0 {
			return
		}
		// Add one key to the first entry.
		changed := append([]Entry(nil), entries...)
		changed[0].Value = append(changed[0].Value.clone(), Field{"fuzz_added_key", "v"})
		out, err := d.EditSection("mcp_servers", changed)
		if err != nil {
			return // refused: nothing is written, which is allowed
		}
		spans := d.Spans("mcp_servers", entries[0].Name)
		if len(spans) == 0 {
			t.Fatalf("edited entry %q has no span", entries[0].Name)
		}
		first, last := spans[0].Start, spans[len(spans)-1].End
		if !bytes.HasPrefix(out, data[:first]) || !bytes.HasSuffix(out, data[last:]) {
			t.Fatalf("bytes outside the entry changed:\n%s", out)
		}
		d2, err := Parse(out)
		if err != nil {
			t.Fatalf("edited file does not parse: %v\n%s", err, out)
		}
		if !value.SameOutside(d.Root, d2.Root, "mcp_servers") {
			t.Fatalf("keys outside mcp_servers changed")
		}
	})
}

// TestCorpusIdentityAndEdit runs the fuzz properties over every real file
// by name, so a failure says which file.
func TestCorpusIdentityAndEdit(t *testing.T) {
	files := seedFiles()
	if len(files) == 0 {
		t.Skip("shared samples not found at " + sharedDir + "; nothing to check")
	}
	for name, data := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			d, err := Parse(data)
			if err != nil {
				var se *SyntaxError
				if !asSyntax(err, &se) || se.Line == 0 {
					t.Fatalf("error without a position: %v", err)
				}
				return
			}
			if err := d.Editable(); err != nil {
				t.Fatalf("cannot lay out a file TOML accepts: %v", err)
			}
			sec, _ := d.Root["mcp_servers"].(map[string]any)
			var entries []Entry
			for _, n := range d.Names("mcp_servers") {
				m, _ := sec[n].(map[string]any)
				entries = append(entries, Entry{n, TableFromMap(m, d.Keys("mcp_servers", n))})
			}
			out, err := d.EditSection("mcp_servers", entries)
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("identity edit changed the file (err %v)", err)
			}
			// Remove every server, then add them back: the other tables
			// must not move.
			empty, err := d.EditSection("mcp_servers", nil)
			if err != nil {
				t.Fatalf("removing every server: %v", err)
			}
			d2, err := Parse(empty)
			if err != nil {
				t.Fatal(err)
			}
			back, err := d2.EditSection("mcp_servers", entries)
			if err != nil {
				t.Fatalf("adding the servers back: %v", err)
			}
			if _, err := Parse(back); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func asSyntax(err error, se **SyntaxError) bool {
	s, ok := err.(*SyntaxError)
	*se = s
	return ok
}

// FuzzRenderKey holds RenderKey to TOML: what it spells reads back, as a
// key, as the key it was given; bare exactly when the key is A-Z, a-z,
// 0-9, _ and - alone, as the strings.Trim it replaced decided.
func FuzzRenderKey(f *testing.F) {
	for _, k := range []string{"", "a", "mcp_servers", "my-server", "a.b", "a b", "ü", `a"b`, "0", "_-", "\x00", "a\nb"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, k string) {
		r := RenderKey(k)
		bare := k != "" && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == ""
		if (r == k) != bare {
			t.Fatalf("RenderKey(%q) = %q; bare should be %v", k, r, bare)
		}
		if !utf8.ValidString(k) {
			return // TOML keys are UTF-8
		}
		var m map[string]any
		if _, err := toml.Decode(r+" = 1\n", &m); err != nil {
			t.Fatalf("RenderKey(%q) = %q does not read back: %v", k, r, err)
		}
		if _, ok := m[k]; !ok || len(m) != 1 {
			t.Fatalf("RenderKey(%q) = %q reads back as %v", k, r, m)
		}
	})
}
