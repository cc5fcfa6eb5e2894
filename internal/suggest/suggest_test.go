package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"codex", "codex", 0},
		{"cursr", "cursor", 1}, {"kitten", "sitting", 3}, {"vscdoe", "vscode", 2},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"GitHub", "linear", "filesystem", "fetch"}
	for _, tc := range []struct {
		name  string
		limit int
		want  string
	}{
		{"github", 3, "GitHub"}, // case aside
		{"lineer", 3, "linear"}, // one substitution
		{"fetcj", 3, "fetch"},   // below the limit
		{"postgres", 3, ""},     // nothing close
		{"filesystme", 2, ""},   // distance 2 is not below 2
		{"filesystme", 3, "filesystem"},
		{"fetc", 9, "fetch"}, // the nearest, not the first under the limit
	} {
		if got := Closest(tc.name, names, tc.limit); got != tc.want {
			t.Errorf("Closest(%q, limit %d) = %q, want %q", tc.name, tc.limit, got, tc.want)
		}
	}
}
