package wslpath

import (
	"strings"
	"testing"
)

// FuzzMap: a mapped value keeps what came before NAME= and leaves no
// /mnt/ drive path behind; an unmapped one is returned as it was. An '='
// after a slash is part of the path (/mnt/c/a=b), not a NAME= prefix.
func FuzzMap(f *testing.F) {
	for _, s := range []string{"/mnt/c/Users/me", "--dir=/mnt/d/x", "/home/me", "/c", "K=/mnt/", "/mnt/c", "/mnt/A/="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, unreachable := Map(s)
		if out == s {
			return
		}
		if unreachable {
			t.Fatalf("Map(%q) changed it to %q and says it is unreachable", s, out)
		}
		prefix := ""
		if i := strings.LastIndexByte(s, '='); i >= 0 && !strings.Contains(s[:i], "/") {
			prefix = s[:i+1]
		}
		if strings.Contains(out[min(len(prefix), len(out)):], "/mnt/") {
			t.Fatalf("Map(%q) = %q still holds a /mnt/ path", s, out)
		}
		if !strings.HasPrefix(out, prefix) {
			t.Fatalf("Map(%q) = %q lost what came before the value", s, out)
		}
	})
}
