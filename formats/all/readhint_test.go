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
					if !h.MayRead(loc.Path, env) {
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
	linux := formats.Env{Home: "/home/u", ProjectDir: "/p", OS: "linux"}
	for _, p := range []string{"/p/settings.json", "/p/.vscode/mcp.json", `C:\p\.kiro\settings\mcp.json`} {
		if h, ok := cursor.(formats.ReadHinter); !ok || h.MayRead(p, linux) {
			t.Errorf("cursor's hint does not rule out %s", p)
		}
	}
	if h := cursor.(formats.ReadHinter); !h.MayRead(`C:\p\.cursor\mcp.json`, formats.Env{OS: "windows"}) {
		t.Error("cursor's hint rules out its own project file on Windows")
	}
	// Gemini CLI reads Cursor's file only where its managed path is moved
	// there; Visual Studio reads .mcp.json only on Windows; Pi reads any
	// mcp.json only where $PI_CODING_AGENT_DIR moves its own.
	reg := NewRegistry(Options{})
	hint := func(id string) formats.ReadHinter {
		ad, err := reg.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		return ad.(formats.ReadHinter)
	}
	moved := linux
	moved.Getenv = func(k string) string { return "/anywhere/" + k }
	for _, c := range []struct {
		id, path string
		env      formats.Env
		want     bool
	}{
		{"gemini", "/p/.cursor/mcp.json", linux, false},
		{"gemini", "/p/.cursor/mcp.json", moved, true},
		{"visual-studio", "/p/.mcp.json", linux, false},
		{"visual-studio", `C:\p\.mcp.json`, formats.Env{OS: "windows"}, true},
		{"pi", "/p/.cursor/mcp.json", linux, false},
		{"pi", "/p/.cursor/mcp.json", moved, true},
		{"pi", "/home/u/.pi/agent/mcp.json", linux, true},
	} {
		if got := hint(c.id).MayRead(c.path, c.env); got != c.want {
			t.Errorf("%s MayRead(%s) = %v, want %v", c.id, c.path, got, c.want)
		}
	}
}
