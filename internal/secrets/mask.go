package secrets

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/strquote"
)

// Marker ends every masked value. Text that already holds it is never
// masked again, so masking is idempotent.
const Marker = "***"

// Mask hides a secret, keeping only what helps recognise it: a scheme word
// ("Bearer "), a provider prefix ("ghp_", "sk-ant-") or, for values longer
// than six characters, the first three characters. "ghp_abc…" becomes
// "ghp_***", "Bearer eyJhbGciOi…" becomes "Bearer eyJ***", "hunter2hunter2"
// becomes "hun***" and "short" becomes "***".
func Mask(v string) string {
	scheme := ""
	if s, rest, ok := cutScheme(v); ok {
		scheme, v = s, rest
	}
	for _, p := range knownPrefixes {
		if strings.HasPrefix(v, p) && len(v) > len(p)+3 {
			return scheme + p + Marker
		}
	}
	keep := 0
	if utf8.RuneCountInString(v) > 6 {
		keep = 3
	}
	r := []rune(v)
	return scheme + string(r[:min(keep, len(r))]) + Marker
}

var (
	// quotedPair is "key": "value" (JSON) or key = "value" (TOML, HCL).
	// MaskLine finds it with quotedPairs, which FuzzQuotedPairs holds
	// equal to it.
	quotedPair = lazyre.New(`("?)([A-Za-z0-9_.\-]+)("?\s*[:=]\s*")((?:[^"\\]|\\.)*)(")`)
	// singleQuotedPair is key: 'value' (YAML, where '' is a quote) or
	// key = 'value' (TOML).
	singleQuotedPair = lazyre.New(`(['"]?)([A-Za-z0-9_.\-]+)(['"]?\s*[:=]\s*')((?:[^']|'')*)(')`)
	// yamlPair is an unquoted YAML value: key: value # comment. A # starts
	// a comment only after white space; one inside the value is its own.
	yamlPair = lazyre.New(`^([+\- ]?\s*(?:-\s+)?)([A-Za-z0-9_.\-]+)(\s*:\s+)([^\s'"#{\[|>&*!](?:\S|\s+[^\s#])*?)(\s*(?:\s#.*)?)$`)
	// assignPair is NAME=value or --flag=value inside a line (an argument,
	// a shell line).
	assignPair = lazyre.New(`(^|[\s"'\[,(])(--?[A-Za-z0-9][A-Za-z0-9_\-]*|[A-Za-z_][A-Za-z0-9_]*)(=)([^\s"'&,;\]\)]+)`)
	// flagPair is "--token", "value" in a JSON or TOML array on one line;
	// flagPairSingle the same with the value in single quotes (YAML, where
	// '' is a quote, and TOML): each value ends at its own kind of quote.
	flagPair       = lazyre.New(`(["'])(--?[A-Za-z0-9][A-Za-z0-9_\-]*)(["']\s*,\s*")((?:[^"\\]|\\.)*)(")`)
	flagPairSingle = lazyre.New(`(["'])(--?[A-Za-z0-9][A-Za-z0-9_\-]*)(["']\s*,\s*')((?:[^']|'')*)(')`)
	// lineCredential is Bearer/Basic/Token and a credential anywhere in text.
	lineCredential = lazyre.New(`(?i)\b(bearer|basic|token)(\s+)([A-Za-z0-9._~+/=\-]{8,})`)
	lineUserinfo   = lazyre.New(`(://[^/\s:@"'<>]+:)([^/\s@"'<>]+)(@)`)
	lineQuery      = lazyre.New(`([?&])([A-Za-z0-9_.\-]+)(=)([^&#\s"'<>\\]+)`)
)

// replaceMatches rewrites every match of re in s with what fn returns for
// it; fn gets the submatch groups (missing groups are ""). One pass.
func replaceMatches(re *regexp.Regexp, s string, fn func(g []string) string) string {
	return replaceFound(s, re.FindAllStringSubmatchIndex(s, -1), fn)
}

