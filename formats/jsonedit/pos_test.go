package jsonedit

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Pos gives every offset's line and column whatever order it is asked in:
// forward a little (as decoders ask), far forward, backward, at random,
// past the end, and in a text with a byte order mark.
func TestPosInAnyOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString("\ufeff{\n")
	for i := range 300 {
		fmt.Fprintf(&b, "  %q: {\"command\": \"npx\",\n    \"args\": [\"-y\", %q]},\n", fmt.Sprint("s", i), strings.Repeat("x", i%7))
	}
	b.WriteString("  \"last\": 1\n}\n")
	src := b.String()
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := func(off int) (int, int) {
		off = max(len("\ufeff"), min(off, len(src)))
		line, start := 1, len("\ufeff")
		for i := start; i < off; i++ {
			if src[i] == '\n' {
				line, start = line+1, i+1
			}
		}
		return line, off - start + 1
	}
	var offsets []int
	for off := 0; off <= len(src)+2; off += 3 {
		offsets = append(offsets, off) // forward, a step at a time
	}
	for off := len(src); off >= 0; off -= 97 {
		offsets = append(offsets, off) // backward
	}
	for off := 0; off < len(src); off += 4000 {
		offsets = append(offsets, off) // far forward
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		offsets = append(offsets, r.IntN(len(src)+10))
	}
	for _, off := range offsets {
		wl, wc := want(off)
		if l, c := d.Pos(off); l != wl || c != wc {
			t.Fatalf("Pos(%d) = %d:%d, want %d:%d", off, l, c, wl, wc)
		}
	}
}
