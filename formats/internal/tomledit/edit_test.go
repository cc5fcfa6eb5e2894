package tomledit

import (
	"errors"
	"strings"
	"testing"
)

type editCase struct {
	name string
	in   string
	want []Entry
	out  string
}

func runEditCases(t *testing.T, cases []editCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := d.EditSection("mcp_servers", tc.want)
			if err != nil {
				t.Fatalf("EditSection: %v", err)
			}
			if string(got) != tc.out {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.out)
			}
			// Editing the result to the same entries changes nothing.
			d2, err := Parse(got)
			if err != nil {
				t.Fatalf("Parse of the result: %v", err)
			}
			again, err := d2.EditSection("mcp_servers", tc.want)
			if err != nil || string(again) != string(got) {
				t.Fatalf("second edit changed the file (err %v):\n%s", err, again)
			}
		})
	}
}

func stdio(cmd string, args ...any) Table {
	t := Table{{"command", cmd}}
	if len(args) > 0 {
		t = append(t, Field{"args", args})
	}
	return t
}

func TestEditTables(t *testing.T) {
	const base = `# top comment
model = "o3" # trailing

[mcp_servers.keep] # c2
command = "echo" # c3
env = { A = "1" }
enabled_tools = ["a"]

[mcp_servers.gone]
# about gone
command = "rm"

[mcp_servers.gone.env]
X = "1"

[other]
x = 1
`
	keep := Table{{"command", "echo"}, {"env", Table{{"A", "1"}}}, {"enabled_tools", []any{"a"}}}
	gone := Table{{"command", "rm"}, {"env", Table{{"X", "1"}}}}
	runEditCases(t, []editCase{
		{"identity", base, []Entry{{"keep", keep}, {"gone", gone}}, base},
		{"remove a server with its sub-table", base, []Entry{{"keep", keep}}, `# top comment
model = "o3" # trailing

[mcp_servers.keep] # c2
command = "echo" # c3
env = { A = "1" }
enabled_tools = ["a"]

[other]
x = 1
`},
		{"add after the last server table, before other tables", base,
			[]Entry{{"keep", keep}, {"gone", gone}, {"new1", stdio("echo", "x")}}, `# top comment
model = "o3" # trailing

[mcp_servers.keep] # c2
command = "echo" # c3
env = { A = "1" }
enabled_tools = ["a"]

[mcp_servers.gone]
# about gone
command = "rm"

[mcp_servers.gone.env]
X = "1"

[mcp_servers.new1]
command = "echo"
args = ["x"]

[other]
x = 1
`},
		{"change one key keeps the comments of the others", base,
			[]Entry{{"keep", Table{{"command", "echo2"}, {"env", Table{{"A", "1"}}}, {"enabled_tools", []any{"a"}}}}, {"gone", gone}},
			strings.Replace(base, `command = "echo" # c3`, `command = "echo2" # c3`, 1)},
		{"change inside a sub-table edits only that key", base,
			[]Entry{{"keep", keep}, {"gone", Table{{"command", "rm"}, {"env", Table{{"X", "2"}, {"Y", "3"}}}}}},
			strings.Replace(base, "X = \"1\"\n", "X = \"2\"\nY = \"3\"\n", 1)},
		{"add and remove keys", base,
			[]Entry{{"keep", Table{{"command", "echo"}, {"env", Table{{"A", "1"}}}, {"cwd", "/tmp"}}}, {"gone", gone}},
			strings.Replace(base, "enabled_tools = [\"a\"]\n", "cwd = \"/tmp\"\n", 1)},
		{"a new table value becomes a sub-table", base,
			[]Entry{{"keep", append(keep.clone(), Field{"tools", Table{{"echo", Table{{"approval_mode", "approve"}}}}})}, {"gone", gone}},
			strings.Replace(base, "enabled_tools = [\"a\"]\n", "enabled_tools = [\"a\"]\n\n[mcp_servers.keep.tools.echo]\napproval_mode = \"approve\"\n", 1)},
		{"remove every server", base, nil, `# top comment
model = "o3" # trailing

[other]
x = 1
`},
	})
}

