// Command mcpsync keeps the MCP server configuration of every AI editor and
// coding agent in step. All of the work is in the packages; main only runs Main.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:])) }
