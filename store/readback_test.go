package store

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// checkReadBack: whenever readBack takes after from before's parse, the
// store is the one Parse reads from after, every position included.
func checkReadBack(t *testing.T, before, after []byte) (taken bool) {
	t.Helper()
	old, ods := Parse("f.hcl", before)
	if ods.HasErrors() {
		return false
	}
	got, ok := readBack("f.hcl", before, after, old.parsed(ods))
	if !ok {
		return false
	}
	want, wds := Parse("f.hcl", after)
	sameStore(t, after, want, got, wds, nil)
	return true
}

// splice replaces n bytes of src at at (both taken modulo its length) with
// text.
func splice(src []byte, at, n int, text string) []byte {
	if len(src) == 0 {
		return []byte(text)
	}
	at = (at%len(src) + len(src)) % len(src)
	n = min((n%64+64)%64, len(src)-at)
	return append(append(append([]byte{}, src[:at]...), text...), src[at+n:]...)
}

func editedServers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "server \"s%02d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-%d\"]\n}\n\n", i, i)
	}
	return b.String()
}

// FuzzParseEdited: for a store and any change to its text, the store
// ParseEdited reads from its parse and the changed text alone is the one
// Parse reads, also when the change was made by hand and the next run
// reads it through the cache (parseFromLast); and a save's edits of
// servers (serverEdits, editForCache) read back the same way.
func FuzzParseEdited(f *testing.F) {
	base := editedServers(12) + "client \"cursor\" {\n  exclude = [\"s03\"]\n}\n\n" +
		strings.ReplaceAll(editedServers(3), "\"s0", "\"u0") + "resolver \"r\" {\n  command = [\"x\"]\n}\n"
	for _, c := range []struct {
		src, text string
		at, n     int
	}{
		{base, "  disabled = true\n", 40, 0},
		{base, "", 60, 30},
		{base, "server \"new\" {\n  url = \"https://x\"\n}\n\n", 0, 0},
		{base, "server \"new\" {\n  url = \"https://x\"\n}", 180, 0},
		{base, "/* open", 100, 0},
		{base, "\"", 120, 1},
		{base, "}\n", 500, 3},
		{base, "client \"x\" {}\n", 220, 0},
		{editedServers(3), "# c\n", 0, 0},
		{editedServers(3) + "/* a\n */ server \"z\" {\n  command = \"y\"\n}\n", "  env = {}\n", 150, 0},
	} {
		f.Add([]byte(c.src), c.at, c.n, c.text)
	}
	if _, ds := Parse("f.hcl", []byte(base)); len(ds) > 0 {
		f.Fatalf("the seed store does not parse cleanly: %v", ds)
	}
	f.Fuzz(func(t *testing.T, src []byte, at, n int, text string) {
		changed := splice(src, at, n, text)
		checkReadBack(t, src, changed)
		parsed, ds := Parse("f.hcl", src)
		if ds.HasErrors() {
			return
		}
		// The same change made by hand, read by the next run through the
		// cache (parseFromLast).
		c := &memCache{}
		ParseCached("f.hcl", src, c)
		lastParsed.put("", nil, nil, nil)
		got, gds := ParseCached("f.hcl", changed, c)
		want, wds := Parse("f.hcl", changed)
		if gds.HasErrors() != wds.HasErrors() {
			t.Fatalf("hand edit: errors %v against %v", gds, wds)
		}
		if !wds.HasErrors() {
			sameStore(t, changed, want, got, wds, gds)
		}
		for i, edit := range append(serverEdits, editForCache) {
			s, _ := Parse("f.hcl", src)
			after := edit(s)
			got, gds := ParseEdited("f.hcl", src, after, &memCache{entries: map[string][]byte{
				"store\x00f.hcl\x00" + string(src): encodeParsed(parsed.parsed(ds))}})
			want, wds := Parse("f.hcl", after)
			if gds.HasErrors() != wds.HasErrors() {
				t.Fatalf("edit %d: errors %v against %v", i, gds, wds)
			}
			sameStore(t, after, want, got, wds, gds)
		}
	})
}

// TestParseEditedTakesTheRest: an edit of one server of many reads the
// rest from the parse of the store before it: the seeds of FuzzParseEdited
// that change a server block are taken, not parsed whole.
func TestParseEditedTakesTheRest(t *testing.T) {
	src := []byte(editedServers(40))
	cases := map[string][]byte{
		"changed": []byte(strings.Replace(string(src), "pkg-7\"]\n", "pkg-7\", \"more\"]\n  disabled = true\n", 1)),
		"removed": []byte(strings.Replace(string(src), "server \"s09\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-9\"]\n}\n\n", "", 1)),
		"added":   append(append([]byte{}, src...), "server \"new\" {\n  url = \"https://x.example/mcp\"\n}\n"...),
	}
	for name, after := range cases {
		if !checkReadBack(t, src, after) {
			t.Errorf("%s: parsed whole", name)
		}
	}
}

