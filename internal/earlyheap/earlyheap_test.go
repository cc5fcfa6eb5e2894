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

func TestReadsOnly(t *testing.T) {
	for args, want := range map[string]bool{
		"list":                    true,
		"--json list":             true,
		"--store x.hcl list":      true,
		"-C proj status --strict": true,
		"--project=proj show fs":  true,
		"doctor":                  false, // every client's files and every store: marks at the start
		"--store list export":     false, // a store named list
		"export --to cursor":      false,
		"sync":                    false,
		"show fs":                 true,
		"clients":                 true,
		"":                        false,
		"--json":                  false,
		"-- list":                 false,
		"import --from cursor":    false,
		"source list":             false, // not list: a subcommand of source
	} {
		if got := ReadsOnly(strings.Fields(args)); got != want {
			t.Errorf("ReadsOnly(%q) = %v, want %v", args, got, want)
		}
	}
}
