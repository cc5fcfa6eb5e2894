package registry

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The copy of santhosh-tekuri/jsonschema in third_party compiles the JSON
// Schema drafts' metaschemas at the first Compile instead of in an init
// (see its PATCHED.md). This package's tests are the module's user of the
// library; these two hold that the patch changed when the work is done,
// not what it does.

// TestJSONSchemaChecksSchemasAfterLazyLoad: a schema that breaks its
// draft's metaschema is refused and a sound one compiles, for every draft,
// from goroutines that all start before the metaschemas exist. It runs in
// a child process, where nothing has compiled a schema yet.
func TestJSONSchemaChecksSchemasAfterLazyLoad(t *testing.T) {
	if os.Getenv("MCPSYNC_JSONSCHEMA_CHILD") == "1" {
		lazyLoadChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestJSONSchemaChecksSchemasAfterLazyLoad$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "MCPSYNC_JSONSCHEMA_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func lazyLoadChild(t *testing.T) {
	drafts := map[string]*jsonschema.Draft{
		"4": jsonschema.Draft4, "6": jsonschema.Draft6, "7": jsonschema.Draft7,
		"2019": jsonschema.Draft2019, "2020": jsonschema.Draft2020,
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for name, draft := range drafts {
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				c := jsonschema.NewCompiler()
				c.DefaultDraft(draft)
				if err := c.AddResource("bad.json", map[string]any{"type": 5.0}); err != nil {
					t.Error(err)
					return
				}
				if _, err := c.Compile("bad.json"); err == nil {
					t.Errorf("draft %s: {\"type\": 5} compiled; the metaschema did not check it", name)
				} else if !strings.Contains(err.Error(), "type") {
					t.Errorf("draft %s: refused for the wrong reason: %v", name, err)
				}
				if err := c.AddResource("good.json", map[string]any{"type": "object", "required": []any{"a"}}); err != nil {
					t.Error(err)
					return
				}
				s, err := c.Compile("good.json")
				if err != nil {
					t.Errorf("draft %s: %v", name, err)
					return
				}
				if s.Validate(map[string]any{}) == nil {
					t.Errorf("draft %s: {} passed a schema that requires a", name)
				}
			}()
		}
	}
	close(start)
	wg.Wait()
}
