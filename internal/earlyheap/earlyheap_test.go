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

func TestPlansFiles(t *testing.T) {
	for args, want := range map[string]bool{
		"export --to cursor":    true,
		"-C proj export --json": true,
		"--store x.hcl sync":    true,
		"diff":                  true,
		"watch":                 true,
		"list":                  false,
		"--store export list":   false, // a store named export
		"show gh":               false,
		"status":                false,
		"version":               false,
		"":                      false,
	} {
		if got := PlansFiles(strings.Fields(args)); got != want {
			t.Errorf("PlansFiles(%q) = %v, want %v", args, got, want)
		}
	}
}
