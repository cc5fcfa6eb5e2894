package tomledit

import (
	"reflect"
	"testing"

	"github.com/mcpsync/mcpsync/formats/internal/handoff"
)

// handoffEdit edits a small file and returns its result; verify has then
// handed its decoding over.
func handoffEdit(t *testing.T) []byte {
	t.Helper()
	d, err := Parse([]byte("model = \"o3\"\n\n[mcp_servers.a]\ncommand = \"npx\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.EditSection("mcp_servers", []Entry{
		{Name: "a", Value: Table{{Key: "command", Value: "uvx"}}},
		{Name: "b", Value: Table{{Key: "url", Value: "https://example.com/mcp"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The read-back of an edit's output takes verify's decoding (no second
// decode), which is what a decode of those bytes gives; it is taken once.
func TestParseTakesVerifiedDecoding(t *testing.T) {
	verified = handoff.New[map[string]any](2) // nothing left by other tests (two offers of equal bytes are two takes)
	out := handoffEdit(t)
	var fresh map[string]any
	if err := decode(out, &fresh); err != nil {
		t.Fatal(err)
	}
	handed, ok := verified.Take(out)
	if !ok {
		t.Fatal("EditSection handed nothing over for its output")
	}
	if !reflect.DeepEqual(handed, fresh) {
		t.Fatalf("handed over %v, a decode gives %v", handed, fresh)
	}
	if _, again := verified.Take(out); again {
		t.Fatal("the same decoding was handed over twice: two Docs would share one Root")
	}

	out = handoffEdit(t)
	d, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Root, fresh) {
		t.Fatalf("Parse after the edit: Root %v, want %v", d.Root, fresh)
	}
	if _, left := verified.Take(out); left {
		t.Fatal("Parse did not take the decoding handed over")
	}
	d.Root["model"] = "changed" // the Root is the Doc's own
	d2, err := Parse(out)
	if err != nil || d2.Root["model"] != "o3" {
		t.Fatalf("a second Parse of the same bytes saw another Doc's Root: %v %v", d2.Root["model"], err)
	}
}

// Bytes changed in place after the edit are decoded, not taken from the
// decoding of what they were.
func TestParseDecodesChangedBytes(t *testing.T) {
	verified = handoff.New[map[string]any](2) // nothing left by other tests (two offers of equal bytes are two takes)
	out := handoffEdit(t)
	i := len(out) - len("mcp\"\n")
	copy(out[i:], "MCP")
	d, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	b := d.Root["mcp_servers"].(map[string]any)["b"].(map[string]any)
	if b["url"] != "https://example.com/MCP" {
		t.Fatalf("url %v: Parse used the decoding of the bytes before they changed", b["url"])
	}
	verified.Take(handoffEdit(t)) // leave nothing behind for other tests
	verified.Take(out)
}
