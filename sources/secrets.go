package sources

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
)

// The no-secrets rule of a shared source. A source is read by everyone who
// pulls it, and its history keeps whatever it ever held, so:
//
//   - a value in env or headers (and an OAuth client_secret) must hold a
//     reference: "${GITHUB_TOKEN}", "Bearer ${TOKEN}", env("X"). A value
//     without one is refused. The only literal values allowed are the ones
//     that cannot carry a secret: an empty string; a word from a closed
//     vocabulary (true, false, yes, no, on, off, trace, debug, info, warn,
//     warning, error, fatal, silent, verbose, production, development,
//     staging, test); a whole number of at most 6 digits; an http(s) URL
//     without user info, query or fragment, and without a credential-looking
//     path segment; and any value of the headers Accept, Accept-Language,
//     Content-Type and MCP-Protocol-Version.
//   - a default in a reference is a literal value that reaches the server
//     when the variable is unset. It is how a team shares a setting that is
//     not a secret (AWS_REGION = env("AWS_REGION", "us-east-1")), so it is
//     allowed, unless it looks like a credential or the variable or key it
//     is for is named like a secret (TOKEN, KEY, SECRET, PASSWORD, AUTH, …).
//   - literal text around a reference ("Bearer ${TOKEN}",
//     "${userHome}/.acme/config.json") must not look like a credential.
//   - args, the url and client-specific keys (extra) may hold literal text,
//     as they do in every store, but not text that looks like a credential
//     (a known token prefix such as ghp_ or sk-, or a long random-looking
//     word); that is refused too.
//
// Every refusal names the file, line and column of the value.

// plainWords are literal values that cannot carry a secret.
var plainWords = map[string]bool{
	"": true, "true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
	"trace": true, "debug": true, "info": true, "notice": true, "warn": true, "warning": true,
	"error": true, "fatal": true, "silent": true, "verbose": true, "quiet": true,
	"production": true, "development": true, "staging": true, "test": true,
}

// plainHeaders are headers whose value is never a credential.
var plainHeaders = map[string]bool{
	"accept": true, "accept-language": true, "content-type": true, "mcp-protocol-version": true,
}

// credentialPrefixes start well-known token formats.
var credentialPrefixes = []string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "sk_live_", "sk_test_", "rk_live_",
	"xoxb-", "xoxp-", "xoxa-", "xoxs-", "AKIA", "ASIA", "AIza", "ya29.", "npm_", "pypi-", "dop_v1_", "lin_api_",
	"pk_live_", "shpat_", "hf_",
}

// A finding is one value a source may not hold.
type finding struct {
	field  string // env, headers, oauth.client_secret, args, url, extra
	key    string // the variable, header, extra key, or args index
	reason string
	// For env, headers and client_secret: the reference to suggest instead,
	// as a variable name and the literal text before it ("Bearer ").
	variable, prefix string
	// setting, when the value looks like a plain setting rather than a
	// secret, is that value, which may be shared as a default instead.
	setting string
	// hint, for the other fields, says what to do.
	hint string
}

// checkServer applies the no-secrets rule to one server.
func checkServer(srv canonical.Server) []finding {
	var out []finding
	for _, k := range sortedKeys(srv.Env) {
		if why := strictValue(k, srv.Env[k], false); why != "" {
			f := finding{field: "env", key: k, reason: why, variable: envName(k)}
			if !secretName(k) && !looksLikeCredential(srv.Env[k]) && !strings.ContainsAny(srv.Env[k], "${}") {
				f.setting = srv.Env[k]
			}
			out = append(out, f)
		}
	}
	for _, k := range sortedKeys(srv.Headers) {
		v := srv.Headers[k]
		if why := strictValue(k, v, plainHeaders[strings.ToLower(k)]); why != "" {
			f := finding{field: "headers", key: k, reason: why, variable: envName(srv.Name) + "_" + envName(k)}
			if strings.EqualFold(k, "Authorization") {
				f.variable = envName(srv.Name) + "_TOKEN"
				for _, scheme := range []string{"Bearer ", "Basic ", "Token "} {
					if strings.HasPrefix(v, scheme) {
						f.prefix = scheme
					}
				}
			}
			out = append(out, f)
		}
	}
	if o := srv.Auth.OAuth; o != nil && o.ClientSecret != "" {
		if why := strictValue("client_secret", o.ClientSecret, false); why != "" {
			out = append(out, finding{field: "oauth.client_secret", key: "client_secret", reason: why, variable: envName(srv.Name) + "_CLIENT_SECRET"})
		}
	}
	for i, a := range srv.Args {
		if looksLikeCredential(a) {
			out = append(out, finding{field: "args", key: strconv.Itoa(i), reason: "argument " + strconv.Itoa(i+1) + " looks like a credential",
				hint: "pass secrets through env as references, and write \"${TOKEN}\" in args if the server reads it there"})
		}
	}
	if srv.URL != "" && looksLikeCredential(srv.URL) {
		out = append(out, finding{field: "url", key: "url", reason: "the url looks like it holds a credential",
			hint: "send the credential in a header holding a reference, such as Authorization: Bearer ${TOKEN}"})
	}
	for _, client := range sortedKeys(srv.Extra) {
		for _, key := range sortedKeys(srv.Extra[client]) {
			if s := credentialInJSON(srv.Extra[client][key]); s != "" {
				out = append(out, finding{field: "extra", key: client + "." + key, reason: fmt.Sprintf("the %s key %q holds a value that looks like a credential", client, key),
					hint: "a shared source holds no secret; use a reference such as ${TOKEN}"})
			}
		}
	}
	return out
}

