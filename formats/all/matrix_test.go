package all

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// richSet exercises every part of the model a client may or may not have:
// stdio with environment references, a default, cwd and timeouts; remote
// servers over streamable HTTP and SSE with header references and OAuth; a
// disabled server; tool filters.
func richSet() canonical.Set {
	return canonical.Set{Servers: []canonical.Server{
		{Name: "github", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}", "GITHUB_TOOLSETS": "repos,issues"}},
		{Name: "git", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-git", "--repository", "${REPO:-.}"},
			Cwd: "/work/repo", StartupTimeout: 20 * time.Second, ToolTimeout: 60 * time.Second},
		{Name: "linear", Transport: canonical.HTTP, URL: "https://mcp.linear.app/mcp",
			Headers: map[string]string{"Authorization": "Bearer ${LINEAR_API_KEY}"}},
		{Name: "events", Transport: canonical.SSE, URL: "https://example.com/sse", Headers: map[string]string{"X-Key": "${EVENTS_KEY}"}},
		{Name: "off", Transport: canonical.Stdio, Command: "node", Args: []string{"server.js"}, Disabled: true},
		{Name: "files", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"},
			ToolsAllow: []string{"read_file", "list_directory"}, ToolsDeny: []string{"write_file"}},
		{Name: "oauth", Transport: canonical.HTTP, URL: "https://example.com/oauth/mcp",
			Auth: canonical.Auth{OAuth: &canonical.OAuth{ClientID: "cid", Scopes: []string{"read"}, CallbackPort: 8765}}},
	}}
}

// hop writes set as a new file of a and reads it back.
func hop(t *testing.T, a formats.Adapter, set canonical.Set) (canonical.Set, canonical.Diagnostics) {
	t.Helper()
	loc := formatstest.DefaultLocation(a)
	out, diags := a.Encode(loc, nil, set, formats.EncodeOptions{OS: formatstest.Env.OS})
	if diags.HasErrors() {
		t.Fatalf("%s: Encode: %s", a.ID(), formatstest.FormatDiags(diags))
	}
	back, bdiags := a.Decode(loc, out)
	if bdiags.HasErrors() {
		t.Fatalf("%s: what Encode wrote does not decode: %s\n%s", a.ID(), formatstest.FormatDiags(bdiags), out)
	}
	for _, s := range back.Servers {
		s.Origin = canonical.Pos{}
	}
	return back, append(diags, bdiags...)
}

// TestMatrix converts the rich set through every ordered pair of clients,
// A then B, and reads it back: every field that did not survive must be one
// a warning named, for that server. go test -v -run Matrix prints what each
// client cannot hold.
func TestMatrix(t *testing.T) {
	adapters := NewRegistry(Options{}).All()
	want := richSet()
	lossy := map[string][]formatstest.Difference{}
	for _, a := range adapters {
		t.Run(a.ID(), func(t *testing.T) {
			gotA, diagsA := hop(t, a, want)
			diffsA := formatstest.Differences(want, gotA, "")
			if un := formatstest.Uncovered(diffsA, diagsA); len(un) > 0 {
				t.Errorf("%s lost these without a warning:\n%s", a.ID(), lines(un))
			}
			lossy[a.ID()] = diffsA
			for _, b := range adapters {
				t.Run(b.ID(), func(t *testing.T) {
					gotB, diagsB := hop(t, b, gotA)
					diffs := formatstest.Differences(want, gotB, "")
					if un := formatstest.Uncovered(diffs, append(slices.Clone(diagsA), diagsB...)); len(un) > 0 {
						t.Errorf("%s then %s lost these without a warning:\n%s", a.ID(), b.ID(), lines(un))
					}
				})
			}
		})
	}
	if testing.Verbose() {
		t.Logf("what each client cannot hold of the rich set (each a warning when written):\n%s", lossyTable(adapters, lossy))
	}
}

func lines(ds []formatstest.Difference) string {
	var s []string
	for _, d := range ds {
		s = append(s, "  "+d.String())
	}
	return strings.Join(s, "\n")
}

func lossyTable(adapters []formats.Adapter, lossy map[string][]formatstest.Difference) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "client\tlossy fields (server: field)")
	for _, a := range adapters {
		var parts []string
		for _, d := range lossy[a.ID()] {
			f := d.Field
			if f == "" {
				f = "not written"
			}
			parts = append(parts, d.Server+": "+f)
		}
		if len(parts) == 0 {
			parts = []string{"none"}
		}
		fmt.Fprintf(w, "%s\t%s\n", a.ID(), strings.Join(parts, ", "))
	}
	w.Flush()
	return b.String()
}
