package yamledit

import (
	"errors"
	"testing"
)

// yaml.v3 also ends a line at a lone \r and at U+0085, U+2028 and U+2029;
// every other reader of the file (an editor, mcpsync's other formats, the
// line counts of doctor) goes on with the same line. Positions are shown
// as those readers count: a one-line file has no line 2.
func TestPositionsCountLinesAsShown(t *testing.T) {
	_, err := Parse([]byte("0\r\x80"))
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Parse = %v, want a syntax error", err)
	}
	if se.Line != 1 || se.Column != 3 {
		t.Errorf("syntax error at %d:%d, want 1:3 (after the \\r, on the file's only line)", se.Line, se.Column)
	}

	for _, tc := range []struct {
		src                  string
		key                  string
		wantLine, wantColumn int
	}{
		{"a: 1\rb: 2\nc: 3\n", "b", 1, 6},
		{"a: 1\rb: 2\nc: 3\n", "c", 2, 1},
		{"a: 1\u2028b: 2\n  \nc: 3\n", "b", 1, 6},
		{"a: 1\u2028b: 2\n  \nc: 3\n", "c", 3, 1},
		{"a: 1\r\nb: 2\n", "b", 2, 1}, // \r\n is one break for everyone
		{"\xef\xbb\xbfa: 1\rb: 2\n", "b", 1, 6},
	} {
		d, err := Parse([]byte(tc.src))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		k, _ := d.Lookup(tc.key)
		if k == nil {
			t.Fatalf("Parse(%q): no key %s", tc.src, tc.key)
		}
		if line, col := d.Pos(k.Line, k.Column); line != tc.wantLine || col != tc.wantColumn {
			t.Errorf("%q: key %s at %d:%d (yaml.v3: %d:%d), want %d:%d", tc.src, tc.key, line, col, k.Line, k.Column, tc.wantLine, tc.wantColumn)
		}
	}
}
