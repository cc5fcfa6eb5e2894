package formatstest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// TestUpdateRenamesEditedSection: with UPDATE_GOLDEN=1, a want.edited
// section whose name no longer says how the output ends (.nonl, .crlf) is
// renamed in the file, even when its text is the same.
func TestUpdateRenamesEditedSection(t *testing.T) {
	t.Setenv("UPDATE_GOLDEN", "1")
	a := spec.BuiltinAdapter("cursor", spec.NoHooks{})
	dir := t.TempDir()
	file := filepath.Join(dir, "rename.txtar")
	write := func(ar *txtar.Archive) {
		t.Helper()
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edited := func() *txtar.File {
		t.Helper()
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ar.Files {
			if strings.HasPrefix(ar.Files[i].Name, "want.edited") {
				return &ar.Files[i]
			}
		}
		t.Fatalf("no want.edited section in\n%s", txtar.Format(ar))
		return nil
	}
	write(&txtar.Archive{Files: []txtar.File{
		{Name: "input.nonl.json", Data: []byte("{\"mcpServers\": {}}\n")},
		{Name: "edit.canonical.json", Data: []byte(`{"servers": [{"name": "x", "transport": "stdio", "command": "npx"}]}` + "\n")},
	}})
	formatstest.Run(t, a, dir)
	first := edited()
	if first.Name != "want.edited.nonl.json" {
		t.Fatalf("recorded as %s, want want.edited.nonl.json", first.Name)
	}

	// The same text under the name of an output with a final newline.
	ar, _ := txtar.ParseFile(file)
	for i := range ar.Files {
		if ar.Files[i].Name == first.Name {
			ar.Files[i].Name = "want.edited.json"
		}
	}
	write(ar)
	formatstest.Run(t, a, dir)
	if got := edited(); got.Name != "want.edited.nonl.json" || string(got.Data) != string(first.Data) {
		t.Errorf("after the update the section is %s:\n%s\nwant want.edited.nonl.json:\n%s", got.Name, got.Data, first.Data)
	}
}
