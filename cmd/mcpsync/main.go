// Command mcpsync keeps the MCP server configuration of every AI editor and
// coding agent in step. All of the work is in the packages; main only runs Main.
package main

import (
	"os"

	_ "github.com/mcpsync/mcpsync/internal/earlyheap" // for its init: the heap marked before it grows
	"github.com/mcpsync/mcpsync/internal/gctune"
)

// startOnly, set at link time (go build -ldflags "-X main.startOnly=1"),
// makes main return before any of its work. BenchmarkProcess builds such
// a binary, the same code, to measure what merely starting mcpsync costs:
// loading the binary, the Go runtime and every package's initialisation.
var startOnly string

func main() {
	if startOnly != "" {
		return
	}
	gctune.Apply(os.LookupEnv)
	os.Exit(Main(os.Args[1:]))
}
