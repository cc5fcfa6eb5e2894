package paste_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/paste"
)

// Pasting a client's own file, said to be that client's, gives what the
// client's adapter decodes: the paste reader takes its wrappers, transport
// spellings, placeholder dialects and timeout units from the adapters, and
// its leniency adds nothing to a file the client itself reads. Every golden
// case of every client whose input its adapter reads without an error
// (testdata/clients/<id>, the files the real clients wrote or read) is
// checked.
func TestPasteReadsEveryClientAsItsAdapter(t *testing.T) {
	reg := all.NewRegistry(all.Options{})
	checked := map[string]int{}
	for _, ad := range reg.All() {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "clients", ad.ID(), "*.txtar"))
		if len(files) == 0 {
			t.Errorf("%s: no golden case in testdata/clients", ad.ID())
		}
		for _, f := range files {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			input, loc, ok := caseInput(ar, ad)
			if !ok {
				continue
			}
			want, ds := ad.Decode(loc, input)
			if ds.HasErrors() || want.Len() == 0 {
				continue // the client refuses the file: paste reads it its own way
			}
			name := ad.ID() + "/" + strings.TrimSuffix(filepath.Base(f), ".txtar")
			got, pds := paste.Parse(input, paste.Options{File: loc.Path, Client: ad.ID()})
			if pds.HasErrors() {
				t.Errorf("%s: paste refuses what %s reads:\n%v", name, ad.ID(), pds)
				continue
			}
			checked[ad.ID()]++
			if diff := compareSets(want, got, ad.ID()); diff != "" {
				t.Errorf("%s: paste reads it otherwise than the adapter:\n%s", name, diff)
			}
		}
	}
	for _, ad := range reg.All() {
		if checked[ad.ID()] == 0 {
			t.Errorf("%s: no golden case was checked (none decodes cleanly at the client's own location)", ad.ID())
		}
	}
}

// caseInput is a golden case's input and the location it is read at: the
// case's own location.json, else the adapter's usual file.
func caseInput(ar *txtar.Archive, ad formats.Adapter) ([]byte, formats.Location, bool) {
	loc := formatstest.DefaultLocation(ad)
	var input []byte
	found := false
	for _, f := range ar.Files {
		switch {
		case f.Name == "location.json":
			var l formats.Location
			if json.Unmarshal(f.Data, &l) != nil {
				return nil, loc, false
			}
			if l.Project != "" || l.Scope == canonical.ScopeLocal {
				return nil, loc, false // a section of a shared file: paste reads the whole file
			}
			if l.Path != "" {
				loc.Path = l.Path
			}
			if l.Scope != "" {
				loc.Scope = l.Scope
			}
			if l.Format != "" {
				loc.Format = l.Format
			}
		case strings.HasPrefix(f.Name, "input") && !found:
			input, found = f.Data, true
			if strings.Contains(f.Name, ".crlf") {
				input = []byte(strings.ReplaceAll(string(input), "\n", "\r\n"))
			}
			if strings.Contains(f.Name, ".nonl") {
				input = []byte(strings.TrimSuffix(string(input), "\n"))
			}
		}
	}
	return input, loc, found && len(strings.TrimSpace(string(input))) > 0
}

// compareSets says how got differs from want, server by server, in every
// field the store keeps (the client's own keys included), or "".
func compareSets(want, got canonical.Set, client string) string {
	var b strings.Builder
	if w, g := strings.Join(want.Names(), ","), strings.Join(got.Names(), ","); w != g {
		fmt.Fprintf(&b, "servers: adapter %s, paste %s\n", w, g)
		return b.String()
	}
	for i, w := range want.Servers {
		g := got.Servers[i]
		if !canonical.Equal(w, g, client) {
			wj, _ := json.Marshal(strip(w))
			gj, _ := json.Marshal(strip(g))
			fmt.Fprintf(&b, "%s:\n  adapter %s\n  paste   %s\n", w.Name, wj, gj)
		}
	}
	return b.String()
}