func (t Table) clone() Table { return append(Table(nil), t...) }

func TestEditNewFiles(t *testing.T) {
	runEditCases(t, []editCase{
		{"empty file", "", []Entry{{"a", stdio("npx", "-y", "pkg")}}, "[mcp_servers.a]\ncommand = \"npx\"\nargs = [\"-y\", \"pkg\"]\n"},
		{"no final newline stays so", `model = "x"`, []Entry{{"a", stdio("x")}}, "model = \"x\"\n\n[mcp_servers.a]\ncommand = \"x\""},
		{"CRLF", "model = \"x\"\r\n\r\n[mcp_servers.a]\r\ncommand = \"x\"\r\n",
			[]Entry{{"a", stdio("x")}, {"b", Table{{"url", "https://e.com/mcp"}, {"http_headers", Table{{"X-K", "v"}}}}}},
			"model = \"x\"\r\n\r\n[mcp_servers.a]\r\ncommand = \"x\"\r\n\r\n[mcp_servers.b]\r\nurl = \"https://e.com/mcp\"\r\n\r\n[mcp_servers.b.http_headers]\r\nX-K = \"v\"\r\n"},
		{"BOM kept when the first table goes", "\xef\xbb\xbf[mcp_servers.a]\ncommand = \"x\"\n\n[other]\ny = 1\n", nil, "\xef\xbb\xbf[other]\ny = 1\n"},
		{"quoted names", "[mcp_servers.\"dotted.name\"]\ncommand = \"true\"\n",
			[]Entry{{"dotted.name", stdio("false")}, {"io.github.owner/repo", stdio("x")}, {"bad name", stdio("y")}},
			"[mcp_servers.\"dotted.name\"]\ncommand = \"false\"\n\n[mcp_servers.\"io.github.owner/repo\"]\ncommand = \"x\"\n\n[mcp_servers.\"bad name\"]\ncommand = \"y\"\n"},
		{"a server table after other tables", "[mcp_servers.a]\ncommand = \"x\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n\n[mcp_servers.b]\ncommand = \"y\"\n\n[tail]\nz = 1\n",
			[]Entry{{"a", stdio("x")}, {"b", stdio("y")}, {"c", stdio("z")}},
			"[mcp_servers.a]\ncommand = \"x\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n\n[mcp_servers.b]\ncommand = \"y\"\n\n[mcp_servers.c]\ncommand = \"z\"\n\n[tail]\nz = 1\n"},
		{"comments between servers stay", "[mcp_servers.a]\ncommand = \"x\"\n\n# [mcp_servers.old]\n# command = \"o\"\n\n[mcp_servers.b]\ncommand = \"y\"\n",
			[]Entry{{"b", stdio("y")}},
			"# [mcp_servers.old]\n# command = \"o\"\n\n[mcp_servers.b]\ncommand = \"y\"\n"},
	})
}

