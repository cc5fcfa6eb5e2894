// Command mcpsync keeps the MCP server configuration of every AI editor and
// coding agent in step. All of the work is in the packages; main only runs Main.
package main

import (
	"os"

	_ "github.com/mcpsync/mcpsync/internal/earlyheap" // for its init: the heap marked before it grows
	"github.com/mcpsync/mcpsync/internal/gctune"
)

func main() {
	gctune.Apply(os.LookupEnv)
	os.Exit(Main(os.Args[1:]))
}
