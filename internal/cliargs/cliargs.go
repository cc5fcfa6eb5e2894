// Package cliargs reads mcpsync's command line before the CLI parses it,
// for the two parts of a run that need to know the command early: the
// heap marking in package earlyheap, which runs as the program starts,
// and the CLI itself, which builds only the command it runs.
package cliargs

import (
	"slices"
	"strings"
)

// ValueFlags are mcpsync's global flags that take their value as the next
// argument (the spelling --flag=value needs no skipping). A test in
// cmd/mcpsync holds the list to the root command's flags.
var ValueFlags = []string{"--store", "-store", "--project", "-project", "-C", "--C"}

// Command returns the command args run: the first argument that is neither
// a global flag nor a global flag's value. It is "" when there is none,
// and after "--", which ends the flags and names no command.
func Command(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return ""
		}
		if strings.HasPrefix(a, "-") {
			if slices.Contains(ValueFlags, a) {
				i++ // its value
			}
			continue
		}
		return a
	}
	return ""
}
