package secrets

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// Kind says which rule found a secret.
type Kind string

const (
	// KindKnownToken is a token in a provider's own format (ghp_…, sk-ant-…).
	KindKnownToken Kind = "known_token"
	// KindJWT is a JSON Web Token.
	KindJWT Kind = "jwt"
	// KindCredential is the credential after Bearer, Basic or Token.
	KindCredential Kind = "credential"
	// KindURLPassword is the password in a URL's user info.
	KindURLPassword Kind = "url_password"
	// KindURLQuery is a token-like query parameter value.
	KindURLQuery Kind = "url_query"
	// KindNamed is a literal in a field named like a secret (API_KEY, --token).
	KindNamed Kind = "named"
	// KindHighEntropy is a long run of random-looking characters.
	KindHighEntropy Kind = "high_entropy"
)

// A Finding is one secret-looking literal inside a scanned value.
type Finding struct {
	Kind Kind `json:"kind"`
	// Label says what it looks like, for people: "GitHub token".
	Label string `json:"label"`
	// EnvVar is the variable such a token is usually kept in
	// (GITHUB_TOKEN for a GitHub token), or "".
	EnvVar string `json:"envVar,omitempty"`
	// Start and End are the byte offsets of the secret in the scanned value.
	Start int `json:"-"`
	End   int `json:"-"`
	// Value is the secret itself. It is never marshalled: print Masked.
	Value string `json:"-"`
}

// Masked returns the secret as it may be shown: Mask(Value).
func (f Finding) Masked() string { return Mask(f.Value) }

// Place is the kind of field a value sits in; it tunes the rules.
type Place int

const (
	InOther Place = iota
	InEnv
	InHeader
	InArg
	InURL
)

// Field says where a value sits: its place and its name (the env var, the
// header, the flag before an argument). The name is what the name rule
// looks at.
type Field struct {
	Place Place
	Name  string
}

// provider is one token format.
type provider struct {
	prefixes []string   // literal starts; the pattern is tried only where one is
	re       *lazyre.RE // anchored at the start; compiled where a prefix is found
	label    string
	envVar   string
	kind     Kind
}

