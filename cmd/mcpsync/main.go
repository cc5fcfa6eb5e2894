// Command mcpsync keeps the MCP server configuration of every AI editor and
// coding agent in step. All of the work is in the packages; main only runs Main.
package main

import (
	"os"

	_ "github.com/mcpsync/mcpsync/internal/earlyheap" // for its init: the heap marked before it grows
	"github.com/mcpsync/mcpsync/internal/gctune"
)

func main() {
	setUpRuntime()
	os.Exit(Main(os.Args[1:]))
}

// setUpRuntime sets the heap and the collector up for a run of mcpsync;
// the test binary's "mcpsync" command calls it too, so scripts run as
// the program does. (Package earlyheap has marked the heap for huge
// pages already, in its init.)
func setUpRuntime() {
	gctune.Apply(os.LookupEnv)
}
