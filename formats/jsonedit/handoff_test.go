package jsonedit

import (
	"reflect"
	"testing"

	"github.com/tailscale/hujson"

	"github.com/mcpsync/mcpsync/formats/internal/handoff"
)

// A Doc read after its last edit hands its tree to the next Parse of its
// text, which then holds what a parse of that text gives.
func TestHandOverToParse(t *testing.T) {
	parsed = handoff.New[hujson.Value](2) // nothing left by other tests
	d, err := Parse([]byte("{\n  // servers\n  \"mcpServers\": {}\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Append([]string{"mcpServers"}, Field{"a", Object{{"command", "npx"}}}); err != nil {
		t.Fatal(err)
	}
	d.HandOver() // an edit pending: nothing to hand over
	if parsed.Len() != 0 {
		t.Fatal("a Doc with an edit pending handed over its old tree")
	}
	out, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	d.HandOver() // applied but not parsed again: nothing either
	if parsed.Len() != 0 {
		t.Fatal("a Doc not parsed since its last edit handed over a tree")
	}
	d.Root() // parses the text as it is now
	d.HandOver()
	if parsed.Len() != 1 {
		t.Fatal("nothing handed over")
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if parsed.Len() != 0 {
		t.Fatal("Parse of the same text did not take the tree")
	}
	want, err := hujson.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.root, want) || back.style != d.style {
		t.Fatalf("the tree handed over differs from a parse of the text")
	}
	if m := back.Find("mcpServers").Members(); len(m) != 1 || m[0].Name != "a" {
		t.Fatalf("members %v", m)
	}
}
