package cliargs

import (
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	for args, want := range map[string]string{
		"list":                    "list",
		"--json list":             "list",
		"--store x.hcl list":      "list",
		"-C proj status --strict": "status",
		"--project=proj show fs":  "show",
		"--store list export":     "export", // a store named list
		"source list":             "source",
		"":                        "",
		"--json":                  "",
		"-- list":                 "",
		"--store":                 "", // a value flag without its value
	} {
		if got := Command(strings.Fields(args)); got != want {
			t.Errorf("Command(%q) = %q, want %q", args, got, want)
		}
	}
}
