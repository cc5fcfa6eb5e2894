package formatstest

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
)

// A Difference is one field of one server that did not survive a trip
// through a client: Field is the canonical JSON name ("env", "url",
// "transport", ...), or "" when the whole server is missing or unexpected.
type Difference struct {
	Server string
	Field  string
	Want   string
	Got    string
}

func (d Difference) String() string {
	if d.Field == "" {
		return fmt.Sprintf("server %q: %s", d.Server, d.Want)
	}
	return fmt.Sprintf("server %q: %s: want %s, got %s", d.Server, d.Field, d.Want, d.Got)
}

// Differences compares two sets server by server and field by field (after
// Normalize), ignoring Origin, order, and the Extra of every client but
// extraFor (and that one too when want has none for it). A server missing from got is one Difference with Field "".
func Differences(want, got canonical.Set, extraFor string) []Difference {
	var out []Difference
	for _, w := range want.Servers {
		g, ok := got.Get(w.Name)
		if !ok {
			out = append(out, Difference{Server: w.Name, Want: "missing after the round trip"})
			continue
		}
		out = append(out, serverDifferences(w, g, extraFor)...)
	}
	for _, g := range got.Servers {
		if _, ok := want.Get(g.Name); !ok {
			out = append(out, Difference{Server: g.Name, Want: "not wanted but present"})
		}
	}
	return out
}

func serverDifferences(w, g canonical.Server, extraFor string) []Difference {
	w, g = w.Clone(), g.Clone()
	w.Normalize()
	g.Normalize()
	var out []Difference
	check := func(field string, a, b any) {
		if !reflect.DeepEqual(a, b) {
			out = append(out, Difference{Server: w.Name, Field: field, Want: show(a), Got: show(b)})
		}
	}
	check("transport", w.Transport, g.Transport)
	check("command", w.Command, g.Command)
	check("args", w.Args, g.Args)
	check("env", w.Env, g.Env)
	check("cwd", w.Cwd, g.Cwd)
	check("url", w.URL, g.URL)
	check("headers", w.Headers, g.Headers)
	check("disabled", w.Disabled, g.Disabled)
	check("toolsAllow", w.ToolsAllow, g.ToolsAllow)
	check("toolsDeny", w.ToolsDeny, g.ToolsDeny)
	check("startupTimeout", w.StartupTimeout, g.StartupTimeout)
	check("toolTimeout", w.ToolTimeout, g.ToolTimeout)
	check("oauth", w.Auth.OAuth, g.Auth.OAuth)
	if we, ge := w.Extra[extraFor], g.Extra[extraFor]; extraFor != "" && we != nil {
		// A server without Extra for the client has no opinion on the
		// unknown keys the user wrote; they are kept.
		if !canonical.ExtraEqual(we, ge) {
			out = append(out, Difference{Server: w.Name, Field: "extra", Want: show(we), Got: show(ge)})
		}
	}
	return out
}

func show(v any) string {
	switch x := v.(type) {
	case map[string]string:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, k+"="+x[k])
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Uncovered returns the differences no warning accounts for. A warning
// covers a difference when it names the server and the field (or a part of
// it: "env.TOKEN" covers "env"); any warning naming a server covers that
// server being missing.
func Uncovered(diffs []Difference, diags canonical.Diagnostics) []Difference {
	var out []Difference
	for _, d := range diffs {
		if !covered(d, diags) {
			out = append(out, d)
		}
	}
	return out
}

func covered(d Difference, diags canonical.Diagnostics) bool {
	for _, w := range diags {
		if w.Server != d.Server {
			continue
		}
		if d.Field == "" || w.Field == d.Field || strings.HasPrefix(w.Field, d.Field+".") || strings.HasPrefix(w.Field, d.Field+"[") {
			return true
		}
	}
	return false
}