// providerSpecs are the token formats, most specific first: where two
// match at one place, the first names it.
var providerSpecs = []struct {
	prefixes             []string
	pattern, label, vars string
}{
	{[]string{"github_pat_"}, `github_pat_[A-Za-z0-9_]{40,}`, "GitHub fine-grained token", "GITHUB_TOKEN"},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, `gh[pousr]_[A-Za-z0-9]{30,}`, "GitHub token", "GITHUB_TOKEN"},
	{[]string{"sk-ant-"}, `sk-ant-[A-Za-z0-9_\-]{20,}`, "Anthropic API key", "ANTHROPIC_API_KEY"},
	{[]string{"sk-or-v1-"}, `sk-or-v1-[A-Za-z0-9]{32,}`, "OpenRouter API key", "OPENROUTER_API_KEY"},
	{[]string{"sk-proj-", "sk-svcacct-", "sk-admin-"}, `sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}`, "OpenAI API key", "OPENAI_API_KEY"},
	{[]string{"sk-"}, `sk-[A-Za-z0-9]{32,}`, "OpenAI-style API key", "OPENAI_API_KEY"},
	{[]string{"xoxb-"}, `xoxb-[A-Za-z0-9\-]{10,}`, "Slack bot token", "SLACK_BOT_TOKEN"},
	{[]string{"xoxa-", "xoxp-", "xoxr-", "xoxs-"}, `xox[aprs]-[A-Za-z0-9\-]{10,}`, "Slack token", "SLACK_TOKEN"},
	{[]string{"xapp-"}, `xapp-[A-Za-z0-9\-]{10,}`, "Slack app token", "SLACK_APP_TOKEN"},
	{[]string{"AKIA", "ASIA"}, `(?:AKIA|ASIA)[A-Z0-9]{16}`, "AWS access key id", "AWS_ACCESS_KEY_ID"},
	{[]string{"AIza"}, `AIza[A-Za-z0-9_\-]{35}`, "Google API key", "GOOGLE_API_KEY"},
	{[]string{"glpat-"}, `glpat-[A-Za-z0-9_\-]{20,}`, "GitLab token", "GITLAB_TOKEN"},
	{[]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"}, `(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`, "Stripe key", "STRIPE_SECRET_KEY"},
	{[]string{"npm_"}, `npm_[A-Za-z0-9]{36}`, "npm token", "NPM_TOKEN"},
	{[]string{"hf_"}, `hf_[A-Za-z0-9]{30,}`, "Hugging Face token", "HF_TOKEN"},
	{[]string{"lin_api_"}, `lin_api_[A-Za-z0-9]{30,}`, "Linear API key", "LINEAR_API_KEY"},
	{[]string{"pplx-"}, `pplx-[A-Za-z0-9]{40,}`, "Perplexity API key", "PERPLEXITY_API_KEY"},
	{[]string{"gsk_"}, `gsk_[A-Za-z0-9]{40,}`, "Groq API key", "GROQ_API_KEY"},
	{[]string{"tvly-"}, `tvly-[A-Za-z0-9\-]{20,}`, "Tavily API key", "TAVILY_API_KEY"},
	{[]string{"ntn_"}, `ntn_[A-Za-z0-9]{30,}`, "Notion token", "NOTION_TOKEN"},
	{[]string{"sbp_"}, `sbp_[a-f0-9]{40}`, "Supabase access token", "SUPABASE_ACCESS_TOKEN"},
	{[]string{"shpat_", "shpca_", "shppa_", "shpss_"}, `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, "Shopify token", "SHOPIFY_ACCESS_TOKEN"},
	{[]string{"SG."}, `SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}`, "SendGrid API key", "SENDGRID_API_KEY"},
	{[]string{"dop_v1_"}, `dop_v1_[a-f0-9]{64}`, "DigitalOcean token", "DIGITALOCEAN_TOKEN"},
	{[]string{"figd_"}, `figd_[A-Za-z0-9_\-]{30,}`, "Figma token", "FIGMA_API_KEY"},
	{[]string{"ATATT"}, `ATATT[A-Za-z0-9_=\-]{30,}`, "Atlassian API token", "ATLASSIAN_API_TOKEN"},
	{[]string{"sntrys_"}, `sntrys_[A-Za-z0-9+/=_\-]{30,}`, "Sentry token", "SENTRY_AUTH_TOKEN"},
}

var providers []*provider

func init() {
	for _, p := range providerSpecs {
		providers = append(providers, &provider{prefixes: p.prefixes, re: lazyre.New(`^(?:` + p.pattern + `)`),
			label: p.label, envVar: p.vars, kind: KindKnownToken})
	}
	providers = append(providers, &provider{prefixes: []string{"eyJ"},
		re:    lazyre.New(`^eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`),
		label: "JWT", kind: KindJWT})
	indexTokenPrefixes()
}

// tokenPrefix is one literal prefix of a provider's tokens.
type tokenPrefix struct {
	id     int // its place among all prefixes
	prefix string
	p      *provider
}

// maxTokenPrefixes bounds the number of prefixes (an init check holds it).
const maxTokenPrefixes = 64

// tokenStarts maps a position's first two bytes to 1 + the index of the
// group of prefixes that begin with them in tokenPrefixGroups (0: none).
// Every prefix is at least two bytes long. Each group keeps the order of
// providers, then of their prefixes.
var (
	tokenStarts       [1 << 16]uint8
	tokenPrefixGroups [][]tokenPrefix
)

func indexTokenPrefixes() {
	id := 0
	for _, p := range providers {
		for _, prefix := range p.prefixes {
			if len(prefix) < 2 || id >= maxTokenPrefixes {
				panic("secrets: a token prefix is shorter than two bytes, or there are too many")
			}
			k := uint16(prefix[0])<<8 | uint16(prefix[1])
			if tokenStarts[k] == 0 {
				tokenPrefixGroups = append(tokenPrefixGroups, nil)
				tokenStarts[k] = uint8(len(tokenPrefixGroups))
			}
			g := tokenStarts[k] - 1
			tokenPrefixGroups[g] = append(tokenPrefixGroups[g], tokenPrefix{id, prefix, p})
			id++
		}
	}
}

// knownPrefixes are the token prefixes Mask keeps visible, longest first.
var knownPrefixes = []string{"github_pat_", "lin_api_", "sk-proj-", "sk-ant-", "sk-or-", "sk_live_", "rk_live_",
	"sk_test_", "rk_test_", "dop_v1_", "sntrys_", "glpat-", "shpat_", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-",
	"xapp-", "pplx-", "tvly-", "figd_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_", "gsk_", "ntn_", "sbp_",
	"AKIA", "ASIA", "AIza", "ATATT", "eyJ", "hf_", "sk-", "SG."}

// tokenMatch is a provider token or JWT found in text.
type tokenMatch struct {
	start, end int
	p          *provider
}

// findTokens returns the provider tokens and JWTs in text, in order, not
// overlapping. Each format's pattern is tried only where its literal
// prefix is, which keeps this cheap on the text of whole files.
//
// The prefixes are found in one pass: each position's first two bytes
// name the prefixes that may start there (tokenStarts). Searching the
// text once per prefix, forty of them, was most of what scanning a value
// and masking a diff line cost. As the search did, an occurrence of a
// prefix that overlaps the one before it is not tried
// (FuzzFindTokens holds the two ways equal).
func findTokens(text string) []tokenMatch {
	var out []tokenMatch
	var next [maxTokenPrefixes]int // per prefix: where its next occurrence may start
	for i := 0; i+1 < len(text); i++ {
		k := tokenStarts[uint16(text[i])<<8|uint16(text[i+1])]
		if k == 0 {
			continue
		}
		for _, c := range tokenPrefixGroups[k-1] {
			if i < next[c.id] || !strings.HasPrefix(text[i:], c.prefix) {
				continue
			}
			next[c.id] = i + len(c.prefix)
			if m := c.p.re.Get().FindStringIndex(text[i:]); m != nil {
				out = append(out, tokenMatch{i, i + m[1], c.p})
			}
		}
	}
	return earliestApart(out)
}

// earliestApart orders token matches by where they start (at one place,
// the more specific format, listed first) and drops those that overlap
// one kept before them.
func earliestApart(out []tokenMatch) []tokenMatch {
	if len(out) < 2 {
		return out
	}
	order := make(map[*provider]int, len(providers))
	for i, p := range providers {
		order[p] = i
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].start != out[j].start {
			return out[i].start < out[j].start
		}
		return order[out[i].p] < order[out[j].p]
	})
	kept := out[:1]
	for _, m := range out[1:] {
		if m.start >= kept[len(kept)-1].end {
			kept = append(kept, m)
		}
	}
	return kept
}

// refRE matches a reference in any client's spelling; what it matches is
// never a secret. An unterminated "${" takes the rest of the value, so
// that a reference cut by a quote (HCL's "Bearer ${env("X")}") is not read
// as a literal.
var refRE = lazyre.New(`\$\{\{[^}]*\}\}|\$\{[^}]*(?:\}|$)|\{env:[A-Za-z_][A-Za-z0-9_]*\}|\{file:[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%`)

// references is refRE.FindAllStringIndex(value, -1), found without the
// regexp: a masked diff asks for the literal text of every header and
// environment value (literalPieces), and the regexp's scan was a quarter
// of masking a line. Each alternative of the pattern begins with a byte
// of its own ($, { or %) and has one way to match from there, tried in
// the pattern's order; FuzzReferences holds the two equal.
func references(value string) [][2]int {
	var out [][2]int
	for i := 0; i < len(value); {
		if end := referenceAt(value, i); end > 0 {
			out = append(out, [2]int{i, end})
			i = end
			continue
		}
		i++
	}
	return out
}

// referenceAt is the end of refRE's match that begins at s[i], or 0.
func referenceAt(s string, i int) int {
	switch s[i] {
	case '$':
		if i+1 < len(s) && s[i+1] == '{' {
			// \$\{\{[^}]*\}\}, then \$\{[^}]*(?:\}|$): both end at the
			// first }, the first needing another after it.
			close := strings.IndexByte(s[i+2:], '}')
			if close < 0 {
				return len(s) // ${… to the end of the text
			}
			close += i + 2
			if i+2 < len(s) && s[i+2] == '{' && close+1 < len(s) && s[close+1] == '}' {
				return close + 2
			}
			return close + 1
		}
		return afterName(s, i+1) // \$[A-Za-z_][A-Za-z0-9_]*
	case '{':
		if strings.HasPrefix(s[i:], "{env:") {
			if end := afterName(s, i+5); end > 0 && end < len(s) && s[end] == '}' {
				return end + 1
			}
		}
		if strings.HasPrefix(s[i:], "{file:") {
			if close := strings.IndexByte(s[i+6:], '}'); close >= 0 {
				return i + 6 + close + 1
			}
		}
	case '%':
		if end := afterName(s, i+1); end > 0 && end < len(s) && s[end] == '%' {
			return end + 1
		}
	}
	return 0
}

// afterName is the end of the name ([A-Za-z_][A-Za-z0-9_]*) at s[i], or 0
// when none begins there.
func afterName(s string, i int) int {
	if i >= len(s) || !(s[i] == '_' || 'a' <= s[i]|0x20 && s[i]|0x20 <= 'z') {
		return 0
	}
	i++
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	return i
}

// literalPieces returns the [start, end) ranges of value outside references.
func literalPieces(value string) [][2]int {
	if !strings.ContainsAny(value, "${%") {
		if value == "" {
			return nil
		}
		return [][2]int{{0, len(value)}}
	}
	var out [][2]int
	at := 0
	for _, m := range references(value) {
		if m[0] > at {
			out = append(out, [2]int{at, m[0]})
		}
		at = m[1]
	}
	if at < len(value) {
		out = append(out, [2]int{at, len(value)})
	}
	return out
}

// IsReference reports whether value holds no literal text but references
// and white space: nothing in it is a secret.
func IsReference(value string) bool {
	for _, p := range literalPieces(value) {
		if strings.TrimSpace(value[p[0]:p[1]]) != "" {
			return false
		}
	}
	return value != ""
}

// Scan returns the secret-looking literals in value, in order. References
// are never secrets; only the literal text around them is looked at.
func Scan(f Field, value string) []Finding {
	if value == "" || len(value) > 1<<16 {
		return nil
	}
	s := scanner{value: value, field: f}
	// An argument spelled --flag=value or NAME=value is named by its left side.
	if f.Place == InArg {
		if m := argAssign.Get().FindStringSubmatchIndex(value); m != nil {
			s.field.Name = value[m[2]:m[3]]
			s.valueFrom = m[4]
		}
	}
	pieces := literalPieces(value)
	// The name rule looks at a value that is a literal through and through:
	// text around a reference ("Bearer ${T}", "key=${K}") frames it.
	s.whole = len(pieces) == 1 && pieces[0] == [2]int{0, len(value)}
	for _, p := range pieces {
		if p[1] <= s.valueFrom {
			continue
		}
		s.piece(max(p[0], s.valueFrom), p[1])
	}
	return s.out
}

// argAssign is --flag=value or NAME=value as one argument.
var argAssign = lazyre.New(`^(--?[A-Za-z][A-Za-z0-9_\-]*|[A-Za-z_][A-Za-z0-9_]*)=(.)`)

type scanner struct {
	value     string
	field     Field
	valueFrom int
	whole     bool // the value holds no reference
	out       []Finding
	// word is the word of value that pathLikeAt looked at last: its
	// bounds and whether it holds "://".
	word struct {
		from, to int
		url      bool
	}
}

func (s *scanner) overlaps(start, end int) bool {
	for _, f := range s.out {
		if start < f.End && f.Start < end {
			return true
		}
	}
	return false
}

// oneSecret reports whether a finding of kind is one secret as a whole,
// which swallows the findings inside it.
func oneSecret(kind Kind) bool { return kind == KindURLQuery || kind == KindCredential }

// swallow removes the findings that [start, end) holds and is larger
// than, when it holds every finding it overlaps, and reports whether the
// span is free now. The span is a value that is one secret as a whole, and
// moving only a part of it out would leave the rest in the file:
//
//   - a token parameter's value (KindURLQuery): a password inside a URL
//     that is the parameter's value is part of the one secret there. A
//     provider's token inside it (whose kind names the variable) stays the
//     finding, and what is left of the value runs into its reference, which
//     the next scan does not count. (A password in a URL of its own stays
//     the finding too: postgres://u:${DB_PASSWORD}@h keeps the URL readable.)
//   - a scheme credential (KindCredential): "Bearer acct+eyJ…" is sent
//     whole, so the JWT or provider's token in it is no secret of its own,
//     and "acct+" left before its reference would be found again. A
//     credential that is exactly a token (Bearer ghp_…) leaves the token
//     the finding, for the variable its kind names.
func (s *scanner) swallow(kind Kind, start, end int) bool {
	var inner []int
	for i, f := range s.out {
		if start < f.End && f.Start < end {
			if f.Start < start || f.End > end || f.End-f.Start == end-start ||
				(f.EnvVar != "" && kind != KindCredential) {
				return false
			}
			inner = append(inner, i)
		}
	}
	for k := len(inner) - 1; k >= 0; k-- {
		s.out = slices.Delete(s.out, inner[k], inner[k]+1)
	}
	return true
}

// gaps returns the parts of [start, end) that no finding covers.
func (s *scanner) gaps(start, end int) [][2]int {
	var out [][2]int
	at := start
	for _, f := range s.out { // in order of position
		if f.End <= at || f.Start >= end {
			continue
		}
		if f.Start > at {
			out = append(out, [2]int{at, f.Start})
		}
		at = max(at, f.End)
	}
	if at < end {
		out = append(out, [2]int{at, end})
	}
	return out
}

func (s *scanner) add(kind Kind, label, envVar string, start, end int) {
	if start >= end {
		return
	}
	if s.overlaps(start, end) && !(oneSecret(kind) && s.swallow(kind, start, end)) {
		return
	}
	f := Finding{Kind: kind, Label: label, EnvVar: envVar, Start: start, End: end, Value: s.value[start:end]}
	// keep the findings in order of position
	i := len(s.out)
	for i > 0 && s.out[i-1].Start > start {
		i--
	}
	s.out = append(s.out, Finding{})
	copy(s.out[i+1:], s.out[i:])
	s.out[i] = f
}

var (
	credentialRE = lazyre.New(`(?i)\b(bearer|basic|token)\s+([A-Za-z0-9._~+/=\-]{8,})`)
	userinfoRE   = lazyre.New(`://[^/\s:@"'<>]+:([^/\s@"'<>]+)@`)
	// A query value stops at "?" as well as "&": an "&" before the query
	// (in a password, p&w=1@h/?key=…) would otherwise start a match that
	// runs over the "?" and hides the real parameter behind it.
	queryRE = lazyre.New(`[?&]([A-Za-z0-9_.\-]+)=([^?&#\s"'<>]+)`)
)

func (s *scanner) piece(start, end int) {
	text := s.value[start:end]
	// intoRef reports whether a match ending at i of text runs into the
	// reference after this piece: a query value or a scheme credential
	// that does (key=abc${K}, Bearer acct+${TOKEN}) is built from it, and
	// the secret is the reference's, not this text's.
	intoRef := func(i int) bool { return i == len(text) && end < len(s.value) }
	// 1. Provider formats and JWTs.
	for _, m := range findTokens(text) {
		if !tokenBoundary(text, m.start, m.end) || placeholderToken(text[m.start:m.end]) {
			continue
		}
		s.add(m.p.kind, m.p.label, m.p.envVar, start+m.start, start+m.end)
	}
	// 2. Credentials in URLs.
	if strings.Contains(text, "://") {
		for _, m := range userinfoRE.Get().FindAllStringSubmatchIndex(text, -1) {
			if pw := text[m[2]:m[3]]; !placeholder(pw) {
				s.add(KindURLPassword, "password in a URL", "", start+m[2], start+m[3])
			}
		}
	}
	if strings.ContainsAny(text, "?&") {
		for _, m := range queryRE.Get().FindAllStringSubmatchIndex(text, -1) {
			name, v := text[m[2]:m[3]], text[m[4]:m[5]]
			if queryName(name) && len(v) >= 6 && !placeholder(v) && !intoRef(m[5]) {
				s.add(KindURLQuery, "token in the URL's "+name+" parameter", "", start+m[4], start+m[5])
			}
		}
	}
	// 3. Scheme credentials: Bearer …, Basic …, Token ….
	if hasSchemeWord(text) {
		for _, m := range credentialRE.Get().FindAllStringSubmatchIndex(text, -1) {
			if cred := text[m[4]:m[5]]; !placeholder(cred) && tokenLike(cred) && !intoRef(m[5]) {
				s.add(KindCredential, strings.ToLower(text[m[2]:m[3]])+" credential", "", start+m[4], start+m[5])
			}
		}
	}
	// 4. A literal in a field named like a secret.
	if s.whole && s.field.Place != InURL && secretName(s.field.Name) {
		lo, hi := trimSpan(s.value, start, end)
		v := s.value[lo:hi]
		if scheme, rest, ok := cutScheme(v); ok {
			lo += len(scheme)
			v = rest
		}
		if namedLiteral(s.field.Name, v) {
			s.add(KindNamed, "value of "+s.field.Name, "", lo, hi)
		}
	}
	// 5. High-entropy runs, unless the field says it holds hashes, which
	// are random-looking by nature and public (SHA256S, checksum, digest).
	if hashName(s.field.Name) {
		return
	}
	i := 0
	for i < len(text) {
		pathLike := s.pathLikeAt(start + i)
		if !runByte(text[i], pathLike) {
			i++
			continue
		}
		j := i
		for j < len(text) && runByte(text[j], pathLike) {
			j++
		}
		if !s.overlaps(start+i, start+j) {
			if HighEntropy(text[i:j]) {
				s.add(KindHighEntropy, "random-looking value", "", start+i, start+j)
			}
		} else {
			// A run that holds another finding: what is left of it on
			// either side may be random-looking on its own, and would be
			// found once that finding is moved out (Extract must leave
			// nothing behind).
			for _, g := range s.gaps(start+i, start+j) {
				if HighEntropy(s.value[g[0]:g[1]]) {
					s.add(KindHighEntropy, "random-looking value", "", g[0], g[1])
				}
			}
		}
		i = j
	}
}

// pathLikeAt reports whether the word of the value that holds position p
// reads as a path or a URL, in which a slash ends a high-entropy run: it
// holds "://", or it starts like a path (/, ~, ., or a drive, C:\ or C:/).
// A word is what lies between white space, so that a path at the start of
// a value (./bin/server --key ...) does not cut a key further on at its
// slashes, which found the key from its slash on and left the rest of it
// in the file. The word is read from after the references and findings it
// starts with: Extract puts a reference where a finding was, and the scan
// of what it leaves must cut the rest of the word as this one did (the
// property FuzzScan checks).
func (s *scanner) pathLikeAt(p int) bool {
	v := s.value
	if p < s.word.from || p >= s.word.to { // the word is looked up once for its runs
		s.word.from = strings.LastIndexAny(v[:p], " \t\r\n") + 1
		s.word.to = len(v)
		if k := strings.IndexAny(v[p:], " \t\r\n"); k >= 0 {
			s.word.to = p + k
		}
		s.word.url = strings.Contains(v[s.word.from:s.word.to], "://")
	}
	from, to := s.word.from, s.word.to
	if s.word.url {
		return true
	}
	for from < p {
		if end := referenceAt(v, from); end > from {
			from = end
			continue
		}
		if end := s.findingFrom(from); end > from {
			from = end
			continue
		}
		break
	}
	if from >= to {
		return false // a reference or a finding with white space in it ends the word
	}
	w := v[from:to]
	return strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, ".") ||
		(len(w) > 2 && w[1] == ':' && (w[2] == '\\' || w[2] == '/'))
}