// replaceFound is replaceMatches for the matches ms (submatch indices, as
// FindAllStringSubmatchIndex gives them), found some other way.
//
// The text is copied only from the first match that fn changes: most
// lines of a diff hold pairs whose value is no secret, and building each
// line anew for them was a third of what masking a line allocated
// (BenchmarkDiffMasked200). s itself is returned when nothing changed.
func replaceFound(s string, ms [][]int, fn func(g []string) string) string {
	if ms == nil {
		return s
	}
	var b strings.Builder
	copied := false // s[:at] is in b
	at := 0
	g := make([]string, len(ms[0])/2)
	for _, m := range ms {
		for i := range g {
			g[i] = ""
			if m[2*i] >= 0 {
				g[i] = s[m[2*i]:m[2*i+1]]
			}
		}
		r := fn(g)
		if !copied {
			if r == s[m[0]:m[1]] {
				continue // the same text: nothing to copy yet
			}
			b.Grow(len(s) + len(r) - (m[1] - m[0]))
			copied = true
		}
		b.WriteString(s[at:m[0]])
		b.WriteString(r)
		at = m[1]
	}
	if !copied {
		return s
	}
	b.WriteString(s[at:])
	return b.String()
}

// MaskLine hides the secret-looking literals on one line of text (a diff
// line, a message, a line of JSON): values of keys named like secrets
// ("token": "…", API_KEY = "…", key: …, --api-key=…, "--token", "…"),
// random-looking values of environment variables, provider tokens, JWTs,
// Bearer credentials and credentials in URLs, wherever they are. References
// stay as they are. MaskLine never adds or removes a line break, and
// masking masked text changes nothing.
func MaskLine(line string) string {
	if len(line) < 6 || len(line) > 1<<20 {
		return line
	}
	if strings.IndexByte(line, '\n') >= 0 {
		// More than one line: each on its own, so that no rule reaches
		// across a line break (found by FuzzMaskLine).
		return MaskText(line)
	}
	if strings.ContainsAny(line, ":=") {
		line = replaceFound(line, quotedPairs(line), func(g []string) string {
			return maskPair(g[1], g[2], g[3], g[4], g[5], g[0])
		})
		if strings.Contains(line, "'") {
			line = replaceMatches(singleQuotedPair.Get(), line, func(g []string) string {
				return maskPair(g[1], g[2], g[3], g[4], g[5], g[0])
			})
		}
		if mayBeYAMLPair(line) && yamlKeyMayHide(line) {
			if g := yamlPair.Get().FindStringSubmatch(line); g != nil {
				line = maskPair(g[1], g[2], g[3], g[4], g[5], line)
			}
		}
		if mayBeAssignPair(line) {
			line = replaceMatches(assignPair.Get(), line, func(g []string) string {
				return maskPair(g[1], g[2], g[3], g[4], "", g[0])
			})
		}
	}
	if mayBeFlagPair(line) {
		for _, re := range []*lazyre.RE{flagPair, flagPairSingle} {
			line = replaceMatches(re.Get(), line, func(g []string) string {
				return maskPair(g[1], g[2], g[3], g[4], g[5], g[0])
			})
		}
	}
	return maskTokens(line)
}

// maskPair masks value when key is named like a secret, or is an
// environment variable name whose value looks random. whole is returned
// unchanged when nothing is to be hidden.
func maskPair(pre, key, mid, value, post, whole string) string {
	if masked, ok := maskedValue(key, value); ok {
		return pre + key + mid + masked + post
	}
	return whole
}