func TestEditOtherShapes(t *testing.T) {
	runEditCases(t, []editCase{
		{"inline server", "[mcp_servers]\na = { command = \"x\" } # keep\nb = { command = \"y\" }\n",
			[]Entry{{"a", stdio("x", "1")}},
			"[mcp_servers]\na = { command = \"x\", args = [\"1\"] } # keep\n"},
		{"dotted server", "[mcp_servers]\na.command = \"x\"\n# note\na.args = [\"1\"]\n",
			[]Entry{{"a", Table{{"command", "x"}, {"args", []any{"2"}}, {"env", Table{{"K", "v"}}}}}},
			"[mcp_servers]\na.command = \"x\"\n# note\na.args = [\"2\"]\na.env = { K = \"v\" }\n"},
		{"dotted server gets a new table server after it", "[mcp_servers]\na.command = \"x\"\n",
			[]Entry{{"a", stdio("x")}, {"b", stdio("y")}},
			"[mcp_servers]\na.command = \"x\"\n\n[mcp_servers.b]\ncommand = \"y\"\n"},
		{"dotted env keys", "[mcp_servers.a]\ncommand = \"x\"\nenv.A = \"1\"\nenv.B = \"2\"\n",
			[]Entry{{"a", Table{{"command", "x"}, {"env", Table{{"A", "1"}, {"B", "3"}}}}}},
			"[mcp_servers.a]\ncommand = \"x\"\nenv.A = \"1\"\nenv.B = \"3\"\n"},
		{"root dotted server", "mcp_servers.a.command = \"x\"\n",
			[]Entry{{"a", stdio("z")}},
			"mcp_servers.a.command = \"z\"\n"},
		{"whole section inline: change only", "mcp_servers = { a = { command = \"x\" }, b = { command = \"y\" } }\n",
			[]Entry{{"a", stdio("x")}, {"b", stdio("w")}},
			"mcp_servers = { a = { command = \"x\" }, b = { command = \"w\" } }\n"},
		{"whole section inline: remove and add", "mcp_servers = { a = { command = \"x\" }, b = { command = \"y\" } }\n",
			[]Entry{{"b", stdio("y")}, {"c", stdio("z")}},
			"mcp_servers = { b = { command = \"y\" }, c = { command = \"z\" } }\n"},
		{"whole section inline: remove all", "mcp_servers = { a = { command = \"x\" } }\n", nil, "mcp_servers = {}\n"},
		{"server made of sub-tables only", "[mcp_servers.a.env]\nK = \"v\"\n\n[x]\ny = 1\n",
			[]Entry{{"a", Table{{"command", "c"}, {"env", Table{{"K", "v"}}}}}},
			"[mcp_servers.a]\ncommand = \"c\"\n\n[mcp_servers.a.env]\nK = \"v\"\n\n[x]\ny = 1\n"},
		{"multi-line values", "[mcp_servers.a]\ncommand = \"x\"\nargs = [\n  \"a\", # first\n  \"b\",\n]\nenv = { K = \"v\" }\n",
			[]Entry{{"a", Table{{"command", "x"}, {"args", []any{"a", "b"}}}}},
			"[mcp_servers.a]\ncommand = \"x\"\nargs = [\n  \"a\", # first\n  \"b\",\n]\n"},
		{"multi-line string that looks like a table", "[mcp_servers.a]\ncommand = \"x\"\ndescription = \"\"\"\n[mcp_servers.fake]\n\"\"\"\n",
			[]Entry{{"a", Table{{"command", "y"}, {"description", "[mcp_servers.fake]\n"}}}},
			"[mcp_servers.a]\ncommand = \"y\"\ndescription = \"\"\"\n[mcp_servers.fake]\n\"\"\"\n"},
	})
}

