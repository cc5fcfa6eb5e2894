package yamledit

import (
	"reflect"
	"testing"

	"github.com/mcpsync/mcpsync/formats/internal/handoff"
)

// The read-back of an edit's output takes the Doc verify parsed of it,
// which is what a parse of those bytes gives; it is taken once.
func TestParseTakesVerifiedDoc(t *testing.T) {
	verified = handoff.New[*Doc](2) // nothing left by other tests' edits
	d, err := Parse([]byte("name: cfg\nmcpServers:\n  - name: a\n    command: npx\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.EditList("mcpServers", "name", []Entry{
		{Name: "a", Value: Map{{Key: "name", Value: "a"}, {Key: "command", Value: "uvx"}}},
		{Name: "b", Value: Map{{Key: "name", Value: "b"}, {Key: "url", Value: "https://example.com/mcp"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if verified.Len() == 0 {
		t.Fatal("EditList handed nothing over for its output")
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if verified.Len() != 0 {
		t.Fatal("Parse of the output did not take the Doc handed over")
	}
	fresh, err := Parse(append([]byte(nil), out...))
	if err != nil {
		t.Fatal(err)
	}
	if back == fresh {
		t.Fatal("the second Parse of the same bytes got the same Doc")
	}
	if !reflect.DeepEqual(back.Value, fresh.Value) || !reflect.DeepEqual(back.Root, fresh.Root) || string(back.src) != string(fresh.src) {
		t.Fatalf("the Doc handed over differs from a parse of the same bytes:\n%v\n%v", back.Value, fresh.Value)
	}
}
