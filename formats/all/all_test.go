package all

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// TestEveryBuiltinRegistered: a spec dropped into formats/spec/builtin is
// not a client until it has its line in NewRegistry.
func TestEveryBuiltinRegistered(t *testing.T) {
	r := NewRegistry(Options{})
	for _, id := range spec.BuiltinIDs() {
		a, err := r.Lookup(id)
		if err != nil {
			t.Errorf("built-in spec %s is not registered: %v", id, err)
			continue
		}
		if a.DisplayName() == "" || !r.Origin(id).Builtin {
			t.Errorf("%s: display name %q, origin %+v", id, a.DisplayName(), r.Origin(id))
		}
	}
	var prev string
	for _, a := range r.All() {
		if a.ID() < prev {
			t.Errorf("%s is registered after %s: keep the list alphabetical", a.ID(), prev)
		}
		prev = a.ID()
	}
}

// TestRegistryPlugins: plugins load after the built-in clients, may replace
// one, and a broken plugin is a diagnostic that stops nothing else.
func TestRegistryPlugins(t *testing.T) {
	dir := t.TempDir()
	windsurf, _ := spec.BuiltinSource("windsurf")
	// Windsurf Next keeps its own file: a client added by a plugin.
	windsurfNext := strings.NewReplacer(`client "windsurf"`, `client "windsurf-next"`, `"Windsurf"`, `"Windsurf Next"`,
		"/windsurf/", "/windsurf-next/").Replace(string(windsurf))
	cursor, _ := spec.BuiltinSource("cursor")
	myCursor := strings.Replace(string(cursor), `display_name     = "Cursor"`, `display_name     = "My Cursor"`, 1)
	for name, text := range map[string]string{
		"windsurf-next.hcl": windsurfNext,
		"cursor.hcl":        myCursor,
		"broken.hcl":        "client \"broken\" {\n  format = \"json\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRegistry(Options{PluginDir: dir})
	errs := r.Diags.Errors()
	if len(errs) != 1 || errs[0].File != filepath.Join(dir, "broken.hcl") || errs[0].Line != 1 {
		t.Errorf("Diags = %v, want one error in broken.hcl at line 1 (the unclosed block)", r.Diags)
	}
	// replacing a built-in client is said, every time
	if w := r.Diags.Warnings(); len(w) != 1 || !strings.Contains(w[0].Summary, `replaces the built-in client "cursor"`) {
		t.Errorf("warnings = %v, want one naming the replaced built-in client", w)
	}
	ws, err := r.Lookup("windsurf-next")
	if err != nil || ws.DisplayName() != "Windsurf Next" || r.Origin("windsurf-next").File != filepath.Join(dir, "windsurf-next.hcl") {
		t.Errorf("windsurf-next plugin: %v %v", err, r.Origin("windsurf-next"))
	}
	if ws.Locations(formatstest.Env)[0].Path != "/home/user/.codeium/windsurf-next/mcp_config.json" {
		t.Errorf("windsurf-next plugin reads %v", ws.Locations(formatstest.Env))
	}
	if !r.Origin("windsurf").Builtin {
		t.Errorf("adding windsurf-next replaced windsurf: %+v", r.Origin("windsurf"))
	}
	c, _ := r.Lookup("cursor")
	if c.DisplayName() != "My Cursor" || r.Origin("cursor").Builtin {
		t.Errorf("cursor was not replaced by the plugin: %q %+v", c.DisplayName(), r.Origin("cursor"))
	}
	if _, err := r.Lookup("claude-code"); err != nil {
		t.Errorf("a broken plugin stopped a built-in client: %v", err)
	}
}
