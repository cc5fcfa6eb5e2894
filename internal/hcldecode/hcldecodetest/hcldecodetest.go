// Package hcldecodetest holds hcldecode to what it replaces: Same decodes a
// text with hcldecode.Body and with gohcl.DecodeBody and fails the test
// where they differ. Only tests import it, so gohcl stays out of the
// mcpsync binary (cmd/mcpsync's TestLinksNoStartOnlyWeight).
package hcldecodetest

import (
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/mcpsync/mcpsync/internal/hcldecode"
)

// Same parses src and decodes it into two new values of T, one by each
// decoder: the values must be deeply equal and the diagnostics the same
// (gohcl gives them in map order; both are compared sorted). Text that
// does not parse is skipped.
func Same[T any](t *testing.T, src []byte) {
	t.Helper()
	file, diags := hclparse.NewParser().ParseHCL(src, "test.hcl")
	if diags.HasErrors() {
		return
	}
	var ours, theirs T
	got, want := hcldecode.Body(file.Body, &ours), gohcl.DecodeBody(file.Body, nil, &theirs)
	if !reflect.DeepEqual(ours, theirs) {
		t.Fatalf("decoded %q\n  hcldecode: %#v\n      gohcl: %#v", src, ours, theirs)
	}
	if g, w := Texts(got), Texts(want); !slices.Equal(g, w) {
		t.Fatalf("diagnostics of %q\n  hcldecode: %q\n      gohcl: %q", src, g, w)
	}
}

// Texts lists diagnostics as text, place and context included, sorted.
func Texts(ds hcl.Diagnostics) []string {
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
