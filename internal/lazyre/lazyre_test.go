package lazyre

import "testing"

func TestCompiledOnFirstUse(t *testing.T) {
	r := New(`^a+b$`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	if !r.Get().MatchString("aab") || r.Get().MatchString("b") {
		t.Fatal("wrong match")
	}
	if r.Get() != r.Get() {
		t.Fatal("compiled twice")
	}
}