// maskedValue is value masked as maskPair masks it under key, and whether
// it is to be hidden at all.
func maskedValue(key, value string) (string, bool) {
	if value == "" || strings.Contains(value, Marker) {
		return value, false
	}
	literal := literalText(value)
	if _, rest, ok := cutScheme(strings.TrimSpace(literal)); ok {
		literal = rest
	}
	if t := strings.TrimSpace(literal); t == "" || elided(t) || varNameShaped(t) {
		// references only, an elision such as "…", or a variable's name
		// (Codex's env_http_headers: KEY = "VAR"): not a secret
		return value, false
	}
	switch {
	case secretName(key):
		if strings.TrimSpace(literal) != strings.TrimSpace(value) && !strings.ContainsAny(value, "\\") {
			// literal text mixed with references: hide only the literal parts
			return maskLiterals(value), true
		}
	case envName(key) && HighEntropy(strings.TrimSpace(literal)):
	default:
		return value, false
	}
	return Mask(value), true
}

var (
	// trailingFlag is a flag that ends a line as an element of a list:
	// "--token", (JSON, TOML), '--token' (YAML, TOML) or - --token (YAML);
	// or a key that ends a line with its value on the next one:
	// "API_KEY": (JSON) or API_KEY: (YAML).
	trailingFlag = lazyre.New(`(?:["'](--?[A-Za-z0-9][A-Za-z0-9_\-]*)["']\s*,?|^\s*-\s+(--?[A-Za-z0-9][A-Za-z0-9_\-]*)|(?:^|[\s{,])["']?([A-Za-z_][A-Za-z0-9_.\-]*)["']?\s*:)\s*$`)
	// The value that begins a line: in double quotes (JSON, TOML, YAML);
	// in single quotes (YAML, where '' is a quote, and TOML); in quotes
	// never closed on the line (the error of a file that does not parse
	// is often there); plain after YAML's "- " (an element of a list); or
	// plain alone (YAML's, below its key).
	leadingDouble   = lazyre.New(`^(\s*(?:-\s+)?")((?:[^"\\]|\\.)*)(")`)
	leadingSingle   = lazyre.New(`^(\s*(?:-\s+)?')((?:[^']|'')*)(')`)
	leadingUnclosed = lazyre.New(`^(\s*(?:-\s+)?["'])([^"'\r\n]+?)(\s*)$`)
	leadingListItem = lazyre.New(`^(\s*-\s+)([^\s'"#\[{|>&*!](?:\S|\s+[^\s#])*?)(\s*(?:\s#.*)?)$`)
	leadingPlain    = lazyre.New(`^(\s*)([^\s'"#\[\]{}|>&*!,\-](?:\S|\s+[^\s#])*?)(\s*(?:\s#.*)?)$`)
)

var (
	// loosePairKey is the start of a key and its value anywhere in a line
	// (JSON, TOML, YAML, HCL), the value's own spelling left to
	// MaskExcerpt: it may be unquoted or miss its closing quote.
	loosePairKey = lazyre.New(`(["']?)([A-Za-z0-9_.\-]+)(["']?\s*[:=]\s*)`)
	// looseFlag is a flag as an element of a list, and the separator to
	// the next element: "--token", or --token,
	looseFlag = lazyre.New(`(["']?)(--?[A-Za-z0-9][A-Za-z0-9_\-]*)(["']?\s*,\s*)`)
)

