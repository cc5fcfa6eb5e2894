package vscode

import (
	"slices"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// withPrompt is a server whose secret VS Code prompts for with PromptInputs.
var withPrompt = canonical.Set{Servers: []canonical.Server{{
	Name: "github", Transport: canonical.Stdio, Command: "npx",
	Env: map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}"},
}}}

func sideKeyRemover(t *testing.T) (formats.Adapter, formats.SideKeyRemover, formats.Location) {
	t.Helper()
	a := Adapter()
	sr, ok := a.(formats.SideKeyRemover)
	if !ok {
		t.Fatal("the VS Code adapter is not a formats.SideKeyRemover")
	}
	return a, sr, formatstest.DefaultLocation(a)
}

// Connect with prompts, then disconnect: the "inputs" array mcpsync added
// is reported as added, and once its last prompt is gone, removing it gives
// the file back byte for byte.
func TestInputsMcpsyncAddedGoWhenEmpty(t *testing.T) {
	a, sr, loc := sideKeyRemover(t)
	for _, before := range []string{
		"{\n  \"servers\": {}\n}\n",
		"{\n  // my servers\n  \"servers\": {\n    \"mine\": {\"command\": \"x\"}\n  }, // keep this\n  \"other\": 1\n}",
		"{\r\n  \"servers\": {}\r\n}\r\n",
	} {
		mine, _ := a.Decode(loc, []byte(before))
		want := mine.Clone()
		want.Servers = append(want.Servers, withPrompt.Servers...)
		connected, ds := a.Encode(loc, []byte(before), want, formats.EncodeOptions{PromptInputs: true})
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		if got := sr.AddedSideKeys(loc, []byte(before), connected); !slices.Equal(got, []string{"inputs"}) {
			t.Fatalf("AddedSideKeys = %q, want [inputs]\n%s", got, connected)
		}
		disconnected, ds := a.Encode(loc, connected, mine, formats.EncodeOptions{PromptInputs: true})
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		out, gone, ds := sr.RemoveEmptySideKeys(loc, disconnected, []string{"inputs"})
		if ds.HasErrors() || !slices.Equal(gone, []string{"inputs"}) || string(out) != before {
			t.Errorf("after disconnecting:\n%s\nremoving the empty inputs gave (gone %q, %v):\n%q\nwant:\n%q", disconnected, gone, ds, out, before)
		}
	}
}

// An "inputs" the file had is never reported as added, and an inputs array
// that holds something (an element, a comment) is not removed.
func TestInputsOfTheUserStay(t *testing.T) {
	a, sr, loc := sideKeyRemover(t)
	own := "{\n  \"servers\": {},\n  \"inputs\": []\n}\n"
	connected, ds := a.Encode(loc, []byte(own), withPrompt, formats.EncodeOptions{PromptInputs: true})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got := sr.AddedSideKeys(loc, []byte(own), connected); len(got) > 0 {
		t.Errorf("AddedSideKeys = %q for a file that had inputs", got)
	}
	for _, data := range []string{
		"{\n  \"servers\": {},\n  \"inputs\": [{\"type\": \"promptString\", \"id\": \"k\"}]\n}\n",
		"{\n  \"servers\": {},\n  \"inputs\": [\n    // later\n  ]\n}\n",
		"{\n  \"servers\": {},\n  \"inputs\": \"oops\"\n}\n",
	} {
		out, gone, _ := sr.RemoveEmptySideKeys(loc, []byte(data), []string{"inputs"})
		if string(out) != data || len(gone) > 0 {
			t.Errorf("RemoveEmptySideKeys changed %q to %q (gone %q)", data, out, gone)
		}
	}
	// A key that is no longer there is gone, and the file stays as it is.
	data := "{\n  \"servers\": {}\n}\n"
	if out, gone, _ := sr.RemoveEmptySideKeys(loc, []byte(data), []string{"inputs"}); string(out) != data || !slices.Equal(gone, []string{"inputs"}) {
		t.Errorf("without inputs: %q, gone %q", out, gone)
	}
}
