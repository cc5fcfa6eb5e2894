package splice

import "testing"

func TestApply(t *testing.T) {
	src := []byte("0123456789")
	var l List
	l.Insert(2, "a")
	l.Delete(2, 4)
	l.Delete(3, 6) // overlaps the previous deletion: merged
	l.Insert(6, "b")
	l.Insert(6, "c")
	l.Replace(8, 9, "X")
	got, err := l.Apply(src)
	if err != nil || string(got) != "01abc67X9" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestApplyRefusesOverlaps(t *testing.T) {
	for name, l := range map[string]*List{
		"replace inside delete": func() *List { var l List; l.Delete(1, 5); l.Replace(2, 3, "x"); return &l }(),
		"insert inside replace": func() *List { var l List; l.Replace(1, 5, "x"); l.Insert(3, "y"); return &l }(),
		"outside the file":      func() *List { var l List; l.Replace(8, 20, "x"); return &l }(),
	} {
		if _, err := l.Apply([]byte("0123456789")); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}