// findingFrom is the end of the finding that begins at p, or 0.
func (s *scanner) findingFrom(p int) int {
	for _, f := range s.out {
		if f.Start == p {
			return f.End
		}
	}
	return 0
}

// runByte reports whether c may be part of a high-entropy run. In paths
// and URLs a slash ends a run (it separates segments); elsewhere it may be
// base64.
func runByte(c byte, pathLike bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case c == '+', c == '=', c == '_', c == '-', c == '.', c == '~':
		return true
	case c == '/':
		return !pathLike
	}
	return false
}

// hasSchemeWord reports whether text holds Bearer, Basic or Token (any
// case) followed by white space: the start of a scheme credential.
func hasSchemeWord(text string) bool {
	for i := 0; i+6 <= len(text); i++ {
		if n := schemeWordAt(text, i); n > 0 && len(text) > i+n && (text[i+n] == ' ' || text[i+n] == '\t') {
			return true
		}
	}
	return false
}

// schemeWordAt is the length of Bearer, Basic or Token (any case) at
// text[i], or 0 when none of them is there.
func schemeWordAt(text string, i int) int {
	switch text[i] | 0x20 {
	case 'b', 't':
	default:
		return 0
	}
	for _, w := range [...]string{"bearer", "basic", "token"} {
		if len(text)-i >= len(w) && strings.EqualFold(text[i:i+len(w)], w) {
			return len(w)
		}
	}
	return 0
}

