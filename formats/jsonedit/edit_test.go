package jsonedit

import (
	"encoding/json"
	"strings"
	"testing"
)

type op struct {
	kind  string // set, del, append
	path  []string
	value any
}

func set(v any, path ...string) op    { return op{"set", path, v} }
func del(path ...string) op           { return op{"del", path, nil} }
func add(o Object, path ...string) op { return op{"append", path, o} }

func run(t *testing.T, in string, ops ...op) string {
	t.Helper()
	d, err := Parse([]byte(in))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, o := range ops {
		switch o.kind {
		case "set":
			err = d.Set(o.path, o.value)
		case "del":
			_, err = d.Delete(o.path)
		case "append":
			err = d.Append(o.path, o.value.(Object)...)
		}
		if err != nil {
			t.Fatalf("%s %q: %v", o.kind, o.path, err)
		}
	}
	out, err := d.Bytes()
	if err != nil {
		t.Fatalf("Bytes: %v", err)
	}
	if _, err := Parse(out); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, out)
	}
	return string(out)
}

func TestEdits(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ops  []op
		want string
	}{
		{
			name: "replace a value in place keeps comments and position",
			in: `{
  // servers
  "mcpServers": {
    "a": { "command": "x" }, // first
    "b": {"command": "y"}
  }
}
`,
			ops: []op{set("z", "mcpServers", "a", "command")},
			want: `{
  // servers
  "mcpServers": {
    "a": { "command": "z" }, // first
    "b": {"command": "y"}
  }
}
`,
		},
		{
			name: "append after a last member with a comment on its line",
			in: `{
  "mcpServers": {
    "a": {
      "command": "x"
    } // keep me
  }
}`,
			ops: []op{set(Object{{"command", "y"}, {"args", []string{"-y", "p"}}}, "mcpServers", "b")},
			want: `{
  "mcpServers": {
    "a": {
      "command": "x"
    }, // keep me
    "b": {
      "command": "y",
      "args": [
        "-y",
        "p"
      ]
    }
  }
}`,
		},
		{
			name: "trailing commas stay and the new member gets one",
			in:   "{\n\t\"mcp\": {\n\t\t\"a\": {\"type\": \"local\",},\n\t},\n}\n",
			ops:  []op{set(Object{{"type", "remote"}}, "mcp", "b")},
			want: "{\n\t\"mcp\": {\n\t\t\"a\": {\"type\": \"local\",},\n\t\t\"b\": {\n\t\t\t\"type\": \"remote\"\n\t\t},\n\t},\n}\n",
		},
		{
			name: "empty object in a multi-line file",
			in:   "{\n    \"mcpServers\": {}\n}\n",
			ops:  []op{set("x", "mcpServers", "s", "command")},
			want: "{\n    \"mcpServers\": {\n        \"s\": {\n            \"command\": \"x\"\n        }\n    }\n}\n",
		},
		{
			name: "empty object with a comment inside",
			in:   "{\n  \"servers\": { // none yet\n  }\n}",
			ops:  []op{set(Object{{"url", "u"}}, "servers", "s")},
			want: "{\n  \"servers\": { // none yet\n    \"s\": {\n      \"url\": \"u\"\n    }\n  }\n}",
		},
		{
			name: "one-line file stays on one line",
			in:   `{"mcpServers":{"a":{"command":"true"}}}`,
			ops:  []op{set(Object{{"command", "false"}}, "mcpServers", "b")},
			want: `{"mcpServers":{"a":{"command":"true"},"b":{"command":"false"}}}`,
		},
		{
			name: "delete a middle member with its line and comment",
			in: `{
  "s": {
    "a": 1,
    // about b
    "b": 2, // b itself
    "c": 3
  }
}
`,
			ops: []op{del("s", "b")},
			want: `{
  "s": {
    "a": 1,
    // about b
    "c": 3
  }
}
`,
		},
		{
			name: "delete the last member takes the comma before it",
			in:   "{\n  \"s\": {\n    \"a\": 1, // a\n    \"b\": 2\n  }\n}\n",
			ops:  []op{del("s", "b")},
			want: "{\n  \"s\": {\n    \"a\": 1 // a\n  }\n}\n",
		},
		{
			name: "delete the only member leaves {}",
			in:   "{\n  \"s\": {\n    \"a\": {\n      \"x\": 1\n    }\n  },\n  \"t\": true\n}\n",
			ops:  []op{del("s", "a")},
			want: "{\n  \"s\": {},\n  \"t\": true\n}\n",
		},
		{
			name: "delete inline members",
			in:   `{"s":{"a":1,"b":2,"c":3}}`,
			ops:  []op{del("s", "a"), del("s", "c")},
			want: `{"s":{"b":2}}`,
		},
		{
			name: "CRLF, BOM and no final newline are kept",
			in:   "\ufeff{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"x\"}\r\n  }\r\n}",
			ops:  []op{set(Object{{"command", "y"}}, "mcpServers", "b")},
			want: "\ufeff{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"x\"},\r\n    \"b\": {\r\n      \"command\": \"y\"\r\n    }\r\n  }\r\n}",
		},
		{
			name: "names that need escaping elsewhere",
			in:   "{\n  \"m\": {\n    \"a/b\": 1\n  }\n}\n",
			ops:  []op{set(2, "m", "a/b"), set(3, "m", "x~y"), set(4, "m", "dot.name"), set(5, "m", "space name"), set(6, "m", "ünï")},
			want: "{\n  \"m\": {\n    \"a/b\": 2,\n    \"x~y\": 3,\n    \"dot.name\": 4,\n    \"space name\": 5,\n    \"ünï\": 6\n  }\n}\n",
		},
		{
			name: "missing wrappers are created",
			in:   "{\n  \"projects\": {\n    \"/other\": {}\n  },\n  \"x\": 1\n}\n",
			ops:  []op{set(Object{{"command", "c"}}, "projects", "/p/q", "mcpServers", "s")},
			want: "{\n  \"projects\": {\n    \"/other\": {},\n    \"/p/q\": {\n      \"mcpServers\": {\n        \"s\": {\n          \"command\": \"c\"\n        }\n      }\n    }\n  },\n  \"x\": 1\n}\n",
		},
		{
			name: "an empty text gets a new object",
			in:   "",
			ops:  []op{set(Object{{"command", "c"}}, "mcpServers", "s")},
			want: "{\n  \"mcpServers\": {\n    \"s\": {\n      \"command\": \"c\"\n    }\n  }\n}\n",
		},
		{
			name: "a text of comments keeps them",
			in:   "// my settings\n",
			ops:  []op{set(true, "a")},
			want: "// my settings\n{\n  \"a\": true\n}\n",
		},
		{
			name: "setting the same value changes nothing",
			in:   "{ \"a\" : [ 1,2 ] , \"b\": \"x\" }",
			ops:  []op{set("x", "b")},
			want: "{ \"a\" : [ 1,2 ] , \"b\": \"x\" }",
		},
		{
			name: "an inline array is replaced inline",
			in:   "{\n  \"args\": [\"-y\", \"a\"]\n}\n",
			ops:  []op{set([]string{"-y", "b", "c"}, "args")},
			want: "{\n  \"args\": [\"-y\", \"b\", \"c\"]\n}\n",
		},
		{
			name: "an empty env becomes multi-line",
			in:   "{\n  \"env\": {}\n}",
			ops:  []op{set(map[string]string{"B": "2", "A": "1"}, "env")},
			want: "{\n  \"env\": {\n    \"A\": \"1\",\n    \"B\": \"2\"\n  }\n}",
		},
		{
			name: "several edits in one object",
			in:   "{\n  \"s\": {\n    \"a\": 1,\n    \"b\": 2,\n    \"c\": 3\n  }\n}\n",
			ops:  []op{set(10, "s", "a"), del("s", "c"), del("s", "b"), add(Object{{"d", 4}, {"e", 5}}, "s")},
			want: "{\n  \"s\": {\n    \"a\": 10,\n    \"d\": 4,\n    \"e\": 5\n  }\n}\n",
		},
		{
			name: "raw JSON is laid out in the file's style",
			in:   "{\n\t\"s\": {}\n}\n",
			ops:  []op{set(json.RawMessage(`{"watch":"src/**","debug":{"type":"node"}}`), "s", "dev")},
			want: "{\n\t\"s\": {\n\t\t\"dev\": {\n\t\t\t\"watch\": \"src/**\",\n\t\t\t\"debug\": {\n\t\t\t\t\"type\": \"node\"\n\t\t\t}\n\t\t}\n\t}\n}\n",
		},
		{
			name: "strings are not HTML-escaped",
			in:   "{}",
			ops:  []op{set("a<b>&\"c\"", "k")},
			want: "{\"k\": \"a<b>&\\\"c\\\"\"}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, tt.in, tt.ops...)
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestStyle(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Style
	}{
		{"{\n  \"a\": 1\n}\n", Style{Indent: "  ", Newline: "\n", FinalNewline: true}},
		{"{\n    \"a\": {\n        \"b\": 1\n    }\n}", Style{Indent: "    ", Newline: "\n"}},
		{"{\r\n\t\"a\": 1\r\n}\r\n", Style{Indent: "\t", Newline: "\r\n", FinalNewline: true}},
		{"\ufeff{\"a\": {\n      \"b\": 1}}", Style{Indent: "   ", Newline: "\n", BOM: true}},
	} {
		d, err := Parse([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Style(); got != tt.want {
			t.Errorf("Style(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, err := Parse([]byte("{\n  \"a\": 1,\n  \"b\" 2\n}"))
	se, ok := err.(*SyntaxError)
	if !ok {
		t.Fatalf("err = %v (%T), want *SyntaxError", err, err)
	}
	if se.Line != 3 || se.Column != 7 {
		t.Errorf("position = %d:%d, want 3:7 (%v)", se.Line, se.Column, se)
	}
	if !strings.Contains(se.Msg, "after object name") {
		t.Errorf("message %q does not say what is wrong", se.Msg)
	}
}

func TestFindAndPositions(t *testing.T) {
	d, err := Parse([]byte("\ufeff{\n  \"a/b\": {\"x~y\": [1, \"two\"]},\n  \"a/b\": {\"x~y\": 3}\n}"))
	if err != nil {
		t.Fatal(err)
	}
	n := d.Find("a/b", "x~y")
	if f, ok := n.Float(); !ok || f != 3 {
		t.Errorf("Find gave %s, want the last duplicate (3)", n.Raw())
	}
	if line, col := n.Pos(); line != 3 || col != 18 {
		t.Errorf("Pos = %d:%d, want 3:18", line, col)
	}
	if got := string(d.Root().Members()[0].Value.JSON()); got != `{"x~y":[1,"two"]}` {
		t.Errorf("JSON = %s", got)
	}
}

func TestExtension(t *testing.T) {
	d, _ := Parse([]byte("{\n  \"a\": [1, 2,], // c\n}"))
	comment, comma := d.Extension()
	if comment != 18 || comma != 14 {
		t.Errorf("Extension = %d, %d; want 18, 14", comment, comma)
	}
	d, _ = Parse([]byte(`{"a": "//not a comment"}`))
	if c, tc := d.Extension(); c != -1 || tc != -1 {
		t.Errorf("Extension of standard JSON = %d, %d", c, tc)
	}
}

func TestSetThroughNonObject(t *testing.T) {
	d, _ := Parse([]byte(`{"mcpServers": [1]}`))
	if err := d.Set([]string{"mcpServers", "a"}, 1); err == nil || !strings.Contains(err.Error(), "not an object") {
		t.Errorf("err = %v, want a not-an-object error", err)
	}
	d, _ = Parse([]byte(`[]`))
	if err := d.Set([]string{"a"}, 1); err == nil {
		t.Error("Set on an array document succeeded")
	}
}

func TestArrayEdits(t *testing.T) {
	tests := []struct {
		name string
		in   string
		do   func(d *Doc) error
		want string
	}{
		{
			name: "append to a multi-line array of objects",
			in:   "{\n  \"inputs\": [\n    {\"id\": \"a\"} // mine\n  ]\n}\n",
			do: func(d *Doc) error {
				return d.AppendElements([]string{"inputs"}, Object{{"type", "promptString"}, {"id", "b"}})
			},
			want: "{\n  \"inputs\": [\n    {\"id\": \"a\"}, // mine\n    {\n      \"type\": \"promptString\",\n      \"id\": \"b\"\n    }\n  ]\n}\n",
		},
		{
			name: "append to an empty array",
			in:   "{\n\t\"inputs\": []\n}",
			do:   func(d *Doc) error { return d.AppendElements([]string{"inputs"}, "x") },
			want: "{\n\t\"inputs\": [\n\t\t\"x\"\n\t]\n}",
		},
		{
			name: "append inline",
			in:   `{"a": [1, 2]}`,
			do:   func(d *Doc) error { return d.AppendElements([]string{"a"}, 3, 4) },
			want: `{"a": [1, 2, 3, 4]}`,
		},
		{
			name: "delete the middle element",
			in:   "{\n  \"a\": [\n    1,\n    2, // two\n    3\n  ]\n}",
			do:   func(d *Doc) error { _, err := d.DeleteElement([]string{"a"}, 1); return err },
			want: "{\n  \"a\": [\n    1,\n    3\n  ]\n}",
		},
		{
			name: "delete the last element",
			in:   `{"a": [1, 2, 3]}`,
			do:   func(d *Doc) error { _, err := d.DeleteElement([]string{"a"}, 2); return err },
			want: `{"a": [1, 2]}`,
		},
		{
			name: "delete the only element",
			in:   "{\n  \"a\": [\n    {\"id\": 1}\n  ]\n}",
			do:   func(d *Doc) error { _, err := d.DeleteElement([]string{"a"}, 0); return err },
			want: "{\n  \"a\": []\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.do(d); err != nil {
				t.Fatal(err)
			}
			out, err := d.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tt.want)
			}
		})
	}
}
