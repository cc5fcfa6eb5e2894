package probe

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScrubber(t *testing.T) {
	var s scrubber
	s.addHeader("Bearer abcdef123456")
	s.add("p@ss word/?&")
	s.add("abc") // too short to hide
	s.addURL("https://user:hunter2222@example.com/mcp?key=k-123456&x=1")
	cases := map[string]string{
		"Authorization: Bearer abcdef123456":                       "Authorization: ***",
		"token abcdef123456 rejected":                              "token *** rejected",
		`Post "https://h/?p=p%40ss+word%2F%3F%26": failed`:         `Post "https://h/?p=***": failed`,
		"path /p@ss%20word%2F%3F&":                                 "path /***",
		"abc stays":                                                "abc stays",
		"https://user:hunter2222@example.com/mcp?key=k-123456&x=1": "https://user:***@example.com/mcp?key=***&x=1",
	}
	for in, want := range cases {
		if got := s.scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHideSecretArgs(t *testing.T) {
	var s scrubber
	hideSecretArgs([]string{"--api-key", "sk-live-1234", "--token=tok-5678", "--port", "8080", "-y", "pkg@1.0.0"}, &s)
	got := s.scrub("run --api-key sk-live-1234 --token=tok-5678 --port 8080 -y pkg@1.0.0")
	if want := "run --api-key *** --token=*** --port 8080 -y pkg@1.0.0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTailWriterKeepsLastLines(t *testing.T) {
	var w tailWriter
	for i := range 25 {
		w.Write([]byte(strings.Repeat("x", i) + "\r\n"))
	}
	w.Write([]byte("partial"))
	lines := w.Lines()
	if len(lines) != tailLines || lines[len(lines)-1] != "partial" || lines[0] != strings.Repeat("x", 16) {
		t.Errorf("lines = %q", lines)
	}
	var long tailWriter
	long.Write(bytes.Repeat([]byte("é"), 400)) // 800 bytes, cut inside a rune boundary
	l := long.Lines()
	if len(l) != 1 || !utf8.ValidString(l[0]) || !strings.HasSuffix(l[0], "…") || len(l[0]) > tailLineMax+len("…") {
		t.Errorf("long line = %q", l)
	}
}

func TestParseRequirement(t *testing.T) {
	name, tools, err := ParseRequirement(" github = create_issue, search_code ")
	if err != nil || name != "github" || !slices.Equal(tools, []string{"create_issue", "search_code"}) {
		t.Errorf("got %q %q %v", name, tools, err)
	}
	for _, bad := range []string{"", "github", "=x", "github=", "github=a,,b"} {
		if _, _, err := ParseRequirement(bad); err == nil || !strings.Contains(err.Error(), "NAME=tool1,tool2") && !strings.Contains(err.Error(), "empty tool name") {
			t.Errorf("ParseRequirement(%q) error %v", bad, err)
		}
	}
}

func TestWithin(t *testing.T) {
	cases := []struct {
		root, path string
		want       bool
	}{
		{"/p", "/p", true}, {"/p", "/p/a/b", true}, {"/p", "/p/..a", true},
		{"/p", "/", false}, {"/p", "/pa", false}, {"/p", "/p/../q", false},
	}
	for _, c := range cases {
		if got := within(c.root, c.path); got != c.want {
			t.Errorf("within(%q, %q) = %v", c.root, c.path, got)
		}
	}
}

func FuzzScrub(f *testing.F) {
	f.Add("Bearer tok-123456", "hunter2222", "error: Bearer tok-123456 rejected, password hunter2222")
	f.Add("abcd", "bcde", "abcdebcdabcde")
	f.Add("key=val ue", "ü-secret", "url ?q=key%3Dval+ue and ü-secret")
	f.Fuzz(func(t *testing.T, a, b, text string) {
		var s scrubber
		s.addHeader(a)
		s.add(b)
		out := s.scrub(text + a + text + b + text)
		// A secret that holds the replacement's own characters could be
		// re-formed by it; real credentials do not look like "***".
		for _, sec := range []string{a, b} {
			if len(sec) >= minSecretLen && !strings.Contains(sec, "*") && strings.Contains(out, sec) {
				t.Fatalf("secret %q survives in %q", sec, out)
			}
		}
	})
}

// tailReference is what tailWriter must keep: the last tailLines lines of
// the whole text, each cut to tailLineMax bytes, blank lines trimmed at
// both ends.
func tailReference(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	parts := bytes.Split(data, []byte("\n"))
	if len(parts[len(parts)-1]) == 0 {
		parts = parts[:len(parts)-1]
	}
	var lines []string
	for _, p := range parts {
		cut := len(p) > tailLineMax
		if cut {
			p = p[:tailLineMax]
		}
		lines = append(lines, displayLine(p, cut))
	}
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil
	}
	return lines
}

func FuzzTailWriter(f *testing.F) {
	f.Add([]byte("a\nb\r\nc"), uint8(1))
	f.Add([]byte("\n\n\nerror: boom\n\n"), uint8(3))
	f.Add(bytes.Repeat([]byte("line of text\n"), 30), uint8(7))
	f.Add(append(bytes.Repeat([]byte("é"), 200), '\n'), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		size := int(chunk)%64 + 1
		var w tailWriter
		for rest := data; len(rest) > 0; {
			n := min(size, len(rest))
			if m, err := w.Write(rest[:n]); m != n || err != nil {
				t.Fatalf("Write returned %d, %v", m, err)
			}
			rest = rest[n:]
		}
		got, want := w.Lines(), tailReference(data)
		if !slices.Equal(got, want) {
			t.Fatalf("chunks of %d:\n got %q\nwant %q", size, got, want)
		}
	})
}

func FuzzParseRequirement(f *testing.F) {
	f.Add("github=create_issue,search_code")
	f.Add(" a = b ")
	f.Add("=x")
	f.Add("a=b,,c")
	f.Fuzz(func(t *testing.T, s string) {
		name, tools, err := ParseRequirement(s)
		if err != nil {
			return
		}
		if name == "" || len(tools) == 0 || slices.Contains(tools, "") {
			t.Fatalf("ParseRequirement(%q) = %q, %q", s, name, tools)
		}
		if strings.Contains(name, "=") {
			return // a name cannot hold "=", and the first one splits
		}
		name2, tools2, err := ParseRequirement(name + "=" + strings.Join(tools, ","))
		if err != nil || name2 != name || !slices.Equal(tools2, tools) {
			t.Fatalf("round trip of %q: %q %q %v", s, name2, tools2, err)
		}
	})
}