// tokenBoundary reports whether text[i:j] is not part of a longer word.
func tokenBoundary(text string, i, j int) bool {
	if i > 0 && isWordByte(text[i-1]) {
		return false
	}
	return j >= len(text) || !isWordByte(text[j])
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func trimSpan(s string, lo, hi int) (int, int) {
	for lo < hi && (s[lo] == ' ' || s[lo] == '\t' || s[lo] == '\n' || s[lo] == '\r') {
		lo++
	}
	for hi > lo && (s[hi-1] == ' ' || s[hi-1] == '\t' || s[hi-1] == '\n' || s[hi-1] == '\r') {
		hi--
	}
	return lo, hi
}

// cutScheme splits "Bearer xyz" into its scheme word (with the space) and
// the credential.
func cutScheme(v string) (scheme, rest string, ok bool) {
	for _, w := range []string{"Bearer ", "Basic ", "Token ", "bearer ", "basic ", "token "} {
		if r, found := strings.CutPrefix(v, w); found {
			return w, strings.TrimLeft(r, " "), true
		}
	}
	return "", v, false
}

// separators are dropped from names before they are compared: api_key,
// api-key and apiKey are one name.
var separators = strings.NewReplacer("_", "", "-", "", ".", "")

// secretName reports whether a field name says that its value is a secret:
// API_KEY, x-api-key, --token, accessToken, DB_PASSWORD. Names that say
// where a secret is (TOKEN_FILE, KEY_PATH, bearer_token_env_var) or that
// count tokens (MAX_TOKENS) are not.
func secretName(name string) bool {
	k := strings.ToLower(strings.TrimLeft(name, "-"))
	if k == "" {
		return false
	}
	n := separators.Replace(k)
	for _, w := range []string{"file", "path", "dir", "url", "uri", "env", "envvar", "envvars", "var", "name", "id",
		"type", "count", "limit", "size", "length", "ttl", "timeout", "expiry", "expiration", "expires", "endpoint",
		"host", "port", "mode", "format", "scope", "scopes", "header", "prefix", "tokens", "enabled", "required",
		"disabled", "version", "method", "provider", "command", "helper", "location", "store", "storage", "index",
		"budget", "usage", "max", "min", "source", "server"} {
		if strings.HasSuffix(n, w) {
			return false
		}
	}
	if strings.Contains(n, "public") || strings.Contains(n, "publishable") || strings.Contains(n, "maxtoken") {
		return false
	}
	for _, w := range []string{"token", "secret", "password", "passwd", "apikey", "credential", "privatekey",
		"accesskey", "secretkey", "cookie", "authorization", "sessionkey", "signingkey", "passphrase"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return n == "key" || n == "auth" || n == "pwd" || n == "pat" || strings.HasSuffix(n, "key") ||
		strings.HasSuffix(n, "auth") || strings.HasSuffix(n, "pwd") || strings.HasSuffix(k, "_pat") || hasPassWord(name)
}

// hasPassWord reports whether name has the word "pass" in it, as in
// DB_PASS, SMTP_PASS, redis-pass or mailPass: a password, spelled the
// way many services' settings spell it. A word, not a part of one
// (BYPASS, PASSTHROUGH, COMPASS).
func hasPassWord(name string) bool {
	start := 0
	for i := 0; i <= len(name); i++ {
		end := i == len(name)
		if !end {
			c := name[i]
			sep := c == '_' || c == '-' || c == '.'
			camel := i > 0 && 'a' <= name[i-1] && name[i-1] <= 'z' && 'A' <= c && c <= 'Z'
			if !sep && !camel {
				continue
			}
		}
		if strings.EqualFold(name[start:i], "pass") {
			return true
		}
		start = i
		if i < len(name) && (name[i] == '_' || name[i] == '-' || name[i] == '.') {
			start = i + 1
		}
	}
	return false
}

// hashName reports whether a field name says it holds hashes or digests.
func hashName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"sha1", "sha256", "sha512", "hash", "digest", "checksum", "fingerprint", "integrity"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func passwordName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "password") || strings.Contains(n, "passwd") || strings.Contains(n, "pwd") ||
		strings.Contains(n, "passphrase") || hasPassWord(name)
}