// MaskExcerpt masks a line shown at the error of a file that does not
// parse, prev being the line before it: MaskAfterFlag, and the values
// of keys and flags named like secrets that MaskLine's rules cannot see
// because the file's syntax is broken right there: a string missing its
// closing quote (bearer_token = "Qx9…, to the end of the line), a value
// that should have been quoted (API_KEY = Qx9…, "--password", Qx9…).
// Masking more than MaskLine would is fine in an excerpt, which is shown
// to find the error, not to read the values. MaskLine is applied after it
// by the caller (Scrubber.Line).
func MaskExcerpt(prev, line string) string {
	line = MaskAfterFlag(prev, line)
	type span struct {
		from, to int
		masked   string
	}
	var hide []span
	for _, re := range []*lazyre.RE{loosePairKey, looseFlag} {
		for _, m := range re.Get().FindAllStringSubmatchIndex(line, -1) {
			from, to := looseValue(line, m[1])
			if from == to {
				continue
			}
			if masked, ok := maskedValue(line[m[4]:m[5]], line[from:to]); ok {
				if strings.ContainsAny(masked, `"'`) {
					masked = Marker // what Mask kept would end a string early
				}
				hide = append(hide, span{from, to, masked})
			}
		}
	}
	if len(hide) == 0 {
		return line
	}
	slices.SortFunc(hide, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	at := 0
	for _, h := range hide {
		if h.from < at {
			continue // inside a value already hidden
		}
		b.WriteString(line[at:h.from])
		b.WriteString(h.masked)
		at = h.to
	}
	b.WriteString(line[at:])
	return b.String()
}

// looseValue is where the value that starts at i in line lies: after an
// opening quote that is never closed, the rest of the line; unquoted, up
// to the first space, comma, closing bracket or comment. A value in
// quotes that close, or one that opens a table or a list, is MaskLine's
// (from == to).
func looseValue(line string, i int) (from, to int) {
	if i >= len(line) || line[i] == '\r' || line[i] == '\n' {
		return i, i
	}
	if end := strings.IndexAny(line[i:], "\r\n"); end >= 0 {
		line = line[:i+end] // one line only: no value reaches past its end
	}
	switch c := line[i]; c {
	case '"', '\'':
		for j := i + 1; j < len(line); j++ {
			switch line[j] {
			case '\\':
				if c == '"' {
					j++
				}
			case c:
				return i, i // closed: MaskLine's rules see it
			}
		}
		return i + 1, len(strings.TrimRight(line, " \t"))
	case '{', '[', '(', '|', '>', '&', '*', '!', '#':
		return i, i
	}
	j := i
	for j < len(line) && !strings.ContainsRune(" \t,}])#", rune(line[j])) {
		j++
	}
	return i, j
}

// MaskAfterFlag masks the value that begins line when prev, the line
// before it, ends with a flag named like a secret: an argument of its
// own after its flag ("--password",⏎"hunter2"), which no rule of the
// line alone can tell from any other argument; or with a key so named
// whose value is on the next line ("API_KEY":⏎"…", API_KEY:⏎  …). For a
// line shown out of its file where the servers' own secrets are not
// known (Scrubber): the excerpt at the error of a file that does not
// parse.
func MaskAfterFlag(prev, line string) string {
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		return MaskAfterFlag(prev, line[:i]) + line[i:] // a value ends with its line (FuzzMaskAfterFlag)
	}
	m := trailingFlag.Get().FindStringSubmatch(prev)
	if m == nil {
		return line
	}
	flag := m[1] + m[2] + m[3]
	plain := leadingListItem
	if m[3] != "" {
		plain = leadingPlain // below a key, a YAML value needs no "- "
	}
	for _, re := range []*lazyre.RE{leadingDouble, leadingSingle, leadingUnclosed, plain} {
		if g := re.Get().FindStringSubmatchIndex(line); g != nil {
			masked, ok := maskedValue(flag, line[g[4]:g[5]])
			if !ok {
				return line
			}
			if strings.ContainsAny(masked, `"'`) {
				// What Mask kept holds a quote, half of an escape ('' or
				// \"): it would end the value there, and the rest be
				// masked again as a value of its own (FuzzMaskAfterFlag).
				masked = Marker
			}
			return line[:g[4]] + masked + line[g[5]:]
		}
	}
	return line
}

// elided reports whether v only stands for a value: "…", "...", "***",
// "xxxx", "<token>".
func elided(v string) bool {
	if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") {
		return true
	}
	for _, r := range v {
		if !strings.ContainsRune(".…*xX", r) {
			return false
		}
	}
	return true
}

// literalText is value without its references.
func literalText(value string) string {
	if !strings.ContainsAny(value, "${%") {
		return value // no reference can begin in it (literalPieces)
	}
	var b strings.Builder
	for _, p := range literalPieces(value) {
		b.WriteString(value[p[0]:p[1]])
	}
	return b.String()
}

