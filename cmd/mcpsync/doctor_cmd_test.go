package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestDoctorScriptCoversEveryClient keeps doctor_broken_clients.txtar
// honest as clients are added: every registered client must have a broken
// user-scope file there.
func TestDoctorScriptCoversEveryClient(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/script/doctor_broken_clients.txtar")
	if err != nil {
		t.Fatal(err)
	}
	work := "/work"
	have := map[string]bool{}
	for _, f := range ar.Files {
		have[filepath.Join(work, f.Name)] = true
	}
	// The environment the scripts run in (main_test.go).
	home := filepath.Join(work, "home")
	vars := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME": filepath.Join(home, ".local", "state"), "APPDATA": filepath.Join(home, "AppData", "Roaming")}
	env := formats.Env{Home: home, ProjectDir: work, OS: "linux", Getenv: func(k string) string { return vars[k] }}
	for _, ad := range all.NewRegistry(all.Options{}).All() {
		var want []string
		covered := false
		for _, loc := range ad.Locations(env) {
			if loc.Scope != canonical.ScopeUser || loc.ReadOnly {
				continue
			}
			want = append(want, strings.TrimPrefix(loc.Path, work+"/"))
			if have[loc.Path] {
				covered = true
			}
		}
		if !covered && len(want) > 0 {
			t.Errorf("client %s has no broken file in doctor_broken_clients.txtar; add one at %s with what doctor should say about it",
				ad.ID(), want[0])
		}
	}
}
