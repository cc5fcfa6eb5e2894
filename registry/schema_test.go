package registry

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// compile loads the registry API's published response schemas.
func compile(t *testing.T, def string) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile("testdata/registry-openapi-schemas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(doc)
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "https://registry.example/openapi.json"
	if err := c.AddResource(url, parsed); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url + "#/components/schemas/" + def)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, data []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// Every file a built registry serves has the shape the registry API's
// OpenAPI document gives its answers; a document that breaks the schema
// is caught (the check can fail).
func TestFilesMatchTheOpenAPISchemas(t *testing.T) {
	servers := []canonical.Server{
		{Name: "gh", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github@1.2.0", "--read-only"},
			Env: map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}", "MODE": "fast"}},
		{Name: "box", Transport: canonical.Stdio, Command: "docker", Args: []string{"run", "-i", "--rm", "-v", "/data:/data", "ghcr.io/acme/box:1.4"}},
		{Name: "linear", Transport: canonical.HTTP, URL: "https://mcp.linear.app/mcp", Headers: map[string]string{"Authorization": "Bearer ${LINEAR_API_KEY}"}},
		{Name: "tenant", Transport: canonical.SSE, URL: "https://${TENANT}.example.com/sse"},
	}
	var rs []ServerResponse
	at := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	for _, s := range servers {
		sj, err := ServerJSON(s, Name("com.example", s.Name), "1.0.0")
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, Response(sj, at))
	}
	files := Files(rs)
	list, resp := compile(t, "ServerList"), compile(t, "ServerResponse")
	checked := 0
	for p, data := range files {
		var s *jsonschema.Schema
		switch {
		case strings.HasSuffix(p, "/index.json"):
			s = list
		case strings.Contains(p, "/versions/") && !strings.HasSuffix(p, ".html"):
			s = resp
		default:
			continue
		}
		if err := validate(t, s, data); err != nil {
			t.Errorf("%s does not match the schema: %v\n%s", p, err, data)
		}
		checked++
	}
	if checked < 1+3*len(servers) {
		t.Errorf("checked %d files, want at least %d", checked, 1+3*len(servers))
	}
	// The control: what the schema forbids is caught.
	bad := rs[0]
	sj := *bad.Server
	sj.Name, sj.Description = "no-slash", strings.Repeat("x", 101)
	bad.Server = &sj
	data, _ := json.Marshal(bad)
	if err := validate(t, resp, data); err == nil {
		t.Error("a name without a namespace and a 101-character description passed the schema")
	}
}
