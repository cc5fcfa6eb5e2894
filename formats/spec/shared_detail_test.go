package spec_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// TestWarningsShareTheirDetail: the warnings of one encoding that say the
// same thing of different servers hold one copy of their detail text.
// Cursor writes an sse server as an http entry, with a warning for each:
// at 10,000 servers to every client, a copy per server and client was
// about 12 MB of the plan's heap.
func TestWarningsShareTheirDetail(t *testing.T) {
	a := spec.BuiltinAdapter("cursor", nil)
	var want canonical.Set
	for i := range 3 {
		want.Servers = append(want.Servers, canonical.Server{Name: fmt.Sprintf("sse-%d", i), Transport: canonical.SSE, URL: fmt.Sprintf("https://mcp%d.example.com/sse", i)})
	}
	_, ds := a.Encode(formatstest.DefaultLocation(a), nil, want, formats.EncodeOptions{OS: "linux"})
	var details []string
	for _, d := range ds {
		if d.Field == "transport" {
			details = append(details, d.Detail)
		}
	}
	if len(details) != 3 {
		t.Fatalf("want a transport warning for each of the 3 sse servers, got %d: %v", len(details), ds)
	}
	for _, d := range details[1:] {
		if d != details[0] {
			t.Fatalf("the warnings differ in their detail: %q and %q", details[0], d)
		}
		if unsafe.StringData(d) != unsafe.StringData(details[0]) {
			t.Errorf("the warnings hold a copy each of their detail %q", d)
		}
	}
}
