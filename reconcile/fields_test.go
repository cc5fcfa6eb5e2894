package reconcile

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// TestEqualServersHaveEqualFields: servers canonical.Equal calls the same
// (without extras) flatten to the same fields, so that a merge may use
// the store's fields for a client entry equal to the store's server
// (curFields).
func TestEqualServersHaveEqualFields(t *testing.T) {
	base := canonical.Server{Name: "s", Transport: canonical.HTTP, URL: "https://x/mcp",
		Headers: map[string]string{"A": "b"}, Auth: canonical.Auth{BearerTokenEnv: "TOK"}}
	variants := []canonical.Server{
		{Name: "s", URL: "https://x/mcp", Headers: map[string]string{"A": "b"}, Auth: canonical.Auth{BearerTokenEnv: "TOK"}},
		{Name: "s", Transport: canonical.HTTP, URL: "https://x/mcp", Headers: map[string]string{"A": "b", "Authorization": "Bearer ${TOK}"}},
		{Name: "s", Transport: canonical.HTTP, URL: "https://x/mcp", Headers: map[string]string{"A": "b"}, Auth: canonical.Auth{BearerTokenEnv: "TOK", OAuth: &canonical.OAuth{Scopes: []string{}}},
			Args: []string{}, Env: map[string]string{}, Origin: canonical.Pos{File: "f", Line: 3}},
		{Name: "s", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "p"}},
		{Name: "s", Command: "npx", Args: []string{"-y", "p"}, Env: map[string]string{}, ToolsAllow: []string{}},
		{Name: "s", Transport: canonical.HTTP, URL: "https://x/mcp", Headers: map[string]string{"A": "c"}},
	}
	all := append([]canonical.Server{base}, variants...)
	equalPairs := 0
	for _, a := range all {
		for _, b := range all {
			if !canonical.Equal(a, b) {
				continue
			}
			equalPairs++
			if fa, fb := fieldsOf(a), fieldsOf(b); !fa.equal(fb) {
				t.Errorf("Equal servers flatten differently:\n%+v -> %v\n%+v -> %v", a, fa, b, fb)
			}
		}
	}
	if equalPairs <= len(all) {
		t.Fatalf("only %d equal pairs: the variants test nothing beyond each server with itself", equalPairs)
	}
}
