package yamledit

import (
	"bytes"
	"testing"

	"github.com/mcpsync/mcpsync/formats/internal/value"
)

// FuzzRemoveEmptySection checks, on any input, that RemoveEmptySection
// only cuts bytes and changes nothing but the section, and the round trip
// that connect then disconnect relies on: a section added to a file that
// had none, then emptied, then removed, leaves the file byte for byte.
func FuzzRemoveEmptySection(f *testing.F) {
	for _, s := range []string{gooseFile, continueFile, "", "theme: dark", "theme: dark\n", "a: 1\r\nb: 2\r\n",
		"# only a comment\n", "extensions: {}\n", "mcpServers: []\n", "x: 1\nextensions: {} # mine\n",
		"x: 1\nextensions:\n  # keep\n", "extensions: ~\n", "0:  #00\n&0: #00\nmcpServers: []", "\xef\xbb\xbfname: x\n", "models:\n  - name: a\n"} {
		f.Add([]byte(s))
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
			out, ok, err := d.RemoveEmptySection(sec.section)
			if err != nil || !ok {
				if !bytes.Equal(out, data) {
					t.Fatalf("%s: not removed, yet the file changed", sec.section)
				}
			} else {
				if !cutsOnly(out, data) {
					t.Fatalf("%s: removal did more than cut bytes:\n%q\n%q", sec.section, data, out)
				}
				nd, err := Parse(out)
				if err != nil {
					t.Fatalf("%s: the file does not parse after the removal: %v", sec.section, err)
				}
				before, _ := d.Value.(map[string]any)
				after, _ := nd.Value.(map[string]any)
				if _, still := after[sec.section]; still || !value.SameOutside(before, after, sec.section) {
					t.Fatalf("%s: the removal changed the file elsewhere", sec.section)
				}
			}
			// The round trip, from a file without the section.
			if k, _ := d.Lookup(sec.section); k != nil || d.Editable() != nil || d.Root != nil && len(d.Root.Content) == 0 {
				continue
			}
			entry := Entry{Name: "fuzz", Value: Map{{Key: "cmd", Value: "uvx"}}}
			if sec.nameKey != "" {
				entry.Value = Map{{Key: "name", Value: "fuzz"}, {Key: "command", Value: "uvx"}}
			}
			edit := func(doc *Doc, want []Entry) ([]byte, error) {
				if sec.nameKey == "" {
					return doc.EditMap(sec.section, want)
				}
				return doc.EditList(sec.section, sec.nameKey, want)
			}
			added, err := edit(d, []Entry{entry})
			if err != nil {
				continue // refused: nothing written
			}
			ad, err := Parse(added)
			if err != nil {
				t.Fatalf("%s: the added section does not parse: %v", sec.section, err)
			}
			emptied, err := edit(ad, nil)
			if err != nil {
				continue
			}
			ed, err := Parse(emptied)
			if err != nil {
				t.Fatalf("%s: the emptied section does not parse: %v", sec.section, err)
			}
			back, ok, err := ed.RemoveEmptySection(sec.section)
			if err != nil || !ok || !bytes.Equal(back, data) {
				t.Fatalf("%s: add, empty, remove did not give the file back (ok %v, %v)\n--- before\n%q\n--- added\n%q\n--- emptied\n%q\n--- after\n%q",
					sec.section, ok, err, data, added, emptied, back)
			}
		}
	})
}

// cutsOnly reports whether out is in (a subsequence of its bytes).
func cutsOnly(out, in []byte) bool {
	i := 0
	for _, c := range out {
		for i < len(in) && in[i] != c {
			i++
		}
		if i == len(in) {
			return false
		}
		i++
	}
	return true
}
