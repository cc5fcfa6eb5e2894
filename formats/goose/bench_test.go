package goose

import (
	"fmt"
	"strings"
	"testing"

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

// BenchmarkEncodeOneChange200 changes one extension's args and adds one: a
// splice, a re-parse and the verification of the whole file.
func BenchmarkEncodeOneChange200(b *testing.B) {
	formatstest.BenchEncodeOneChange(b, Adapter(), formatstest.DefaultLocation(Adapter()), bigConfig(200))
}
