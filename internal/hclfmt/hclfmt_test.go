package hclfmt

import (
	"bytes"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"
)

// formatSeeds are HCL texts of the kinds the store writes (server blocks
// with lists, objects, nested blocks, templates, calls, numbers) and some
// it never writes, where hclwrite's rules still decide.
var formatSeeds = []string{
	"",
	"\n",
	"a=1\n",
	"server \"x\" {\ncommand = \"npx\"\nargs = [\"-y\", \"pkg\"]\nenv = { A = \"1\", BB = env(\"X\") }\n}\n",
	"server \"x\" {\n  url = \"https://x/${env(\"HOST\")}/mcp\"\n  headers = {\n    Authorization = \"Bearer ${env(\"TOKEN\")}\"\n    \"X-Very-Long-Header\" = \"v\"\n  }\n  oauth {\n    client_id = \"id\"\n    scopes = [\"a\", \"b\"]\n    callback_port = 8080\n  }\n  extra \"vscode\" {\n    gallery = true\n    n = -1\n    nested = { a = [1, -2.5, null], \"b c\" = { d = \"e\" } }\n  }\n}\n",
	"a = [\n\"x\",\n\"y\",\n]\nbb = {\nk = 1\nlonger_key = 2\n}\n",
	"  a   =    1 # one\nlonger   = 2 // two\n\n  c = 3\n",
	"block {\n  nested {\n    x = 1\n  }\n}\n",
	"x = a.b[0] + -1 * (2 - 3)\ny = !true && f(1, 2...)\nz = [for v in [foo]: v if v != null]\n",
	"h = <<EOT\n  text\nEOT\nk = 1\n",
	"s = \"${ {a = 1} }\"\nt = \"%{ if x }y%{ endif }\"\n",
	"\"quoted\" = \"é\"\nkey = \"日本\"\n",
	"a = {}\nb = []\nc = ()\n",
	"x = provider::p::f(1)\n",
	"a = 1\r\nbb = 2\r\n",
	"unclosed = [\n1,\n",
	"}}}\nx = 1\n{{{\n",
	"a /* one\ntwo */ = 1\nbb = 2 # e\u0301\n",
	"k /* \U0001F469\u200d\U0001F4BB\n */ = \"v\"\nlonger = 1\n",
}

// FuzzFormat: Format lays out any text exactly as hclwrite.Format does.
func FuzzFormat(f *testing.F) {
	for _, s := range formatSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want := hclwrite.Format(bytes.Clone(src))
		if got := Format(src); !bytes.Equal(got, want) {
			t.Fatalf("Format(%q)\n got: %q\nwant: %q", src, got, want)
		}
	})
}

// TestFormatAligns: the store's own case, a block's attributes and a
// multi-line object's keys each aligned by their '=', indented by nesting.
func TestFormatAligns(t *testing.T) {
	in := "server \"x\" {\ncommand = \"npx\"\nargs = [\"-y\"]\nenv = {\nA = \"1\"\nLONGER = \"2\"\n}\n}\n"
	want := "server \"x\" {\n  command = \"npx\"\n  args    = [\"-y\"]\n  env = {\n    A      = \"1\"\n    LONGER = \"2\"\n  }\n}\n"
	if got := string(Format([]byte(in))); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
}
