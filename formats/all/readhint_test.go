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
					base := loc.Path[strings.LastIndexAny(loc.Path, `/\`)+1:] // a Windows path too
					if !h.MayRead(base) {
						t.Errorf("%s on %s reads %s, but says it reads no file named %q", ad.ID(), goos, loc.Path, base)
					}
				}
			}
		}
	}
	if hinted < 15 {
		t.Errorf("only %d clients give a read hint", hinted)
	}
	// and a hint does say no: Cursor reads no settings.json
	cursor, err := NewRegistry(Options{}).Lookup("cursor")
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := cursor.(formats.ReadHinter); !ok || h.MayRead("settings.json") {
		t.Error("cursor's hint does not rule out settings.json")
	}
}