// hint says how to write the finding's value in the source's own syntax.
func (f finding) hintFor(hcl bool) string {
	if f.variable == "" {
		return f.hint
	}
	key := f.key
	var ref string
	switch {
	case hcl && f.prefix == "":
		ref = fmt.Sprintf("%s = env(%q)", hclKey(key), f.variable)
	case hcl:
		ref = fmt.Sprintf("%s = \"%s${env(%q)}\"", hclKey(key), f.prefix, f.variable)
	default:
		ref = fmt.Sprintf("%q: \"%s${%s}\"", key, f.prefix, f.variable)
	}
	hint := fmt.Sprintf("everyone who pulls a source can read it: write %s and let each developer set %s in their environment", ref, f.variable)
	if f.setting != "" {
		def := fmt.Sprintf("%s = env(%q, %q)", hclKey(key), f.variable, f.setting)
		if !hcl {
			def = fmt.Sprintf("%q: \"${%s:-%s}\"", key, f.variable, f.setting)
		}
		hint += "; if it is a setting, not a secret, share it as a default: " + def
	}
	return hint
}

// strictValue returns why v may not be the value of key in a shared
// source's env or headers, or "" when it may. anyLiteral allows any literal
// value (headers that are never credentials) while still checking the
// text around references.
func strictValue(key, v string, anyLiteral bool) string {
	t := canonical.Parse(v, canonical.DialectCanonical)
	if !t.HasRefs() {
		if anyLiteral || plainLiteral(v) {
			return ""
		}
		return "holds a literal value, not a reference"
	}
	for _, s := range t {
		switch {
		case s.Kind == canonical.Literal && looksLikeCredential(s.Text):
			return "holds literal text that looks like a credential around its reference"
		case s.Kind != canonical.EnvRef || !s.HasDefault || plainLiteral(s.Default):
		case looksLikeCredential(s.Default):
			return fmt.Sprintf("has a default that looks like a credential, which reaches the server whenever %s is unset", s.Name)
		case secretName(s.Name) || secretName(key):
			return fmt.Sprintf("has a literal default for a secret, which reaches the server whenever %s is unset", s.Name)
		}
	}
	return ""
}

// secretName reports whether a variable or header name says it holds a
// secret: a default for it would be a shared secret.
func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "auth",
		"credential", "private", "access_key", "cookie", "session"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return n == "key" || n == "pat" || strings.HasSuffix(n, "_key") || strings.HasSuffix(n, "-key") || strings.HasSuffix(n, "_pat")
}

// plainLiteral reports whether a literal value cannot carry a secret.
func plainLiteral(v string) bool {
	if plainWords[strings.ToLower(v)] {
		return true
	}
	if len(v) <= 6 {
		if _, err := strconv.ParseUint(v, 10, 32); err == nil {
			return true
		}
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return u.User == nil && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(v, "?") && !looksLikeCredential(u.Path)
}

// looksLikeCredential reports whether any word of s looks like a token: a
// well-known token prefix, or a long word mixing upper case, lower case and
// digits, as random keys do (words, paths, package names and UUIDs do not).
func looksLikeCredential(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '+' || r == '.')
	}) {
		for _, p := range credentialPrefixes {
			if strings.HasPrefix(w, p) && len(w) >= len(p)+8 {
				return true
			}
		}
		for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '.' }) {
			if randomWord(part) {
				return true
			}
		}
	}
	return false
}

// randomWord reports whether w is long and mixes upper case, lower case and
// digits, as generated keys do; words, versions and file names do not.
func randomWord(w string) bool {
	if len(w) < 20 {
		return false
	}
	var lower, upper, digit bool
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= '0' && r <= '9':
			digit = true
		}
	}
	return lower && upper && digit
}

// credentialInJSON returns the first string inside a JSON value that looks
// like a credential, or "".
func credentialInJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var walk func(any) string
	walk = func(v any) string {
		switch x := v.(type) {
		case string:
			if looksLikeCredential(x) {
				return x
			}
		case []any:
			for _, e := range x {
				if s := walk(e); s != "" {
					return s
				}
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if s := walk(x[k]); s != "" {
					return s
				}
			}
		}
		return ""
	}
	return walk(v)
}

// envName turns a header or variable name into a variable name for hints.
func envName(k string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(k) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "VALUE"
	}
	return b.String()
}

// hclKey writes an object key as HCL needs it: bare when it is an
// identifier, quoted otherwise ("X-Api-Key" has dashes, which HCL allows).
func hclKey(k string) string {
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '-')) {
			return strconv.Quote(k)
		}
	}
	return k
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
