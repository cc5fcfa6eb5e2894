package spec

import (
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// schemaSeeds are spec texts with the mistakes a hand-written spec makes:
// a value of the wrong type, a block twice, a missing attribute, an
// unknown one, a variable where a constant belongs.
var schemaSeeds = []string{
	`client "x" {
  display_name = "X"
  format = "json"
  servers = "mcpServers"
  windows_cmd = "yes"
  aliases = "one"
  location "project" { path = ["a"] }
  fields { command = 1 }
  fields { args = "args" }
  transport "stdio" {}
  bogus = true
}`,
	`client "x" { format = "json" }`,
	`client "x" "y" {}`,
	`client {}`,
	`client "x" {
  display_name = var.name
  format = "toml"
  servers = upper("x")
  key_order = ["a", null]
  precedence = [1, 2]
  transport "http" { type = "http" }
  transport "sse" { oauth { client_id = true } }
}`,
	`x = 1`,
}

// FuzzDecodeSchema: hcldecode.Body decodes a spec file as gohcl.DecodeBody
// did before it, the same values and the same diagnostics (gohcl gives
// them in map order; they are compared sorted).
func FuzzDecodeSchema(f *testing.F) {
	for _, id := range BuiltinIDs() {
		src, _ := BuiltinSource(id)
		f.Add(src)
	}
	for _, s := range schemaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := hclparse.NewParser().ParseHCL(src, "spec.hcl")
		if diags.HasErrors() {
			return
		}
		var ours, theirs fileSchema
		got, want := decodeSchemaBody(file.Body, &ours), gohcl.DecodeBody(file.Body, nil, &theirs)
		if !reflect.DeepEqual(ours, theirs) {
			t.Fatalf("decoded %q\n ours: %#v\ngohcl: %#v", src, ours, theirs)
		}
		if g, w := diagTexts(got), diagTexts(want); !slices.Equal(g, w) {
			t.Fatalf("diagnostics of %q\n ours: %q\ngohcl: %q", src, g, w)
		}
	})
}

func diagTexts(ds hcl.Diagnostics) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Error()
		if d.Context != nil {
			out[i] += " context " + d.Context.String()
		}
	}
	slices.Sort(out)
	return out
}
