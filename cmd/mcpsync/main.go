// Command mcpsync keeps the MCP server configuration of every AI editor and
// coding agent in step. All of the work is in the packages; main only runs Main.
package main

import (
	"os"

	"github.com/mcpsync/mcpsync/internal/gctune"
	"github.com/mcpsync/mcpsync/internal/hugeheap"
)

func main() {
	setUpRuntime()
	os.Exit(Main(os.Args[1:]))
}

// setUpRuntime sets the heap and the collector up for a run of mcpsync;
// the test binary's "mcpsync" command calls it too, so scripts run as
// the program does.
func setUpRuntime() {
	hugeheap.Start() // first: before the heap grows
	gctune.Apply(os.LookupEnv)
}
