package canonical

import "testing"

func TestPosAtAndLineOffset(t *testing.T) {
	data := []byte("ab\ncd\r\n\nef")
	for _, tc := range []struct {
		off       int
		line, col int
	}{
		{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {7, 3, 1}, {8, 4, 1}, {10, 4, 3},
		{-1, 1, 1}, {99, 4, 3}, // clamped to data
	} {
		if p := PosAt("f", data, tc.off); p != (Pos{File: "f", Line: tc.line, Column: tc.col}) {
			t.Errorf("PosAt(%d) = %v, want f:%d:%d", tc.off, p, tc.line, tc.col)
		}
	}
	for line, want := range map[int]int{0: 0, 1: 0, 2: 3, 3: 7, 4: 8, 5: 10, 9: 10} {
		if got := LineOffset(data, line); got != want {
			t.Errorf("LineOffset(%d) = %d, want %d", line, got, want)
		}
		if line >= 1 && line <= 4 {
			if p := PosAt("", data, LineOffset(data, line)); p.Line != line || p.Column != 1 {
				t.Errorf("PosAt(LineOffset(%d)) = %v", line, p)
			}
		}
	}
}