// TestReadBackRandomChanges makes thousands of changes to a store's text
// (what a save writes, and what it must never get wrong: a block that
// runs into the next server's line, a string or comment left open, a
// duplicate, a client block) and checks each one readBack takes against
// Parse. It catches what the fuzzer, from its seeds, takes minutes to.
func TestReadBackRandomChanges(t *testing.T) {
	base := []byte(editedServers(12) + "client \"cursor\" {\n  exclude = [\"s03\"]\n}\n\n" +
		strings.ReplaceAll(editedServers(3), "\"s0", "\"u0") + "resolver \"r\" {\n  command = [\"x\"]\n}\n")
	texts := []string{"", "x", "\n", "  disabled = true\n", "server \"n\" {\n command = \"q\"\n}\n", "server \"n\" {\n command = \"q\"\n}",
		"}", "\"", "# c\n", "/* c", "*/", "[1]", "server \"s05\" {\n  url = \"https://x\"\n}\n", "client \"c\" {\n}\n", "<<EOT\n"}
	runs := 10000
	if testing.Short() {
		runs = 3000
	}
	r := rand.New(rand.NewSource(1))
	taken := 0
	for range runs {
		if checkReadBack(t, base, splice(base, r.Intn(len(base)), r.Intn(40), texts[r.Intn(len(texts))])) {
			taken++
		}
	}
	if taken < runs/100 {
		t.Errorf("readBack took %d of %d changes: the test no longer tests it", taken, runs)
	}
}

// TestReadBackClientBlockOnTheLastLine: a client block on the file's last
// line, with no newline after it, lies in the text parsed again when the
// server before it changes; an edit that takes the block away (its rule
// emptied) and changes the server is read back without the rule.
func TestReadBackClientBlockOnTheLastLine(t *testing.T) {
	before := []byte("server \"a\" {\n  command = \"x\"\n}\n\nserver \"b\" {\n  command = \"x\"\n}\nclient \"c\" { exclude = [\"a\"] }")
	after := []byte("server \"a\" {\n  command = \"x\"\n}\n\nserver \"b\" {\n  command = \"y\"\n}\n")
	checkReadBack(t, before, after)
	// and one that keeps it, moved a line down
	checkReadBack(t, before, []byte("server \"a\" {\n  command = \"x\"\n}\n\nserver \"b\" {\n  command = \"y\"\n  cwd     = \"/w\"\n}\nclient \"c\" { exclude = [\"a\"] }"))
}

// TestHandEditParsedWhereItChanged: a store edited by hand (or by any
// program but mcpsync) is read, by the next run, from the parse of the
// text before the edit, which the cache keeps with that text, and a parse
// of the text where it changed, as ParseEdited reads mcpsync's own saves:
// what Parse reads, without parsing it whole. A change readBack does not
// take (a client block) is parsed whole, and read right.
func TestHandEditParsedWhereItChanged(t *testing.T) {
	before := []byte(editedServers(40) + "client \"cursor\" {\n  exclude = [\"s03\"]\n}\n")
	for name, tc := range map[string]struct {
		after []byte
		whole bool
	}{
		"changed": {after: []byte(strings.Replace(string(before), "pkg-7\"]\n", "pkg-7\", \"more\"]\n  disabled = true\n", 1))},
		"removed": {after: []byte(strings.Replace(string(before), "server \"s09\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-9\"]\n}\n\n", "", 1))},
		"added":   {after: []byte(strings.Replace(string(before), "server \"s20\"", "server \"new\" {\n  url = \"https://x.example/mcp\"\n}\n\nserver \"s20\"", 1))},
		"client":  {after: []byte(strings.Replace(string(before), "[\"s03\"]", "[\"s04\"]", 1)), whole: true},
	} {
		c := &memCache{}
		if _, ds := ParseCached("f.hcl", before, c); ds.HasErrors() {
			t.Fatal(ds)
		}
		lastParsed.put("", nil, nil, nil) // the next run: a process of its own
		got, ds := ParseCached("f.hcl", tc.after, c)
		want, wds := Parse("f.hcl", tc.after)
		sameStore(t, tc.after, want, got, wds, ds)
		if whole := got.blocks != nil; whole != tc.whole {
			t.Errorf("%s: parsed whole %v, want %v", name, whole, tc.whole)
		}
		// The run after that finds the edited text's parse in the cache.
		lastParsed.put("", nil, nil, nil)
		hits := c.hits
		again, ads := ParseCached("f.hcl", tc.after, c)
		sameStore(t, tc.after, want, again, wds, ads)
		if c.hits == hits {
			t.Errorf("%s: the edited store's parse was not kept", name)
		}
	}
}