// MaskLiterals masks each literal piece of value that holds more than a
// scheme word, keeping the references between them: for a value that is
// secret by where it stands (a header's or an environment variable's
// value on a command line), whatever it looks like.
func MaskLiterals(value string) string {
	if strings.Contains(value, Marker) {
		return value
	}
	return maskLiterals(value)
}

// maskLiterals masks each literal piece of value that holds more than a
// scheme word, keeping the references between them.
func maskLiterals(value string) string {
	var b strings.Builder
	at := 0
	for _, p := range literalPieces(value) {
		b.WriteString(value[at:p[0]])
		piece := value[p[0]:p[1]]
		if t := strings.TrimSpace(piece); t == "" || isSchemeWord(t) {
			b.WriteString(piece)
		} else {
			b.WriteString(Mask(piece))
		}
		at = p[1]
	}
	b.WriteString(value[at:])
	return b.String()
}

func isSchemeWord(s string) bool {
	switch strings.ToLower(s) {
	case "bearer", "basic", "token":
		return true
	}
	return false
}

// envName reports whether key is spelled like an environment variable:
// upper-case letters, digits and underscores.
func envName(key string) bool {
	letter := false
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return letter
}

// MaskTokens hides what is a secret wherever it appears, whatever the
// text around it: provider tokens, JWTs, Bearer/Basic/Token credentials
// and credentials in URLs, on every line of text. Unlike MaskLine it does
// not guess from key names, so it suits free text (messages, tables) as
// well as file content.
func MaskTokens(text string) string {
	if !strings.Contains(text, "\n") {
		return maskTokens(text)
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		lines[i] = maskTokens(l)
	}
	return strings.Join(lines, "")
}

// maskTokens is MaskTokens for one line.
func maskTokens(line string) string {
	if len(line) < 8 || len(line) > 1<<20 {
		return line
	}
	if ms := findTokens(line); ms != nil {
		var b strings.Builder
		at := 0
		for _, m := range ms {
			tok := line[m.start:m.end]
			if !tokenBoundary(line, m.start, m.end) || placeholderToken(tok) {
				continue
			}
			b.WriteString(line[at:m.start])
			b.WriteString(Mask(tok))
			at = m.end
		}
		b.WriteString(line[at:])
		line = b.String()
	}
	if mayBeLineCredential(line) {
		line = replaceMatches(lineCredential.Get(), line, func(g []string) string {
			cred := g[3]
			if strings.Contains(cred, Marker) || placeholder(cred) || !tokenLike(cred) {
				return g[0]
			}
			return g[1] + g[2] + Mask(cred)
		})
	}
	if strings.Contains(line, "://") && strings.Contains(line, "@") {
		line = replaceMatches(lineUserinfo.Get(), line, func(g []string) string {
			if strings.Contains(g[2], Marker) || IsReference(g[2]) || placeholder(g[2]) {
				return g[0]
			}
			return g[1] + Mask(g[2]) + g[3]
		})
	}
	if strings.ContainsAny(line, "?&") && strings.Contains(line, "=") {
		line = replaceMatches(lineQuery.Get(), line, func(g []string) string {
			v := g[4]
			if !queryName(g[2]) || strings.Contains(v, Marker) || len(v) < 6 || IsReference(v) || placeholder(v) {
				return g[0]
			}
			return g[1] + g[2] + g[3] + Mask(v)
		})
	}
	return line
}

// MaskText is MaskLine for every line of text.
func MaskText(text string) string {
	if !strings.Contains(text, "\n") {
		return MaskLine(text)
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		lines[i] = MaskLine(body) + l[len(body):]
	}
	return strings.Join(lines, "")
}

// A Scrubber masks secrets it was told about, wherever they appear in a
// line, before MaskLine's own rules: it catches what no line rule can see,
// such as an argument whose flag is on the line before, or a value that
// spans lines. The zero value is ready; it is safe for concurrent use.
type Scrubber struct {
	mu     sync.Mutex
	values []string
	// known holds values, so that adding a form is not a search of every
	// form before it: a plan of 10,000 servers with secrets adds 40,000.
	known    map[string]bool
	replacer *strings.Replacer
}

