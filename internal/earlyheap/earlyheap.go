// Package earlyheap sets, as the program starts, when mcpsync's heap is
// marked for huge pages (internal/hugeheap): main imports it for its init
// alone.
//
// Why an init: much of a short command's heap is what package
// initialisation allocates (regexps, tables, the CLI's commands), and
// Go initialises packages in import-path order as their dependencies
// allow; this one's path sorts before those. A command that prints a
// fixed text (mcpsync version, help, a completion script) never marks.
// Every other command marks once what it reads is large
// (hugeheap.OnInput): the store, a client's file, a pasted config, noted
// as each is read, before the heap grows with what is made of them.
//
// Why on the input, and not at the start: the marking costs a run its
// reservation, the collection that frees it and 2 MiB pages zeroed whole,
// and a small run never gains it back. Measured here (medians of 30
// alternating runs of a fresh export to four clients): 50 servers 15.6
// against 21.7 ms marked at the start, and 18.9 against 22.9 MiB at its
// peak; 100 to 300 servers 19.4 to 28.2 against 24.9 to 30.8 ms. From
// about 1,000 servers the marking pays (48 against 60 ms at 1,000, 110 to
// 117 against 143 ms at 3,000), and marked on the input the export of
// 10,000 servers takes what it took marked at the start (359 against 359
// ms, 16 runs each): the store is the first thing read, before the heap
// has grown. doctor, which reads every client's files, took 20.2 against
// 23.1 ms on a 50-server project.
package earlyheap

import (
	"os"

	"github.com/mcpsync/mcpsync/internal/cliargs"
	"github.com/mcpsync/mcpsync/internal/hugeheap"
	"github.com/mcpsync/mcpsync/internal/prefault"
)

func init() {
	args := os.Args[1:]
	if PrintsOnly(args) {
		return
	}
	hugeheap.OnInput()
	if PlansFiles(args) {
		prefault.Heap()
	}
}

// PlansFiles reports whether args, mcpsync's command line, run a command
// that reads or plans clients' files: its heap soon fills the runtime's
// first chunk, which package prefault faults in ahead of it. A command
// that only reads the store (list, show) or the state (status) uses a
// fraction of it.
func PlansFiles(args []string) bool {
	switch cliargs.Command(args) {
	case "export", "diff", "sync", "watch", "import", "convert", "doctor", "plan", "apply", "restore",
		"serve", "policy", "clients":
		return true
	}
	return false
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
