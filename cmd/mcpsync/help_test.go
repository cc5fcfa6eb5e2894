package main

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// Every command has its long help, every help file is some command's, and
// each one has examples to copy.
func TestHelpFiles(t *testing.T) {
	a := &App{}
	used := map[string]bool{}
	var walk func(c *cli.Command, path string)
	walk = func(c *cli.Command, path string) {
		if c.Hidden || c.Name == "help" {
			return
		}
		if len(c.Commands) == 0 || c.Name == "mcpsync" {
			if strings.TrimSpace(c.Description) == "" {
				t.Errorf("%s has no long help", path)
			}
		}
		for _, sub := range c.Commands {
			walk(sub, path+" "+sub.Name)
		}
	}
	root := a.rootCommand()
	walk(root, "mcpsync")
	entries, err := fs.ReadDir(helpFiles, "help")
	if err != nil || len(entries) < 20 {
		t.Fatalf("help files: %v (%d)", err, len(entries))
	}
	for _, e := range entries {
		text := help(strings.TrimSuffix(e.Name(), ".txt"))
		if text == "" {
			t.Errorf("%s is empty", e.Name())
		}
		used[e.Name()] = true
		if e.Name() != "add-resolve.txt" && !strings.Contains(text, "Examples:") && !strings.Contains(text, "  mcpsync ") {
			t.Errorf("%s has no example", e.Name())
		}
	}
}
