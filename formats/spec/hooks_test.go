package spec_test

import (
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// nestSpec is a made-up client whose entries keep their command under
// "run" ({"run": {"command": ..., "args": [...]}}), and that lists its tools
// as ["all"] when there is no filter.
const nestSpec = `client "nest" {
  display_name = "Nest"
  format       = "json"
  servers      = ["servers"]
  quirks       = "nest"
  location "user" { path = "${home}/.nest.json" }
  fields {
    command     = "command"
    args        = "args"
    tools_allow = "tools"
  }
  transport "stdio" {}
}
`

// nestHooks reads and writes the nested shape, skips entries marked
// "builtin", and writes "tools": ["all"] for an entry without a filter.
type nestHooks struct{ spec.NoHooks }

func (nestHooks) ViewEntry(c *spec.Context, name string, entry jsonedit.Node) ([]jsonedit.Member, bool, canonical.Diagnostics) {
	if entry.Get("builtin").Valid() {
		return nil, true, nil
	}
	run := entry.Get("run")
	if run.Kind() != jsonedit.KindObject {
		return nil, false, nil
	}
	var out []jsonedit.Member
	for _, m := range entry.Members() {
		if m.Name == "run" {
			for _, rm := range m.Value.Members() {
				if rm.Name != "command" && rm.Name != "args" {
					rm.Name = "run." + rm.Name
				}
				out = append(out, rm)
			}
			continue
		}
		out = append(out, m)
	}
	return out, false, nil
}

func (nestHooks) DecodeEntry(c *spec.Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics {
	if len(srv.ToolsAllow) == 1 && srv.ToolsAllow[0] == "all" {
		srv.ToolsAllow = nil
	}
	return nil
}

func (nestHooks) EncodeEntry(c *spec.Context, s canonical.Server, old jsonedit.Node, e *spec.EncodedEntry) canonical.Diagnostics {
	if len(s.ToolsAllow) == 0 {
		e.Fields = append(jsonedit.Object{{Key: "tools", Value: []string{"all"}}}, e.Fields...)
	}
	if old.Valid() && old.Get("run").Kind() != jsonedit.KindObject {
		return nil // a flat entry is edited in place
	}
	spec.KeepUnknown(c, s, e)
	var run, rest jsonedit.Object
	for _, f := range e.Fields {
		switch {
		case f.Key == "command" || f.Key == "args":
			run = append(run, f)
		case strings.HasPrefix(f.Key, "run."):
			run = append(run, jsonedit.Field{Key: strings.TrimPrefix(f.Key, "run."), Value: f.Value})
		default:
			rest = append(rest, f)
		}
	}
	e.Fields = append(jsonedit.Object{{Key: "run", Value: run}}, rest...)
	e.Replace = true
	return nil
}

func nestAdapter(t *testing.T) *spec.Adapter {
	t.Helper()
	specs, diags := spec.Parse("nest.hcl", []byte(nestSpec))
	if len(diags) > 0 {
		t.Fatal(diags.Err())
	}
	a, err := spec.NewAdapter(specs[0], nestHooks{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestEntryHooks: a viewed entry decodes with the positions of the file, a
// skipped entry is neither imported nor touched, a key a hook adds is
// edited in place, and a replaced entry keeps the user's other keys.
func TestEntryHooks(t *testing.T) {
	a := nestAdapter(t)
	loc := formatstest.DefaultLocation(a)
	in := `{
  "servers": {
    "nested": {"run": {"command": "uvx", "args": ["git"], "shell": "sh"}, "note": "mine"},
    "flat": {"tools": ["all"], "command": "node", "args": ["a.js"]},
    "inner": {"builtin": true, "whatever": 1}
  }
}
`
	set, diags := a.Decode(loc, []byte(in))
	if len(diags) > 0 {
		t.Fatalf("Decode: %s", formatstest.FormatDiags(diags))
	}
	if got := strings.Join(set.Names(), ","); got != "nested,flat" {
		t.Fatalf("servers %s, want nested,flat (inner is skipped)", got)
	}
	nested, _ := set.Get("nested")
	if nested.Command != "uvx" || nested.Origin.Line != 3 || string(nested.Extra["nest"]["run.shell"]) != `"sh"` {
		t.Errorf("nested decoded as %+v", nested)
	}
	if flat, _ := set.Get("flat"); flat.ToolsAllow != nil {
		t.Errorf("flat tools %v, want no filter", flat.ToolsAllow)
	}
	if out, diags := a.Encode(loc, []byte(in), set, formats.EncodeOptions{}); string(out) != in || len(diags) > 0 {
		t.Errorf("identity:\n%s\n%s", out, formatstest.FormatDiags(diags))
	}

	// The wanted servers carry no Extra: the user's own keys stay. A
	// replaced entry keeps the one-line style it had.
	want := canonical.Set{Servers: []canonical.Server{
		{Name: "nested", Transport: canonical.Stdio, Command: "uvx", Args: []string{"git", "--verbose"}},
		{Name: "flat", Transport: canonical.Stdio, Command: "node", Args: []string{"a.js"}, ToolsAllow: []string{"read"}},
		{Name: "new", Transport: canonical.Stdio, Command: "echo"},
	}}
	out, diags := a.Encode(loc, []byte(in), want, formats.EncodeOptions{})
	if diags.HasErrors() {
		t.Fatal(formatstest.FormatDiags(diags))
	}
	wantOut := `{
  "servers": {
    "nested": {"run": {"command": "uvx", "args": ["git", "--verbose"], "shell": "sh"}, "tools": ["all"], "note": "mine"},
    "flat": {"tools": ["read"], "command": "node", "args": ["a.js"]},
    "inner": {"builtin": true, "whatever": 1},
    "new": {
      "run": {
        "command": "echo"
      },
      "tools": [
        "all"
      ]
    }
  }
}
`
	if string(out) != wantOut {
		t.Errorf("Encode:\n%s\nwant:\n%s", out, wantOut)
	}
	back, _ := a.Decode(loc, out)
	if d := formatstest.Differences(want, back, ""); len(d) > 0 {
		t.Errorf("read back: %v", d)
	}
}

// TestKnown: the keys a spec models, as opposed to those kept in Extra.
func TestKnown(t *testing.T) {
	s := spec.MustBuiltin("windsurf")
	for key, want := range map[string]bool{"serverUrl": true, "url": true, "disabledTools": true, "command": true,
		"description": false, "": false, "type": false} {
		if got := s.Known(key); got != want {
			t.Errorf("Known(%q) = %v, want %v", key, got, want)
		}
	}
	q := spec.MustBuiltin("qwen")
	if !q.Known("httpUrl") || !q.Known("oauth") || q.Known("$version") {
		t.Errorf("qwen: httpUrl %v oauth %v $version %v", q.Known("httpUrl"), q.Known("oauth"), q.Known("$version"))
	}
}
