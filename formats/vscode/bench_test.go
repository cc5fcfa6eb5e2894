package vscode

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// BenchmarkEncodePromptInputs writes 1,000 and 10,000 servers whose
// secrets VS Code prompts for (--prompt-inputs: every env reference
// becomes an input) into a new mcp.json: x-from-1000 holds it linear (at
// most 11×; 10× is linear).
func BenchmarkEncodePromptInputs(b *testing.B) {
	a := Adapter()
	loc := formatstest.DefaultLocation(a)
	timeOf := func(n int) time.Duration {
		var want canonical.Set
		for i := range n {
			want.Servers = append(want.Servers, canonical.Server{Name: fmt.Sprintf("s%05d", i), Transport: canonical.Stdio,
				Command: "npx", Env: map[string]string{fmt.Sprintf("TOKEN_%d", i): fmt.Sprintf("${TOKEN_%d}", i)}})
		}
		start := time.Now()
		for range b.N {
			if _, ds := a.Encode(loc, nil, want, formats.EncodeOptions{PromptInputs: true}); ds.HasErrors() {
				b.Fatal(ds)
			}
		}
		return time.Since(start) / time.Duration(b.N)
	}
	benchgoal.Linear(b, timeOf(1000), timeOf(10000))
}
