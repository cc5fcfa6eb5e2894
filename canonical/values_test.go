package canonical

import (
	"slices"
	"testing"
)

func TestServerValuesOrderAndStop(t *testing.T) {
	s := Server{Command: "c", Args: []string{"a0", "a1"}, Env: map[string]string{"B": "b", "A": "a"},
		URL: "u", Headers: map[string]string{"H": "h"}, Cwd: "d"}
	var got []string
	for f, v := range s.Values() {
		got = append(got, f+"="+v)
	}
	want := []string{"command=c", "args[0]=a0", "args[1]=a1", "env.A=a", "env.B=b", "url=u", "headers.H=h", "cwd=d"}
	if !slices.Equal(got, want) {
		t.Errorf("Values = %q, want %q", got, want)
	}
	n := 0
	for range s.Values() {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("break after 3 gave %d values", n)
	}
}
