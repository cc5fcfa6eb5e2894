package secrets

import (
	"strings"

	"github.com/mcpsync/mcpsync/internal/lazyre"
)

var (
	yourRE      = lazyre.New(`(?i)(^|[^a-z])your([^a-z]|$)`)
	yourCamelRE = lazyre.New(`^[Yy]our[A-Z]`) // yourApiKey
	examplePath = lazyre.New(`(?i)(^|[/\\])path[/\\]to([/\\]|$)|/users/username|/home/username|/home/user/|/users/you/`)
	maskedRE    = lazyre.New(`(?i)\*\*\*|xxxx|\.\.\.$|…$|^<.*>$|^\[.*\]$|^(changeme|replace[_-]?me|todo|tbd|secret|token|api[_-]?key)$`)
	hereWordRE  = lazyre.New(`(?i)(^|_)(HERE|PLACEHOLDER)(_|$)`)
)

// IsExamplePath reports the example paths of READMEs: /path/to/dir,
// /Users/username/...
func IsExamplePath(s string) bool { return examplePath.Get().MatchString(s) }

// IsExample reports text that documentation puts where the user must give
// a value of their own: <token>, YOUR_API_KEY, your-token, /path/to/dir,
// ntn_****, sk-..., xxxx. It is stricter than what Scan passes over as a
// placeholder (an empty value, a word like "required"), because its
// callers replace the value by a reference: an empty string or a setting
// must stay as it is.
func IsExample(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	return yourRE.Get().MatchString(s) || yourCamelRE.Get().MatchString(s) || examplePath.Get().MatchString(s) || maskedRE.Get().MatchString(s) ||
		hereWordRE.Get().MatchString(s) || strings.Contains(s, "<") && strings.Contains(s, ">")
}
