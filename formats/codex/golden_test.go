package codex

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

var update = flag.Bool("update", os.Getenv("UPDATE_GOLDEN") == "1", "rewrite the want sections of the golden cases")

const caseDir = "../../testdata/clients/codex"

// TestGolden runs every case of testdata/clients/codex: decode, the
// expected diagnostics, an edit, and the properties every edit must have
// (the result decodes without errors to the edit, and encoding it again
// changes nothing).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(caseDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases in %s", caseDir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string][]byte{}
			for _, f := range ar.Files {
				sec[f.Name] = f.Data
			}
			got := map[string][]byte{}
			loc := formats.Location{Client: ID, Scope: canonical.ScopeUser, Path: "config.toml", Format: formats.TOML}
			input, exists := sec["input.toml"]
			if !exists {
				input = nil
			}
			set, ds := Adapter().Decode(loc, input)
			got["want.canonical.json"] = setJSON(set)
			got["want.diags"] = diagText(ds)
			if edit, ok := sec["edit.canonical.json"]; ok {
				var want canonical.Set
				if err := json.Unmarshal(edit, &want); err != nil {
					t.Fatalf("edit.canonical.json: %v", err)
				}
				out, eds := Adapter().Encode(loc, input, want, formats.EncodeOptions{})
				got["want.edited.toml"] = out
				got["want.edit.diags"] = diagText(eds)
				if !eds.HasErrors() {
					checkEdited(t, loc, out, want)
				}
			}
			if *update {
				for name, data := range got {
					setSection(ar, name, data)
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for name, data := range got {
				if w, ok := sec[name]; !ok || !bytes.Equal(w, data) {
					t.Errorf("%s differs (run go test -update and review):\n--- got\n%s\n--- want\n%s", name, data, w)
				}
			}
		})
	}
}

// checkEdited checks the properties of an edit's result.
func checkEdited(t *testing.T, loc formats.Location, out []byte, want canonical.Set) {
	t.Helper()
	set, ds := Adapter().Decode(loc, out)
	if ds.HasErrors() {
		t.Fatalf("the edited file does not decode: %v", ds.Err())
	}
	again, _ := Adapter().Encode(loc, out, want, formats.EncodeOptions{})
	if !bytes.Equal(again, out) {
		t.Fatalf("encoding twice changed the file:\n%s", again)
	}
	same, _ := Adapter().Encode(loc, out, set, formats.EncodeOptions{})
	if !bytes.Equal(same, out) {
		t.Fatalf("Encode(Decode(x)) != x on the edited file:\n%s", same)
	}
}

func setSection(ar *txtar.Archive, name string, data []byte) {
	if len(data) > 0 && data[len(data)-1] != '\n' && name != "want.edited.toml" {
		data = append(data, '\n')
	}
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}

func setJSON(set canonical.Set) []byte {
	if set.Servers == nil {
		set.Servers = []canonical.Server{}
	}
	b, err := json.MarshalIndent(set, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// diagText prints one diagnostic per line: line:col severity [server field] summary.
func diagText(ds canonical.Diagnostics) []byte {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%d:%d %s", d.Line, d.Column, d.Severity)
		if d.Server != "" || d.Field != "" {
			fmt.Fprintf(&b, " [%s %s]", d.Server, d.Field)
		}
		fmt.Fprintf(&b, " %s\n", d.Summary)
	}
	return []byte(b.String())
}