// queryName reports whether a URL query parameter carries a credential.
func queryName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"token", "key", "secret", "password", "passwd", "auth", "sig", "signature", "credential"} {
		if strings.Contains(n, w) {
			return !strings.HasSuffix(n, "_id") && n != "keyword" && n != "keywords"
		}
	}
	return false
}

// namedLiteral decides whether v, the literal of a field named like a
// secret, is a credential rather than a placeholder or a setting.
func namedLiteral(name, v string) bool {
	if placeholder(v) || strings.Contains(v, "***") {
		return false
	}
	lower := strings.ToLower(v)
	switch lower {
	case "true", "false", "yes", "no", "on", "off", "null", "nil", "none", "bearer", "basic", "token":
		return false
	}
	if isNumber(v) || strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") ||
		strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") {
		return false
	}
	if passwordName(name) {
		return len(v) >= 4
	}
	return len(v) >= 8 && tokenLike(v)
}

// tokenLike reports whether v could be a generated credential rather than a
// word: it has a digit, mixed case or a symbol, or is long.
func tokenLike(v string) bool {
	var lower, upper, digit, other bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		case c == ' ':
			return false // a phrase, not a token
		default:
			other = true
		}
	}
	return digit || (lower && upper) || other || len(v) >= 16
}

func isNumber(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < '0' || c > '9') && c != '.' && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// placeholderWords are parts of the dummy values that documentation and
// templates hold where a real secret goes.
var placeholderWords = []string{"your", "xxxx", "example", "placeholder", "changeme", "change_me", "change-me",
	"replace", "insert", "dummy", "sample", "redacted", "todo", "fixme", "here", "****", "...", "…", "undefined",
	"secret_key_here", "token_here", "my_", "my-", "<", ">", "{{", "}}", "[", "]", "optional", "required", "enter_",
	"put_", "add_", "fake", "test-key", "testkey", "test_key", "000000", "aaaaaa"}