func strip(s canonical.Server) canonical.Server {
	s.Origin = canonical.Pos{}
	return s
}

// For every placeholder dialect a client writes, a reference in that
// client's own spelling reads back as the canonical ${VAR} (and a literal
// the dialect does not expand stays text): the dialects come from the
// adapters, not from a table of paste's own.
func TestPasteReadsEveryDialect(t *testing.T) {
	reg := all.NewRegistry(all.Options{})
	spelled := map[string]string{
		"dollar": "${TOKEN}", "shell": "$TOKEN", "shell-no-default": "$TOKEN", "braced": "${TOKEN}",
		"env-colon": "${env:TOKEN}", "vscode": "${env:TOKEN}", "brace-env": "{env:TOKEN}",
		"continue": "${{ secrets.TOKEN }}", "goose": "${TOKEN}", "canonical": "${TOKEN}",
	}
	seen := map[string]bool{}
	for _, ad := range reg.All() {
		sh, ok := ad.(formats.Shaper)
		if !ok {
			t.Errorf("%s: its adapter describes no Shape for the paste reader", ad.ID())
			continue
		}
		dialect := sh.Shape().Dialect.Name
		if dialect == "none" {
			// A client that expands nothing: its file holds a literal,
			// and a paste keeps it literal.
			continue
		}
		ref, ok := spelled[dialect]
		if !ok {
			t.Errorf("%s: dialect %q has no spelling in this test", ad.ID(), dialect)
			continue
		}
		seen[dialect] = true
		// env, which every client that expands references expands (Droid
		// and Pi expand nothing in args).
		in := `{"mcpServers": {"s": {"command": "run", "env": {"TOKEN": "` + strings.ReplaceAll(ref, `"`, `\"`) + `"}}}}`
		if dialect == "continue" {
			in = "mcpServers:\n  - name: s\n    command: run\n    env:\n      TOKEN: \"" + ref + "\"\n"
		}
		got, ds := paste.Parse([]byte(in), paste.Options{Client: ad.ID()})
		if ds.HasErrors() || got.Len() != 1 {
			t.Errorf("%s (%s): %v", ad.ID(), dialect, ds)
			continue
		}
		if env := got.Servers[0].Env; env["TOKEN"] != "${TOKEN}" {
			t.Errorf("%s (%s): %s read as %q, want the reference ${TOKEN}", ad.ID(), dialect, ref, env)
		}
	}
	for _, d := range canonical.Dialects {
		if d.Name != "none" && d.Name != "canonical" && !seen[d.Name] {
			t.Errorf("no client writes dialect %q: the check above did not see it", d.Name)
		}
	}
}

// Without being told the client, a file whose shape names its client for
// certain (Codex's TOML, VS Code's "servers", Zed's "context_servers",
// OpenCode's "mcp", Amp's "amp.mcpServers", Continue's and Goose's YAML) is
// read by the paste reader itself, from the shapes the adapters describe:
// it must read what the adapter reads.
func TestPasteReadsIdentifiedShapesAsTheirAdapter(t *testing.T) {
	reg := all.NewRegistry(all.Options{})
	for _, id := range []string{"amp", "codex", "continue", "goose", "opencode", "vscode", "zed"} {
		ad, err := reg.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "clients", id, "*.txtar"))
		checked := 0
		for _, f := range files {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			input, loc, ok := caseInput(ar, ad)
			if !ok {
				continue
			}
			want, ds := ad.Decode(loc, input)
			if ds.HasErrors() || want.Len() == 0 {
				continue
			}
			name := id + "/" + strings.TrimSuffix(filepath.Base(f), ".txtar")
			got, pds := paste.Parse(input, paste.Options{File: loc.Path})
			if pds.HasErrors() {
				t.Errorf("%s: paste refuses what %s reads:\n%v", name, id, pds)
				continue
			}
			checked++
			if diff := compareSets(want, got, id); diff != "" {
				t.Errorf("%s: paste reads it otherwise than the adapter:\n%s", name, diff)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no golden case was checked", id)
		}
	}
}
