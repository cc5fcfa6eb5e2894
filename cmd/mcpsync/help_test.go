package main

import (
	"bytes"
	"context"
	"embed"
	"io/fs"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// helpFiles is the folder as it is, to hold helpTexts to it.
//
//go:embed help/*.txt
var helpFiles embed.FS

// Every command has its long help, every help file is some command's and
// reaches help (helpTexts names every file), and each one has examples to
// copy.
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
	root := a.rootCommand(a.commands())
	walk(root, "mcpsync")
	entries, err := fs.ReadDir(helpFiles, "help")
	if err != nil || len(entries) < 20 {
		t.Fatalf("help files: %v (%d)", err, len(entries))
	}
	if len(helpTexts) != len(entries) {
		t.Errorf("helpTexts names %d files, help/ holds %d", len(helpTexts), len(entries))
	}
	for _, e := range entries {
		text := help(strings.TrimSuffix(e.Name(), ".txt"))
		if text == "" {
			t.Errorf("%s is empty, or not in helpTexts", e.Name())
		}
		if data, _ := helpFiles.ReadFile("help/" + e.Name()); text != string(data) {
			t.Errorf("help(%q) is not the text of %s", strings.TrimSuffix(e.Name(), ".txt"), e.Name())
		}
		used[e.Name()] = true
		if !strings.Contains(text, "Examples:") && !strings.Contains(text, "  mcpsync ") {
			t.Errorf("%s has no example", e.Name())
		}
	}
}

// Each command's --help prints its long help once, as its file says it,
// without the file's final newline: one blank line, then the next heading.
// (help returns the text as it is; the printer trims it, see helpTexts.)
func TestHelpPrintsTheTextTrimmed(t *testing.T) {
	var walk func(c *cli.Command, path []string)
	walk = func(c *cli.Command, path []string) {
		if c.Hidden || c.Name == "help" {
			return
		}
		if c.Description != "" {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{}, path[1:]...), "--help")
			if code := newTestApp(t.TempDir(), &stdout, &stderr).Run(context.Background(), args); code != 0 {
				t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
			}
			out := stdout.String()
			text := strings.TrimSuffix(c.Description, "\n")
			last := text[strings.LastIndex(text, "\n")+1:]
			switch {
			case strings.Count(out, "DESCRIPTION:") != 1 || !strings.Contains(out, last):
				t.Errorf("%s: the long help is not printed once:\n%s", strings.Join(args, " "), out)
			case !strings.Contains(out, last+"\n\n") || strings.Contains(out, last+"\n\n\n") || strings.Contains(out, last+"\n   \n"):
				t.Errorf("%s: the long help does not end with one blank line:\n%s", strings.Join(args, " "), out)
			}
		}
		for _, sub := range c.Commands {
			walk(sub, append(append([]string{}, path...), sub.Name))
		}
	}
	a := &App{}
	walk(a.rootCommand(a.commands()), []string{"mcpsync"})
}
