// Package earlyheap marks mcpsync's heap for huge pages (hugeheap.Mark)
// as the program starts: main imports it for its init alone.
//
// Why an init: much of a short command's heap is what package
// initialisation allocates (regexps, tables, the CLI's commands; it was
// mostly santhosh-tekuri/jsonschema's metaschemas before
// third_party/jsonschema made them lazy), and what the heap grows into
// before main runs is faulted in 4 KiB pages by then. Go initialises
// packages in import-path order as
// their dependencies allow, and this one's path sorts before those.
// Marked here, an export of 50 servers to five clients takes 1,600 to
// 1,900 page faults instead of 3,030 and about 0.9 of the time (68-71 ms
// against 76-89 ms, alternating runs); marked at the start of main, it
// took no less time than unmarked.
//
// A command that prints a fixed text (mcpsync version, help, a
// completion script) allocates too little to gain, and is left alone:
// the marking cost mcpsync version 2 to 3 ms of a 30 ms run. A command
// that only reads and reports (list, show, status, clients) marks when
// what it reads is large (hugeheap.OnInput): on a small store it loses 4
// to 5 ms to the marking and gains nothing. doctor reports too, but it
// reads and checks every client's files and every store whatever the
// store's size: it marks at the start, which took it from 96 to 78 ms on
// a 50-server project (medians of 30 alternating runs; clients, marked
// too, went from 56 to 60 ms).
package earlyheap

import (
	"os"
	"slices"

	"github.com/mcpsync/mcpsync/internal/cliargs"
	"github.com/mcpsync/mcpsync/internal/hugeheap"
)

func init() {
	switch {
	case PrintsOnly(os.Args[1:]):
	case ReadsOnly(os.Args[1:]):
		hugeheap.OnInput()
	default:
		hugeheap.Mark()
	}
}

// PrintsOnly reports whether args, mcpsync's command line, ask for a
// fixed text: the version, help or a completion script. -v is --verbose,
// not the version: 'mcpsync -v export' runs an export.
func PrintsOnly(args []string) bool {
	command := cliargs.Command(args)
	for _, a := range args {
		if a == command || a == "--" {
			break // a --help after the command is the command's own
		}
		switch a {
		case "--version", "--help", "-h":
			return true
		}
	}
	switch command {
	case "", "version", "help", "h", "completion":
		return true // "": mcpsync with no command prints its help
	}
	return false
}

// readers are the commands that read the store and the clients' files and
// report, writing nothing, whose heap is as large as what they read:
// doctor is not among them (see the package's comment).
var readers = []string{"list", "show", "status", "clients"}

// ReadsOnly reports whether args run one of the commands that only read
// and report.
func ReadsOnly(args []string) bool {
	return slices.Contains(readers, cliargs.Command(args))
}
