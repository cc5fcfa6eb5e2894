package earlyheap

import (
	"strings"
	"testing"
)

func TestPrintsOnly(t *testing.T) {
	for args, want := range map[string]bool{
		"":                       true,
		"version":                true,
		"--json version":         true,
		"--help":                 true,
		"export --help":          false, // the export command's own help: parsed like a run, and cheap anyway
		"completion bash":        true,
		"export --to cursor":     false,
		"--store x.hcl list":     false,
		"sync":                   false,
		"-C proj export --json":  false,
		"-v export --to all":     false, // -v is --verbose: the export runs
		"--verbose sync":         false,
		"-v":                     true, // no command: the help
		"--version":              true,
		"--store version export": false, // a store named version
	} {
		if got := PrintsOnly(strings.Fields(args)); got != want {
			t.Errorf("PrintsOnly(%q) = %v, want %v", args, got, want)
		}
	}
}
