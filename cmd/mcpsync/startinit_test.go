//go:build unix

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initLine is one package's line of GODEBUG=inittrace=1: its
// initialisation's clock time, bytes and allocations.
var initLine = regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes, ([0-9]+) allocs$`)

// TestStartCompilesNoJSONSchema holds the patch in third_party/jsonschema:
// santhosh-tekuri/jsonschema (linked by mcp-go's server, which serve and
// probe need) compiled every JSON Schema draft's metaschema in its init,
// 9 ms and 21,000 allocations at the start of every command. Upstream, or
// the replace directive in go.mod gone, this fails.
func TestStartCompilesNoJSONSchema(t *testing.T) {
	bin := mcpsyncBinary(t)
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcpsync version: %v\n%s", err, out)
	}
	found := false
	for _, m := range initLine.FindAllStringSubmatch(string(out), -1) {
		if m[1] != "github.com/santhosh-tekuri/jsonschema/v6" {
			continue
		}
		found = true
		allocs, _ := strconv.Atoi(m[4])
		// The package's own tables (formats, decoders, media types) take
		// ~160 allocations; the metaschemas took 21,285.
		if allocs > 1000 {
			t.Errorf("jsonschema's init made %d allocations (%s bytes, %s ms): the draft metaschemas are compiled at start again; is go.mod's replace of it to ./third_party/jsonschema gone?", allocs, m[3], m[2])
		}
	}
	if !found {
		t.Skipf("no init line for santhosh-tekuri/jsonschema in the trace (is it still linked?):\n%s", out)
	}
}

// TestLinksNoStartOnlyWeight holds what internal/hclfmt and
// internal/hcldecode replaced: hclwrite (and gohcl, which imports it)
// linked github.com/google/go-cmp, whose init compiled regular expressions
// at the start of every command (about 70 page faults and 3 ms of a 21 ms
// start here). A change that imports either again fails here.
func TestLinksNoStartOnlyWeight(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "github.com/google/go-cmp/cmp", "github.com/hashicorp/hcl/v2/hclwrite", "github.com/hashicorp/hcl/v2/gohcl":
			t.Errorf("mcpsync links %s again: use internal/hclfmt (for hclwrite.Format) or internal/hcldecode (for gohcl.DecodeBody)", pkg)
		}
	}
}
