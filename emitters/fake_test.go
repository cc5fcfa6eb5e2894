package emitters

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// lineAdapter is a small fake client for tests: one server per line,
// "name = <canonical JSON>", prefixed with "@<project> " for a project
// section; "#" lines are comments and every other byte is kept. A line
// "!" is a syntax error. With noCwd it cannot express a cwd (dropped on
// write with a warning), like Claude Code.
type lineAdapter struct {
	id    string
	noCwd bool
}

func (a lineAdapter) ID() string          { return a.id }
func (a lineAdapter) DisplayName() string { return "Fake " + a.id }
func (a lineAdapter) Capabilities() formats.Capabilities {
	return formats.Capabilities{Transports: canonical.Transports, Cwd: !a.noCwd}
}
func (a lineAdapter) Locations(env formats.Env) []formats.Location {
	return []formats.Location{{Client: a.id, Scope: canonical.ScopeUser, Path: env.Home + "/." + a.id}}
}

func prefix(loc formats.Location) string {
	if loc.Project != "" {
		return "@" + loc.Project + " "
	}
	return ""
}

func (a lineAdapter) Decode(loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	var set canonical.Set
	var ds canonical.Diagnostics
	for i, line := range strings.SplitAfter(string(data), "\n") {
		body := strings.TrimRight(line, "\r\n")
		if body == "!" {
			d := canonical.Errorf("syntax error: unexpected '!'")
			ds = append(ds, d.At(canonical.Pos{File: loc.Path, Line: i + 1, Column: 1}))
			continue
		}
		if strings.HasPrefix(body, "#") || body == "" || !strings.HasPrefix(body, prefix(loc)) {
			continue
		}
		body = strings.TrimPrefix(body, prefix(loc))
		if loc.Project == "" && strings.HasPrefix(body, "@") {
			continue
		}
		name, js, ok := strings.Cut(body, " = ")
		if !ok {
			continue
		}
		var srv canonical.Server
		if err := json.Unmarshal([]byte(js), &srv); err != nil {
			d := canonical.Errorf("bad entry: %v", err)
			ds = append(ds, d.At(canonical.Pos{File: loc.Path, Line: i + 1, Column: len(name) + 4}))
			continue
		}
		srv.Name = name
		srv.Origin = canonical.Pos{File: loc.Path, Line: i + 1, Column: 1}
		set.Servers = append(set.Servers, srv)
	}
	return set, ds
}

func (a lineAdapter) entry(loc formats.Location, srv canonical.Server, eol string) string {
	srv.Origin = canonical.Pos{}
	name := srv.Name
	srv.Name = ""
	if a.noCwd {
		srv.Cwd = ""
	}
	js, _ := json.Marshal(srv)
	return prefix(loc) + name + " = " + string(js) + eol
}

func (a lineAdapter) Encode(loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) ([]byte, canonical.Diagnostics) {
	var ds canonical.Diagnostics
	have, hds := a.Decode(loc, data)
	if hds.HasErrors() {
		return nil, hds
	}
	eol := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		eol = "\r\n"
	}
	for _, w := range want.Servers {
		if a.noCwd && w.Cwd != "" {
			d := canonical.Warnf("cannot express cwd; dropped")
			d.Server, d.Field = w.Name, "cwd"
			ds = append(ds, d)
		}
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(data) == 0 {
		lines = nil
	}
	var out strings.Builder
	done := map[string]bool{}
	for _, h := range have.Servers {
		i := h.Origin.Line - 1
		w, ok := want.Get(h.Name)
		switch {
		case !ok:
			lines[i] = ""
		case !canonical.Equal(w, h, a.id):
			lines[i] = a.entry(loc, w, eol)
		}
		done[h.Name] = true
	}
	for _, l := range lines {
		out.WriteString(l)
	}
	for _, w := range want.Servers {
		if !done[w.Name] {
			if out.Len() > 0 && !strings.HasSuffix(out.String(), "\n") {
				out.WriteString(eol)
			}
			out.WriteString(a.entry(loc, w, eol))
		}
	}
	return []byte(out.String()), ds
}
