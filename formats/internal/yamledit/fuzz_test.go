package yamledit

import (
	"bytes"
	"testing"

	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/formats/internal/value"
)

const sharedDir = "../../../../shared"

// seedFiles returns the Continue and Goose corpus files, or nothing when
// the shared directory is absent.
func seedFiles() map[string][]byte {
	return formatstest.ReadFiles(sharedDir, "corpus/wild/continue/*", "corpus/wild/goose/*")
}

// FuzzYAMLEdit checks the editing properties on any input, for both a map
// section (Goose) and a list section (Continue): no panic; an identity edit
// returns the input unchanged; adding a key to one entry keeps every byte
// before and after that entry and everything outside the section.
func FuzzYAMLEdit(f *testing.F) {
	for _, s := range []string{gooseFile, continueFile, "", "extensions: {}\n", "mcpServers: []\n",
		"extensions:\n  a: &x\n    cmd: y\n  b: *x\n", "mcpServers:\n- name: a\n  args: [1, 2] # c\n\r\n",
		"extensions:\n  a:\n    cmd: |\n      x\n\n      y\n    args:\n    - 1\n"} {
		f.Add([]byte(s))
	}
	for _, data := range seedFiles() {
		f.Add(data)
	}
	for _, data := range formatstest.Seeds([]string{"../../../testdata/clients/goose", "../../../testdata/clients/continue"}, nil) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 8<<10 {
			return
		}
		d, err := Parse(data)
		if err != nil {
			return
		}
		for _, sec := range []struct{ section, nameKey string }{{"extensions", ""}, {"mcpServers", "name"}} {
			entries, err := d.Entries(sec.section, sec.nameKey)
			if err != nil {
				continue
			}
			edit := func(want []Entry) ([]byte, error) {
				if sec.nameKey == "" {
					return d.EditMap(sec.section, want)
				}
				return d.EditList(sec.section, sec.nameKey, want)
			}
			same, err := edit(entries)
			if err != nil || !bytes.Equal(same, data) {
				t.Fatalf("%s: identity edit changed the file (%v)", sec.section, err)
			}
			if len(entries) == 0 || d.Editable() != nil {
				continue
			}
			changed := append([]Entry(nil), entries...)
			changed[0].Value = with(changed[0].Value, "fuzz_added_key", "v")
			out, err := edit(changed)
			if err != nil {
				continue // refused, nothing written: allowed
			}
			start, end, ok := d.EntrySpan(sec.section, sec.nameKey, entries[0].Name)
			if ok && (!bytes.HasPrefix(out, data[:start]) || !bytes.HasSuffix(out, data[end:])) {
				t.Fatalf("%s: bytes outside the entry changed:\n%s", sec.section, out)
			}
			nd, err := Parse(out)
			if err != nil {
				t.Fatalf("edited file does not parse: %v", err)
			}
			before, _ := d.Value.(map[string]any)
			after, _ := nd.Value.(map[string]any)
			if !value.SameOutside(before, after, sec.section) {
				t.Fatalf("keys outside %s changed", sec.section)
			}
		}
	})
}

func TestCorpusIdentity(t *testing.T) {
	files := seedFiles()
	if len(files) == 0 {
		t.Skip("shared corpus not found at " + sharedDir + "; nothing to check")
	}
	for name, data := range files {
		d, err := Parse(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, sec := range []struct{ section, nameKey string }{{"extensions", ""}, {"mcpServers", "name"}} {
			entries, err := d.Entries(sec.section, sec.nameKey)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			var out []byte
			if sec.nameKey == "" {
				out, err = d.EditMap(sec.section, entries)
			} else {
				out, err = d.EditList(sec.section, sec.nameKey, entries)
			}
			if err != nil || !bytes.Equal(out, data) {
				t.Errorf("%s: identity edit changed the file (%v)", name, err)
			}
		}
	}
}
