package engine

import (
	"fmt"
	"strings"
)

// Words for the messages the engine and its callers make.

// JoinWith lists names for a sentence: "a", "a and b", "a, b or c".
func JoinWith(names []string, conj string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// DescribeNames is the subject of a sentence about names: `server "a" is`,
// `servers "a", "b" are`.
func DescribeNames(noun string, names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	if len(names) == 1 {
		return noun + " " + quoted[0] + " is"
	}
	return noun + "s " + strings.Join(quoted, ", ") + " are"
}

// Them is "it" for one name, "them" for more.
func Them(names []string) string {
	if len(names) == 1 {
		return "it"
	}
	return "them"
}

// ShellWord quotes a server name for a command line when it needs it.
func ShellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.@/:", r))
	}) < 0 {
		return s
	}
	return ShellQuote(s)
}

// ShellQuote quotes s for a POSIX shell.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
