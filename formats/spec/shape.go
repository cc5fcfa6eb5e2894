package spec

import (
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// Shape implements formats.Shaper from the spec: the server paths of its
// locations (a project's map as "*"), its placeholder dialect, every type
// spelling of its transports, what a bare url means, and its timeout keys.
func (s *Spec) Shape() formats.Shape {
	sh := formats.Shape{Client: s.ID, Dialect: s.Dialect, URLWithoutType: s.URLWithoutType,
		Types: map[string]canonical.Transport{}, Timeouts: map[string]formats.Timeout{}}
	paths := [][]string{}
	add := func(p []string) {
		if len(p) > 0 && !slices.ContainsFunc(paths, func(q []string) bool { return slices.Equal(p, q) }) {
			paths = append(paths, p)
		}
	}
	const project = "\x00project\x00"
	if p, err := evalServers(s.servers, formats.Env{OS: "linux"}, project); err == nil {
		add(wildcard(p, project))
	}
	for _, ls := range s.Locations {
		if ls.servers == nil {
			continue
		}
		if p, err := evalServers(ls.servers, formats.Env{OS: "linux"}, project); err == nil {
			add(wildcard(p, project))
		}
	}
	sh.Servers = paths
	for _, t := range s.Transports {
		for _, spelling := range append([]string{t.Type}, t.Aliases...) {
			key := strings.ToLower(spelling)
			if _, taken := sh.Types[key]; spelling != "" && !taken {
				// The first transport that spells it is what reading it
				// gives (OpenCode's "remote" is http; it falls back to SSE).
				sh.Types[key] = t.Name
			}
		}
	}
	unit := time.Millisecond
	if s.Fields.TimeoutUnit == "s" {
		unit = time.Second
	}
	if k := s.Fields.StartupTimeout; k != "" {
		sh.Timeouts[k] = formats.Timeout{Unit: unit, Startup: true}
	}
	if k := s.Fields.ToolTimeout; k != "" {
		sh.Timeouts[k] = formats.Timeout{Unit: unit}
	}
	return sh
}

func wildcard(p []string, project string) []string {
	out := slices.Clone(p)
	for i, k := range out {
		if k == project {
			out[i] = "*"
		}
	}
	return out
}

// Shape implements formats.Shaper.
func (a *Adapter) Shape() formats.Shape { return a.spec.Shape() }

// Shape implements formats.Shaper.
func (l *lazyAdapter) Shape() formats.Shape { return l.get().Shape() }

// Aliases implements formats.Aliaser.
func (a *Adapter) Aliases() []string { return a.spec.Aliases }

// Aliases implements formats.Aliaser.
func (l *lazyAdapter) Aliases() []string { return l.get().Aliases() }

// Precedence implements formats.Precedencer.
func (a *Adapter) Precedence() ([]canonical.Scope, string) {
	return a.spec.Precedence, a.spec.PrecedenceNote
}

// Precedence implements formats.Precedencer.
func (l *lazyAdapter) Precedence() ([]canonical.Scope, string) { return l.get().Precedence() }
