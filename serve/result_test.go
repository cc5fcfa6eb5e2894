package serve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// result sends one masked document twice, as the structured content (an
// object) and as the text; the transport encodes both as they are.
func TestResult(t *testing.T) {
	const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	for name, c := range map[string]struct {
		v    any
		want string // the structured content, decoded and encoded again
	}{
		"object": {map[string]any{"servers": []string{"a"}, "env": "TOKEN=" + token}, ""},
		"list":   {[]string{"a", token}, ""},
		"null":   {nil, `{"result":null}`},
	} {
		r := result(c.v)
		if r.IsError || len(r.Content) != 1 {
			t.Fatalf("%s: %+v", name, r)
		}
		text := r.Content[0].(mcp.TextContent).Text
		var structured map[string]any
		if err := json.Unmarshal(r.RawStructuredContent, &structured); err != nil {
			t.Fatalf("%s: the structured content is not an object: %v: %s", name, err, r.RawStructuredContent)
		}
		for _, s := range []string{text, string(r.RawStructuredContent)} {
			if strings.Contains(s, token) {
				t.Errorf("%s: the token is in the answer: %s", name, s)
			}
		}
		if _, ok := c.v.(map[string]any); ok && string(r.RawStructuredContent) != text {
			t.Errorf("%s: the structured content %s is not the text %s", name, r.RawStructuredContent, text)
		}
		if c.want != "" && string(r.RawStructuredContent) != c.want {
			t.Errorf("%s: structured content %s, want %s", name, r.RawStructuredContent, c.want)
		}
		if _, ok := c.v.([]string); ok && !strings.HasPrefix(string(r.RawStructuredContent), `{"result":[`) {
			t.Errorf("%s: a list is not wrapped in an object: %s", name, r.RawStructuredContent)
		}
		// What the transport sends holds the structured content as it is.
		out, err := json.Marshal(r)
		if err != nil || !strings.Contains(string(out), `"structuredContent":`+string(r.RawStructuredContent)) {
			t.Errorf("%s: encoded as %s (%v)", name, out, err)
		}
	}
}
