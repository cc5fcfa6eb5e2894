package main

import (
	"embed"
	"strings"
)

// The long help of each command (--help) is a text file of its own in
// help/, the command's name: prose, kept out of the code that parses flags.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help returns the text of help/NAME.txt. A missing file is a bug that
// TestHelpFiles catches; it reads as an empty help.
func help(name string) string {
	data, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}
