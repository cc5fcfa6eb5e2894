package all

import (
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/formats"
)

// TestMayRead: a client's read hint never says "no" about a file it reads,
// on any OS, with every variable that moves files set; and built-in spec
// clients all give one.
func TestMayRead(t *testing.T) {
	getenv := func(k string) string { return "/env/" + strings.ToLower(k) + "/custom-" + k + ".json" }
	hinted := 0
	for _, ad := range NewRegistry(Options{}).All() {
		h, ok := ad.(formats.ReadHinter)
		if !ok {
			continue
		}
		hinted++
		for _, goos := range []string{"linux", "darwin", "windows"} {
			for _, env := range []formats.Env{
				{Home: "/home/u", ProjectDir: "/p", OS: goos},
				{Home: "/home/u", ProjectDir: "/p", OS: goos, Getenv: getenv},
			} {
				for _, loc := range ad.Locations(env) {
					if !h.MayRead(loc.Path) {
						t.Errorf("%s on %s reads %s, but says it does not", ad.ID(), goos, loc.Path)
					}
				}
			}
		}
	}
	if hinted < 15 {
		t.Errorf("only %d clients give a read hint", hinted)
	}
	// and a hint does say no: Cursor reads no settings.json, nor another
	// client's mcp.json
	cursor, err := NewRegistry(Options{}).Lookup("cursor")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/p/settings.json", "/p/.vscode/mcp.json", `C:\p\.kiro\settings\mcp.json`} {
		if h, ok := cursor.(formats.ReadHinter); !ok || h.MayRead(p) {
			t.Errorf("cursor's hint does not rule out %s", p)
		}
	}
	if h := cursor.(formats.ReadHinter); !h.MayRead(`C:\p\.cursor\mcp.json`) {
		t.Error("cursor's hint rules out its own project file on Windows")
	}
}
