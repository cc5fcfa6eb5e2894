package goose

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// bigConfig is a Goose config.yaml with n extensions in Goose's own style.
func bigConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("GOOSE_PROVIDER: anthropic\nextensions:\n  developer:\n    enabled: true\n    type: platform\n    name: developer\n    description: ''\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  ext-%d:\n    enabled: true\n    type: stdio\n    name: ext-%d\n    description: ''\n    cmd: npx\n    args:\n    - -y\n    - '@example/server-%d'\n    envs: {}\n    env_keys:\n    - TOKEN_%d\n    timeout: 300\n", i, i, i, i)
	}
	b.WriteString("GOOSE_TELEMETRY_ENABLED: false\n")
	return []byte(b.String())
}

func BenchmarkEncodeOneChange200(b *testing.B) {
	data := bigConfig(200)
	loc := formatstest.DefaultLocation(Adapter())
	set, ds := Adapter().Decode(loc, data)
	if ds.HasErrors() || set.Len() != 200 {
		b.Fatalf("%d servers, %v", set.Len(), ds.Err())
	}
	set.Servers[100].Args = append(set.Servers[100].Args, "--verbose")
	set.Put(canonical.Server{Name: "new", Command: "uvx", Args: []string{"mcp-server-git"}})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out, ds := Adapter().Encode(loc, data, set, formats.EncodeOptions{})
		if ds.HasErrors() || len(out) <= len(data) {
			b.Fatal(ds.Err())
		}
	}
}
