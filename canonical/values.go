package canonical

import (
	"iter"
	"maps"
	"slices"
	"strconv"
)

// Values yields every string of s that may hold a reference, named as
// diagnostics name fields ("command", "args[2]", "env.KEY", "url",
// "headers.Authorization", "cwd"), maps in key order.
func (s Server) Values() iter.Seq2[string, string] {
	return func(yield func(field, value string) bool) {
		if !yield("command", s.Command) {
			return
		}
		for i, a := range s.Args {
			if !yield("args["+strconv.Itoa(i)+"]", a) {
				return
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			if !yield("env."+k, s.Env[k]) {
				return
			}
		}
		if !yield("url", s.URL) {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
			if !yield("headers."+k, s.Headers[k]) {
				return
			}
		}
		yield("cwd", s.Cwd)
	}
}
