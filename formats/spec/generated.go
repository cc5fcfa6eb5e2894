package spec

import (
	"hash/fnv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The built-in specs are decoded ahead, at development time: builtin_gen.go
// holds what decodeSchema decodes each builtin/*.hcl into (TestBuiltinGenIsCurrent
// writes it with -update, and fails when it is not what the .hcl files
// decode to). Parsing and decoding the 27 built-in specs took 23 to 30 ms
// of CPU and 7 MB (a third of it reflection over the schema's struct
// tags, then by gohcl), which every command that looks at every client (sync,
// clients, doctor, an export --to all) paid at each start; building them
// from their decoded schemas takes a tenth of that (BenchmarkBuiltinSpecs).
// Their expressions (paths, server keys) are written as the syntax nodes
// HCL's parser makes of them, places included, or, for the forms the
// generator does not write (function calls, conditionals), parsed from the
// embedded source at their recorded place (exprReader): what a spec
// evaluates and every position it reports are the source's. A source that
// is not the one the schema was decoded from (its length or hash differ)
// is parsed as before.

// sourceHash is the hash builtin_gen.go records of each spec's source.
func sourceHash(src []byte) uint64 {
	h := fnv.New64a()
	h.Write(src)
	return h.Sum64()
}

// exprReader parses the expressions of one built-in spec from its source.
type exprReader struct {
	src    []byte
	failed bool
}

// at parses the expression at r. A failure (the source is not the one the
// schema was decoded from, which the length and hash should have caught)
// makes done return nil, and the spec is parsed from its source instead.
func (x *exprReader) at(r hcl.Range) hcl.Expression {
	if r.Start.Byte < 0 || r.End.Byte > len(x.src) || r.Start.Byte > r.End.Byte {
		x.failed = true
		return nil
	}
	e, diags := hclsyntax.ParseExpression(x.src[r.Start.Byte:r.End.Byte], r.Filename, r.Start)
	if diags.HasErrors() {
		x.failed = true
		return nil
	}
	return e
}

func (x *exprReader) done(c *clientSchema) *clientSchema {
	if x.failed {
		return nil
	}
	return c
}

func boolPtr(b bool) *bool { return &b }