func TestEditRefusesWhatItCannotProve(t *testing.T) {
	d, err := Parse([]byte("[mcp_servers.a]\ncommand = \"x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	// Invalid UTF-8 cannot be written as TOML; the check after the edit
	// catches the difference.
	_, err = d.EditSection("mcp_servers", []Entry{{"a", stdio("\xff")}})
	if !errors.Is(err, ErrUnverified) {
		t.Fatalf("want ErrUnverified, got %v", err)
	}
	if _, err := d.EditSection("mcp_servers", []Entry{{"a", stdio("x")}, {"a", stdio("y")}}); !errors.Is(err, ErrUnverified) {
		t.Fatalf("duplicate names: want ErrUnverified, got %v", err)
	}
	d, _ = Parse([]byte("mcp_servers = 1\n"))
	if _, err := d.EditSection("mcp_servers", nil); !errors.Is(err, ErrUnverified) {
		t.Fatalf("section not a table: want ErrUnverified, got %v", err)
	}
}

func TestParseErrorHasPosition(t *testing.T) {
	_, err := Parse([]byte("[mcp_servers.a\ncommand = \"x\"\n"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Column < 1 {
		t.Fatalf("want a SyntaxError at line 1, got %#v", err)
	}
}

func TestPositions(t *testing.T) {
	src := "\xef\xbb\xbfmodel = 1\n[mcp_servers.a]\ncommand = \"x\"\nenv = { N = 1 }\n[mcp_servers.a.tools.echo]\nx = 1\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path      []string
		line, col int
	}{
		{[]string{"model"}, 1, 1},
		{[]string{"mcp_servers", "a"}, 2, 1},
		{[]string{"mcp_servers", "a", "command"}, 3, 1},
		{[]string{"mcp_servers", "a", "env", "N"}, 4, 9},
		{[]string{"mcp_servers", "a", "tools", "echo", "x"}, 6, 1},
	} {
		if l, c := d.Pos(tc.path...); l != tc.line || c != tc.col {
			t.Errorf("Pos(%v) = %d:%d, want %d:%d", tc.path, l, c, tc.line, tc.col)
		}
	}
	if got := d.Keys("mcp_servers", "a"); strings.Join(got, ",") != "command,env,tools" {
		t.Errorf("Keys = %v", got)
	}
}

// A sub-table may come before its parent's own header ([a.b] then [a]);
// the parent is where its header is, not where a sub-table first named it,
// so that an error about the server points at the server's table.
func TestPositionOfATableDeclaredAfterItsSubTable(t *testing.T) {
	src := "[mcp_servers.s.env]\nA = \"b\"\n[mcp_servers.r]\nurl = \"\"\n[mcp_servers.s]\nurl = \"https://e\"\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if l, c := d.Pos("mcp_servers", "s"); l != 5 || c != 1 {
		t.Errorf("Pos(mcp_servers.s) = %d:%d, want 5:1 (its header)", l, c)
	}
	if l, _ := d.Pos("mcp_servers"); l != 1 {
		t.Errorf("Pos(mcp_servers) = line %d, want 1 (never declared: where it is first named)", l)
	}
}

func TestEditSeveralNewTablesInAnEmptyFile(t *testing.T) {
	runEditCases(t, []editCase{
		{"two servers with sub-tables", "", []Entry{
			{"a", Table{{"command", "x"}, {"env", Table{{"K", "v"}}}}},
			{"b", stdio("y")},
		}, "[mcp_servers.a]\ncommand = \"x\"\n\n[mcp_servers.a.env]\nK = \"v\"\n\n[mcp_servers.b]\ncommand = \"y\"\n"},
	})
}

// A key a dotted key of the same table already made a table (a.b = 1, then
// a = 2) is refused where it is set, as TOML and Codex refuse it:
// BurntSushi/toml lets it through and drops the value, and an edit of the
// section then rewrote bytes outside the entry it edited (FuzzConformance
// in formats/codex found it). The same key in another element of an array
// of tables is another key.
func TestValueOverDottedTableRefused(t *testing.T) {
	for src, at := range map[string][2]int{
		"[mcp_servers]      #c\n0.command=\"0\"\n0=\"\"": {3, 1},
		"a.b = 1\na = 2\n":                 {2, 1},
		"[t]\nx = 1\na.b.c = 1\na.b = 2\n": {4, 1},
		"x = {a.b = 1, a = 2}\n":           {1, 15},
	} {
		_, err := Parse([]byte(src))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != at[0] || se.Column != at[1] || !strings.Contains(se.Msg, "already made it a table") {
			t.Errorf("%q: want a SyntaxError at %d:%d, got %v", src, at[0], at[1], err)
		}
	}
	for _, src := range []string{"[[x]]\nb.c = 1\n[[x]]\nb = 2\n", "[a]\nb.c = 1\n[d]\nb = 2\n", "a.b = 1\na.c = 2\n"} {
		if _, err := Parse([]byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
