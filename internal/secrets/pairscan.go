package secrets

import (
	"strings"
	"unicode/utf8"
)

// quotedPairs is quotedPair.FindAllStringSubmatchIndex(s, -1), found
// without the regexp. Masking a diff runs quotedPair on nearly every line
// (every JSON and TOML line with a quoted value), and Go's backtracking
// matcher, trying each start in turn, was half of what a masked diff
// cost. The pattern has one way to match from each start, so a scan
// finds it: FuzzQuotedPairs holds the two equal.
//
// The pattern is ("?)([A-Za-z0-9_.\-]+)("?\s*[:=]\s*")((?:[^"\\]|\\.)*)(").
// A match begins at a run of key characters, or at the quote just before
// one; from any start inside the run it would go on the same way, so a
// run that does not match is passed whole.
func quotedPairs(s string) [][]int {
	var out [][]int
	for pos := 0; pos < len(s); {
		a := pos
		for a < len(s) && !isKeyByte(s[a]) {
			a++
		}
		if a == len(s) {
			break
		}
		b := a
		for b < len(s) && isKeyByte(s[b]) {
			b++
		}
		start := a
		if a-1 >= pos && s[a-1] == '"' {
			start = a - 1
		}
		m := quotedPairFrom(s, start, a, b)
		if m == nil {
			pos = b
			continue
		}
		out = append(out, m)
		pos = m[1]
	}
	return out
}

// quotedPairFrom is the match of quotedPair that begins at start, its key
// s[a:b], or nil when there is none.
func quotedPairFrom(s string, start, a, b int) []int {
	c := b
	if c < len(s) && s[c] == '"' {
		c++
	}
	c = skipSpace(s, c)
	if c == len(s) || (s[c] != ':' && s[c] != '=') {
		return nil
	}
	c = skipSpace(s, c+1)
	if c == len(s) || s[c] != '"' {
		return nil
	}
	v := c + 1
	k := v
	for k < len(s) && s[k] != '"' {
		if s[k] == '\\' {
			// \\. : a backslash and the character after it, unless that
			// is a line break (. does not match one) or there is none.
			r, w := utf8.DecodeRuneInString(s[k+1:])
			if w == 0 || r == '\n' {
				return nil // neither alternative matches the backslash
			}
			k += 1 + w
			continue
		}
		k++
	}
	if k == len(s) {
		return nil
	}
	return []int{start, k + 1, start, a, a, b, b, v, v, k, k, k + 1}
}

// isKeyByte is [A-Za-z0-9_.\-].
func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}

// skipSpace passes \s* (RE2's \s: tab, line feed, form feed, carriage
// return and space) from i.
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// mayBeYAMLPair reports whether yamlPair can match line, without it: the
// pattern, anchored at the start, passes only +, - and white space before
// its key and key bytes in it, and needs a colon after the key and white
// space after the colon. Neither part can hold a colon, so that colon is
// the line's first. A JSON line ("key": …, {, }) cannot match, nor a TOML
// one (key = "https://…"), and the regexp's set-up cost more than the
// answer (a TOML url line was a third of MaskLine's time in a masked diff).
// FuzzYAMLPairGate holds that it never says no to a line that matches.
func mayBeYAMLPair(line string) bool {
	colon := strings.IndexByte(line, ':')
	if colon < 1 || colon+1 >= len(line) || !isSpace(line[colon+1]) {
		return false
	}
	key := false
	for i := 0; i < colon; i++ {
		switch c := line[i]; {
		case c == '+' || isSpace(c):
		case isKeyByte(c):
			key = true
		default:
			return false
		}
	}
	return key
}

// isSpace is the regexp package's \s: ASCII white space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// yamlKeyMayHide reports whether the key yamlPair would find in line
// (one that mayBeYAMLPair lets through) is one maskPair hides a value of:
// named like a secret, or spelled like an environment variable. Every
// other key leaves the line as it is, so the regexp need not run: a YAML
// client's file is mostly type:, url:, args:, name: (the regexp was a
// third of what masking a diff cost). The key yamlPair finds ends where
// the run of key bytes before the first colon ends (only white space may
// stand between them), and is that run, or the run less a leading '-'
// that the pattern's lead ([+\- ]?) takes: both are tried.
// FuzzYAMLKeyGate holds that no line it turns away is masked by yamlPair.
func yamlKeyMayHide(line string) bool {
	colon := strings.IndexByte(line, ':')
	if colon < 0 {
		return false
	}
	end := colon
	for end > 0 && isSpace(line[end-1]) {
		end--
	}
	start := end
	for start > 0 && isKeyByte(line[start-1]) {
		start--
	}
	key := line[start:end]
	if key == "" {
		return false
	}
	return secretName(key) || envName(key) || key[0] == '-' && envName(key[1:])
}

// mayBeAssignPair reports whether assignPair can match line: it needs an
// '=' after a name's last byte ([A-Za-z0-9_\-]) and before a value's
// first (not white space, a quote, &, ',', ';', ']' or ')'). A TOML line
// (key = "value") has neither. FuzzPairGates holds it to the regexp.
func mayBeAssignPair(line string) bool {
	for i := strings.IndexByte(line, '='); i >= 0; {
		if i > 0 && i+1 < len(line) && (isWordByte(line[i-1]) || line[i-1] == '-') && !endsAssignValue(line[i+1]) {
			return true
		}
		next := strings.IndexByte(line[i+1:], '=')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// endsAssignValue is assignPair's [\s"'&,;\]\)]: a byte no value holds.
func endsAssignValue(c byte) bool {
	switch c {
	case '"', '\'', '&', ',', ';', ']', ')':
		return true
	}
	return isSpace(c)
}

// mayBeFlagPair reports whether flagPair can match line: it needs a
// quote just before a flag's '-' and a comma after it.
// FuzzPairGates holds it to the regexp.
func mayBeFlagPair(line string) bool {
	return strings.IndexByte(line, ',') >= 0 && (strings.Contains(line, `"-`) || strings.Contains(line, `'-`))
}

// mayBeLineCredential reports whether lineCredential can match text:
// Bearer, Basic or Token (any case), white space, and eight bytes of a
// credential. "Bearer ${TOKEN}", the header of nearly every remote
// server, has no credential after its word, and the regexp's scan of
// the line cost more than this. FuzzPairGates holds it to the regexp.
func mayBeLineCredential(text string) bool {
	for i := 0; i+6 <= len(text); i++ {
		n := schemeWordAt(text, i)
		if n == 0 || len(text) <= i+n || !isSpace(text[i+n]) {
			continue
		}
		j := skipSpace(text, i+n)
		k := 0
		for j+k < len(text) && k < 8 && isCredentialByte(text[j+k]) {
			k++
		}
		if k == 8 {
			return true
		}
	}
	return false
}

// isCredentialByte is lineCredential's [A-Za-z0-9._~+/=\-].
func isCredentialByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-'
}
