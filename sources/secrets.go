package sources

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// The no-secrets rule of a shared source. A source is read by everyone who
// pulls it, and its history keeps whatever it ever held, so:
//
//   - a value in env or headers (and an OAuth client_secret) must hold a
//     reference: "${GITHUB_TOKEN}", "Bearer ${TOKEN}", env("X"). A value
//     without one is refused. The only literal values allowed are the ones
//     that cannot carry a secret: an empty string; a word from a closed
//     vocabulary (true, false, yes, no, on, off, trace, debug, info, notice,
//     warn, warning, error, fatal, silent, verbose, quiet, production,
//     development, staging, test); a whole number of at most 6 digits; an
//     http(s) URL without user info, query or fragment in which nothing
//     looks like a secret; and any value of the headers Accept,
//     Accept-Language, Content-Type and MCP-Protocol-Version.
//   - a default in a reference is a literal value that reaches the server
//     when the variable is unset. It is how a team shares a setting that is
//     not a secret (AWS_REGION = env("AWS_REGION", "us-east-1")), so it is
//     allowed, unless it looks like a secret to mcpsync's detector
//     (internal/secrets: a provider's token format, a high-entropy run, …)
//     or is for a variable or key named like a secret (TOKEN, API_KEY,
//     PASSWORD, AUTH, …): such a variable gets no default at all.
//   - literal text around a reference ("Bearer ${TOKEN}",
//     "${userHome}/.acme/config.json") must not look like a secret.
//   - the command, args, cwd, url and client-specific keys (extra) may hold
//     literal text, as in every store, but not text the detector reports.
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

// A finding is one value a source may not hold.
type finding struct {
	field  string // env, headers, oauth.client_secret, args, url, command, cwd, extra
	key    string // the variable, header, args index, or CLIENT.KEY of extra
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
	for _, k := range mapkeys.Sorted(srv.Env) {
		v := srv.Env[k]
		if why := strictValue(secrets.Field{Place: secrets.InEnv, Name: k}, v, false); why != "" {
			f := finding{field: "env", key: k, reason: why, variable: secrets.VarName(k)}
			if !strings.ContainsAny(v, "${}") && len(secrets.Scan(secrets.Field{Place: secrets.InEnv, Name: k}, v)) == 0 {
				f.setting = v
			}
			out = append(out, f)
		}
	}
	for _, k := range mapkeys.Sorted(srv.Headers) {
		v := srv.Headers[k]
		if why := strictValue(secrets.Field{Place: secrets.InHeader, Name: k}, v, plainHeaders[strings.ToLower(k)]); why != "" {
			f := finding{field: "headers", key: k, reason: why, variable: secrets.VarName(srv.Name) + "_" + secrets.VarName(k)}
			if strings.EqualFold(k, "Authorization") {
				f.variable = secrets.VarName(srv.Name) + "_TOKEN"
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
		if why := strictValue(secrets.Field{Place: secrets.InOther, Name: "client_secret"}, o.ClientSecret, false); why != "" {
			out = append(out, finding{field: "oauth.client_secret", key: "client_secret", reason: why,
				variable: secrets.VarName(srv.Name) + "_CLIENT_SECRET"})
		}
	}
	// Everything else may hold literal text, but not what looks like a secret.
	for _, sf := range secrets.ScanServer(srv) {
		f := finding{reason: sf.Describe(), hint: fmt.Sprintf("use a reference such as ${%s} and let each developer set %s", sf.Var, sf.Var)}
		switch {
		case strings.HasPrefix(sf.Field, "env."), strings.HasPrefix(sf.Field, "headers."), sf.Field == "oauth.clientSecret":
			continue // the strict rule above already covers these
		case strings.HasPrefix(sf.Field, "args["):
			f.field, f.key = "args", strings.TrimSuffix(strings.TrimPrefix(sf.Field, "args["), "]")
		case strings.HasPrefix(sf.Field, "extra."):
			f.field, f.key = "extra", strings.TrimPrefix(sf.Field, "extra.")
		default: // url, command, cwd
			f.field, f.key = sf.Field, sf.Field
		}
		out = append(out, f)
	}
	return out
}

// hintFor says how to write the finding's value in the source's own syntax.
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

// strictValue returns why v may not be the value of field in a shared
// source's env or headers, or "" when it may. anyLiteral allows any
// literal value (headers that are never credentials) while still checking
// the text around references and the defaults.
func strictValue(field secrets.Field, v string, anyLiteral bool) string {
	t := canonical.Parse(v, canonical.DialectCanonical)
	if !t.HasRefs() {
		if anyLiteral || plainLiteral(v) {
			return ""
		}
		return "holds a literal value, not a reference"
	}
	if len(secrets.Scan(field, v)) > 0 {
		return "holds literal text that looks like a secret around its reference"
	}
	for _, s := range t {
		if s.Kind != canonical.EnvRef || !s.HasDefault || plainLiteral(s.Default) {
			continue
		}
		// A default is a literal value for the variable, and for the key.
		if len(secrets.Scan(secrets.Field{Place: field.Place, Name: s.Name}, s.Default)) > 0 ||
			len(secrets.Scan(field, s.Default)) > 0 {
			return fmt.Sprintf("has a default that looks like a secret, which reaches the server whenever %s is unset", s.Name)
		}
		// Stricter than the detector, which lets short words pass: no
		// default at all for a variable or key named like a secret.
		if secretName(s.Name) || secretName(field.Name) {
			return fmt.Sprintf("has a default for a secret, which reaches the server whenever %s is unset", s.Name)
		}
	}
	return ""
}

// secretName reports whether a variable or header name says it holds a
// secret, so that no default may be shared for it.
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
	return u.User == nil && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(v, "?") &&
		len(secrets.Scan(secrets.Field{Place: secrets.InURL}, v)) == 0
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
