package yamledit

import (
	"strconv"
	"strings"
)

// fastEntry renders an entry as d.encode renders it (a one-item block
// sequence when item, else a one-pair block mapping), without yaml.v3,
// for the shapes a server mostly has: a map whose values are text, true
// or false, whole numbers, lists of those, or maps of these; keys of
// letters, digits, '_' and '-'; text that yaml.v3 writes plain, or in
// single quotes for the one case of a leading '@' (npm scopes). Anything
// else is not rendered here (false), and yaml.v3 renders it. Only files
// indented by 2 take this way. yaml.v3's emitter costs about 15 µs an
// entry; writing 10,000 servers into Continue's file spent most of its
// time there. FuzzFastEntry holds the two equal.
func (d *Doc) fastEntry(key string, v any, item bool) (string, bool) {
	m, ok := v.(Map)
	if !ok || len(m) == 0 || d.unit() != 2 {
		return "", false
	}
	var b strings.Builder
	b.Grow(64 * len(m))
	col := 2 // where the map's keys start
	if !item {
		if !fastKey(key) {
			return "", false
		}
		b.WriteString(key)
		b.WriteString(":\n")
	}
	for i, f := range m {
		if !fastKey(f.Key) {
			return "", false
		}
		switch {
		case item && i == 0:
			b.WriteString("- ")
		default:
			b.WriteString(strings.Repeat(" ", col))
		}
		b.WriteString(f.Key)
		b.WriteByte(':')
		if !d.fastValue(&b, f.Value, col+len(f.Key)+2, col) {
			return "", false
		}
	}
	return b.String(), true
}

// fastValue writes the value of a key at column keyCol (its text would
// start at column at), a space and a scalar or a line break and a block
// collection.
func (d *Doc) fastValue(b *strings.Builder, v any, at, keyCol int) bool {
	switch x := v.(type) {
	case Map:
		if len(x) == 0 {
			return false
		}
		b.WriteByte('\n')
		for _, f := range x {
			if !fastKey(f.Key) {
				return false
			}
			b.WriteString(strings.Repeat(" ", keyCol+2))
			b.WriteString(f.Key)
			b.WriteByte(':')
			if !d.fastValue(b, f.Value, keyCol+2+len(f.Key)+2, keyCol+2) {
				return false
			}
		}
		return true
	case []any:
		return d.fastList(b, len(x), func(i int) any { return x[i] }, keyCol)
	case []string:
		return d.fastList(b, len(x), func(i int) any { return x[i] }, keyCol)
	}
	return fastScalarValue(b, v, at)
}

func (d *Doc) fastList(b *strings.Builder, n int, at func(int) any, keyCol int) bool {
	if n == 0 {
		return false
	}
	dash := keyCol + 2
	if d.compact() {
		dash = keyCol
	}
	b.WriteByte('\n')
	for i := range n {
		b.WriteString(strings.Repeat(" ", dash))
		b.WriteByte('-')
		if !fastScalarValue(b, at(i), dash+2) {
			return false
		}
	}
	return true
}

// fastScalarValue writes " value\n" for text, a bool or an int64.
func fastScalarValue(b *strings.Builder, v any, at int) bool {
	switch x := v.(type) {
	case string:
		return fastScalar(b, x, at)
	case bool:
		b.WriteString(" " + strconv.FormatBool(x) + "\n")
		return true
	case int64:
		b.WriteString(" " + strconv.FormatInt(x, 10) + "\n")
		return true
	}
	return false
}

// fastScalar writes " s\n", s plain or single-quoted as yaml.v3 writes it,
// starting at column at; false for text whose writing is not plain: text
// that could read as another type, holds an indicator where it matters, or
// is long enough to be folded.
func fastScalar(b *strings.Builder, s string, at int) bool {
	quote := false
	switch {
	case s == "":
		return false
	case s[0] == '@':
		quote = true
		if len(s) < 2 || !fastPlainRest(s[1:], false) {
			return false
		}
	case s[0] == '-':
		if len(s) < 2 || !isLetter(s[1]) || !fastPlainRest(s[1:], false) {
			return false
		}
	case isLetter(s[0]) || s[0] == '/' || s[0] == '_' || s[0] == '$':
		if !fastPlainRest(s, true) || oldSpecial(s) {
			return false
		}
	default:
		return false
	}
	if strings.IndexByte(s, ' ') >= 0 && at+len(s) > 70 {
		return false // may be folded at a space
	}
	b.WriteByte(' ')
	if quote {
		b.WriteByte('\'')
	}
	b.WriteString(s)
	if quote {
		b.WriteByte('\'')
	}
	b.WriteByte('\n')
	return true
}

// fastPlainRest reports whether every byte of s is one plain text may hold
// anywhere: letters, digits, _ . / - $ and, with spaces, single spaces
// and the braces of ${{ secrets.X }}; a colon only before a character
// other than a space (a URL's). It ends in neither a space nor a colon.
func fastPlainRest(s string, spaces bool) bool {
	last := s[len(s)-1]
	if last == ' ' || last == ':' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isLetter(c), c >= '0' && c <= '9', c == '_', c == '.', c == '/', c == '-', c == '$':
		case spaces && (c == '{' || c == '}'):
		case spaces && c == ' ':
			if s[i+1] == ' ' {
				return false
			}
		case c == ':':
			if s[i+1] == ' ' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fastKey reports whether k is a key yaml.v3 writes plain: a letter or _
// and then letters, digits, _ and -, and no word that reads as another
// type; and short (a key of more than 128 bytes is written "? key").
func fastKey(k string) bool {
	if k == "" || len(k) > 64 || !(isLetter(k[0]) || k[0] == '_') || oldSpecial(k) {
		return false
	}
	for i := 1; i < len(k); i++ {
		c := k[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// oldSpecial reports words that YAML 1.1 or 1.2 reads as a bool or null,
// in any case: yaml.v3 quotes them.
func oldSpecial(s string) bool {
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "true", "false", "on", "off", "null":
		return true
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
