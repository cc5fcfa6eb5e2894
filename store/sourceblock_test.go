package store

import (
	"strings"
	"testing"
)

func TestSourceBlockEdits(t *testing.T) {
	orig := "# my servers\nserver \"a\" {\n  command = \"a\"\n}\n"
	src := Source{Name: "acme", Git: "https://example.com/${x}.git", Ref: "main", Path: "mcp/"}
	added := AppendSourceBlock([]byte(orig), src)
	st, ds := Parse("s.hcl", added)
	if ds.HasErrors() || len(st.Sources) != 1 || st.Sources[0].Git != src.Git || st.Sources[0].Path != "mcp/" {
		t.Fatalf("added block does not read back: %v %+v\n%s", ds, st.Sources, added)
	}
	if !strings.HasPrefix(string(added), orig+"\nsource \"acme\" {\n") {
		t.Errorf("the store's bytes must stay and one blank line separate the block:\n%s", added)
	}
	back, ok := CutSourceBlock(added, "acme")
	if !ok || string(back) != orig {
		t.Errorf("remove after add must give the original bytes back:\n%q", back)
	}
	if _, ok := CutSourceBlock(added, "other"); ok {
		t.Error("removing an unknown source must report false")
	}
	// a block between others: one blank line remains
	mid := "server \"a\" {\n  command = \"a\"\n}\n\nsource \"x\" {\n  git = \"g\"\n}\n\nserver \"b\" {\n  command = \"b\"\n}\n"
	out, _ := CutSourceBlock([]byte(mid), "x")
	if string(out) != "server \"a\" {\n  command = \"a\"\n}\n\nserver \"b\" {\n  command = \"b\"\n}\n" {
		t.Errorf("got %q", out)
	}
	if got := AppendSourceBlock(nil, Source{Name: "n", Git: "g"}); string(got) != "source \"n\" {\n  git = \"g\"\n}\n" {
		t.Errorf("into an empty store: %q", got)
	}
}
