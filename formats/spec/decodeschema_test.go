package spec

import (
	"testing"

	"github.com/mcpsync/mcpsync/internal/hcldecode/hcldecodetest"
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
// did before it, the same values and the same diagnostics.
func FuzzDecodeSchema(f *testing.F) {
	for _, id := range BuiltinIDs() {
		src, _ := BuiltinSource(id)
		f.Add(src)
	}
	for _, s := range schemaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { hcldecodetest.Same[fileSchema](t, src) })
}