// placeholder reports whether v is a stand-in for a secret, not one.
func placeholder(v string) bool {
	if v == "" {
		return true
	}
	lower := strings.ToLower(v)
	for _, w := range placeholderWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return lowVariety(v) || varNameShaped(v)
}

// varNameShaped reports whether v is spelled like an environment variable's
// name (GITHUB_TOKEN, PI_API_KEY): upper case, digits and at least one
// underscore. Documentation writes "Bearer GITHUB_TOKEN" for "put the token
// here"; a generated credential is not spelled that way.
func varNameShaped(v string) bool {
	if len(v) < 3 || v[0] < 'A' || v[0] > 'Z' || !strings.Contains(v, "_") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// placeholderToken is placeholder for a value in a provider's format: only
// the part after the prefix is looked at, and only for what cannot occur in
// a generated token, since "here" may appear in random text by chance.
func placeholderToken(tok string) bool {
	lower := strings.ToLower(tok)
	for _, w := range []string{"your", "xxxx", "example", "placeholder", "redacted", "dummy", "fake", "0000000000", "1234567890"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	body := tok
	for _, p := range knownPrefixes {
		if strings.HasPrefix(tok, p) {
			body = tok[len(p):]
			break
		}
	}
	return lowVariety(body) || entropy(body) < 3.0
}

// lowVariety reports whether v uses very few distinct characters (xxxxxxxx,
// 00000000, abababab).
func lowVariety(v string) bool {
	seen := map[byte]bool{}
	for i := 0; i < len(v); i++ {
		seen[v[i]] = true
	}
	return len(v) >= 4 && len(seen) <= 2 || len(v) >= 12 && len(seen) <= 4
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

var (
	uuidRE     = lazyre.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	hostnameRE = lazyre.New(`^[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,12}$`)
	versionRE  = lazyre.New(`^v?\d+(\.\d+)+([\-+.][A-Za-z0-9.\-]*)?$`)
	// fileNameRE is a file name with a short extension: build-2024.tar.gz.
	fileNameRE = lazyre.New(`\.[A-Za-z][A-Za-z0-9]{0,5}$`)
)

// wordy reports whether run is made of segments (split at - _ .) that are
// each a word, a number or a short tag such as v2: a name, not random text.
func wordy(run string) bool {
	segs := strings.FieldsFunc(run, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(segs) < 2 {
		return false
	}
	for _, seg := range segs {
		letters, digits := 0, 0
		for i := 0; i < len(seg); i++ {
			if c := seg[i]; c >= '0' && c <= '9' {
				digits++
			} else {
				letters++
			}
		}
		if letters > 0 && digits > 0 && len(seg) > 3 {
			return false
		}
	}
	return true
}

// HighEntropy reports whether run looks like random text: at least 20
// characters (32 for hexadecimal), letters and digits both present, and a
// Shannon entropy that words, paths, package names and versions do not
// reach. UUIDs, host names, versions and file names are not reported.
func HighEntropy(run string) bool {
	n := len(run)
	if n < 20 || n > 4096 {
		return false
	}
	var lower, upper, digit, hexOnly = 0, 0, 0, true
	for i := 0; i < n; i++ {
		switch c := run[i]; {
		case c >= 'a' && c <= 'z':
			lower++
			if c > 'f' {
				hexOnly = false
			}
		case c >= 'A' && c <= 'Z':
			upper++
			if c > 'F' {
				hexOnly = false
			}
		case c >= '0' && c <= '9':
			digit++
		default:
			hexOnly = false
		}
	}
	if digit < 2 || lower+upper < 2 {
		return false
	}
	if uuidRE.Get().MatchString(run) || versionRE.Get().MatchString(run) || hostnameRE.Get().MatchString(run) {
		return false
	}
	if strings.Contains(run, ".") && fileNameRE.Get().MatchString(run) {
		return false
	}
	if wordy(run) {
		return false // words and numbers joined by separators: a package, file or version
	}
	h := entropy(run)
	switch {
	case hexOnly:
		return n >= 32 && h >= 3.0
	case lower == 0 || upper == 0:
		// one case and digits: generated ids are, words are not
		return n >= 24 && digit >= 4 && h >= 3.7
	default:
		return h >= 3.6
	}
}

// SecretName reports whether a variable or field name says that its value
// is a secret (API_KEY, --token, accessToken), for callers that describe a
// value they do not have.
func SecretName(name string) bool { return secretName(name) }