// Add records a secret: its text, its lines when it spans several, and the
// forms it takes inside the strings of every format mcpsync writes (JSON,
// with and without HTML escaping, TOML, YAML in single and in double
// quotes, HCL: strquote) and in URLs. Values shorter than four characters
// are ignored: hiding them would garble ordinary text.
func (s *Scrubber) Add(secret string) {
	forms := append(Spellings(secret), url.QueryEscape(secret), url.PathEscape(secret))
	for _, f := range slices.Clone(forms) {
		// A form of several lines is hidden line by line: YAML breaks
		// lines at U+0085, U+2028 and U+2029 as well, and indents what
		// follows.
		if strings.ContainsAny(f, "\n\u0085\u2028\u2029") {
			forms = append(forms, strings.FieldsFunc(f, yamlBreak)...)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range forms {
		f = strings.TrimRight(f, "\r")
		if len(strings.TrimSpace(f)) < 4 || strings.Contains(f, "\n") || s.known[f] {
			continue
		}
		if s.known == nil {
			s.known = map[string]bool{}
		}
		s.known[f] = true
		s.values = append(s.values, f)
		s.replacer = nil
	}
}

// yamlBreak reports whether r breaks a line in YAML.
func yamlBreak(r rune) bool { return r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029' }

// Spellings is secret as it is, and as each format mcpsync reads and
// writes (JSON, TOML, YAML, HCL) spells it inside its quotes where that
// differs: what to look for in a file that holds it. A value that holds
// a quote, an ampersand or a control character is escaped differently by
// each, and a diff line that held a secret in a spelling the scrubber did
// not know was printed unmasked (TestScrubberKnowsEveryQuotedForm). Most
// secrets need no escape in any of them, and are spelled as they are
// everywhere.
func Spellings(secret string) []string {
	forms := []string{secret}
	if !needsQuoting(secret) {
		return forms
	}
	if js, err := json.Marshal(secret); err == nil { // HTML escaped: \u0026 for &
		forms = append(forms, strings.Trim(string(js), `"`))
	}
	forms = append(forms, strquote.JSON(secret), strquote.TOML(secret), strquote.HCL(secret))
	if strings.Contains(secret, "'") {
		forms = append(forms, strquote.YAMLSingle(secret))
	}
	if !strquote.PrintableASCII(secret) {
		forms = append(forms, strquote.YAMLDouble(secret))
	}
	return forms
}

// needsQuoting reports whether some format spells secret otherwise than
// as it is inside its quotes.
func needsQuoting(secret string) bool {
	return !strquote.PrintableASCII(secret) || strings.ContainsAny(secret, `"\'<>&{`)
}

// Len returns how many forms of secrets the scrubber knows.
func (s *Scrubber) Len() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.values)
}

// Line masks every known secret on line, then applies MaskLine.
func (s *Scrubber) Line(line string) string {
	if s != nil {
		s.mu.Lock()
		if s.replacer == nil && len(s.values) > 0 {
			// Longest first, so that a secret holding another is hidden whole.
			sorted := slices.Clone(s.values)
			slices.SortStableFunc(sorted, func(a, b string) int { return len(b) - len(a) })
			pairs := make([]string, 0, 2*len(sorted))
			for _, v := range sorted {
				pairs = append(pairs, v, Mask(v))
			}
			s.replacer = strings.NewReplacer(pairs...)
		}
		r := s.replacer
		s.mu.Unlock()
		if r != nil {
			line = r.Replace(line)
		}
	}
	return MaskLine(line)
}

// Text is Line for every line of text.
func (s *Scrubber) Text(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		lines[i] = s.Line(body) + l[len(body):]
	}
	return strings.Join(lines, "")
}
