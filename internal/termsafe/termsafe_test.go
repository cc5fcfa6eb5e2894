package termsafe

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct {
		in, want string
		colour   bool
	}{
		{"plain text, ünïcode, 日本語\tand\ttabs\n", "plain text, ünïcode, 日本語\tand\ttabs\n", false},
		{"crlf line\r\nnext", "crlf line\r\nnext", false},
		{"name\x1b]0;owned\x07\x1b[2J", `name\x1b]0;owned\x07\x1b[2J`, false},
		{"fetch: npx\r\x1b[2K\x1b[1Ash -c 'touch x'\x1b[8m", `fetch: npx\x0d\x1b[2K\x1b[1Ash -c 'touch x'\x1b[8m`, false},
		{"\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m", true},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, false},
		{"\x1b[8mhidden\x1b[0m", `\x1b[8mhidden` + "\x1b[0m", true},
		{"del\x7f bell\a back\b", `del\x7f bell\x07 back\x08`, false},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`, false},
		{"rtl \u202egnp.exe", `rtl \u202egnp.exe`, false},
		{"bad \xff utf8", `bad \xff utf8`, false},
		{"", "", false},
	} {
		if got := Escape(c.in, c.colour); got != c.want {
			t.Errorf("Escape(%q, %v) = %q, want %q", c.in, c.colour, got, c.want)
		}
		if Safe(c.in, c.colour) != (c.in == c.want) {
			t.Errorf("Safe(%q) = %v", c.in, Safe(c.in, c.colour))
		}
	}
}

// FuzzEscape checks that nothing Escape returns holds a character a
// terminal would act on, and that safe text passes unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"plain", "a\x1b[2Jb", "x\r\ny\rz", "\u009b\u202e", "\xff\xfe", "\x1b[31mr\x1b[0m"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, colour bool) {
		out := Escape(s, colour)
		if !Safe(out, colour) {
			t.Fatalf("Escape(%q) = %q, still unsafe", s, out)
		}
		if !colour && strings.ContainsRune(out, 0x1b) {
			t.Fatalf("Escape(%q) = %q holds ESC", s, out)
		}
		if Safe(s, colour) && out != s {
			t.Fatalf("safe %q changed to %q", s, out)
		}
	})
}
