package emitters

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcpsync/mcpsync/emitters/unidiff"
)

// DiffOptions change how a plan is printed.
type DiffOptions struct {
	// Mask rewrites each printed line, to hide secrets (MaskSecrets); nil
	// prints the bytes as they are, so that the diff applies with git apply.
	Mask func(line string) string
	// Base, when set, prints paths under it relative to it (the project
	// directory); other paths are printed absolute without the leading
	// slash, as git diff --no-index does.
	Base string
}

// Diff returns the git-style unified diff of every changed file, in plan
// order: exactly the bytes Apply would write.
func (p *Plan) Diff(opts DiffOptions) string {
	var b strings.Builder
	for _, fc := range p.Changes() {
		b.WriteString(fc.Diff(opts))
	}
	return b.String()
}

// Diff returns the file's unified diff, or "" when it does not change.
func (fc *FileChange) Diff(opts DiffOptions) string {
	name := DisplayName(fc.Path, opts.Base)
	return unidiff.Diff(
		unidiff.File{Name: name, Data: fc.Before, Absent: fc.Before == nil, Mode: fc.Mode},
		unidiff.File{Name: name, Data: fc.After, Absent: fc.Kind == Delete, Mode: fc.Mode},
		unidiff.Options{Mask: opts.Mask})
}

// DisplayName is the path shown after a/ and b/ in a diff: relative to
// base when inside it, else absolute without the leading slash (so that
// `git apply --directory=/` or `patch -p1 -d /` can apply it).
func DisplayName(path, base string) string {
	if base != "" {
		if rel, err := filepath.Rel(base, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	p := filepath.ToSlash(path)
	if vol := filepath.VolumeName(path); vol != "" {
		p = strings.TrimPrefix(p, filepath.ToSlash(vol))
	}
	return strings.TrimPrefix(p, "/")
}

// secretValue finds `"key": "value"` (JSON) and `key = "value"` (TOML)
// pairs on one line.
var secretValue = regexp.MustCompile(`("?)([A-Za-z0-9_.\-]+)("?\s*[:=]\s*")((?:[^"\\]|\\.)*)(")`)

// referenceOnly matches values that hold only references (${VAR},
// ${env:VAR}, {env:VAR}, $VAR) and literal scheme words around them: these
// are not secrets and stay visible.
var referenceOnly = regexp.MustCompile(`^(?:Bearer |Basic |Token )?(?:\$\{[^}]*\}|\{env:[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*)$`)

// MaskSecrets hides the value of every key on the line that looks like it
// holds a secret (token, secret, password, api key, Authorization, ...),
// keeping a short prefix so that the user recognises it: "ghp_abc123"
// becomes "ghp***", "Bearer sk-123456" becomes "Bearer sk-***". References
// (${TOKEN}) are not secrets and stay as they are. It is meant for diffs
// shown to people and logs; a masked diff no longer applies.
func MaskSecrets(line string) string {
	if !strings.ContainsAny(line, ":=") {
		return line
	}
	return secretValue.ReplaceAllStringFunc(line, func(m string) string {
		g := secretValue.FindStringSubmatch(m)
		key, value := g[2], g[4]
		if !secretKey(key) || value == "" || referenceOnly.MatchString(value) || strings.HasSuffix(value, "***") {
			return m
		}
		return g[1] + key + g[3] + maskValue(value) + g[5]
	})
}

// secretKey reports whether a key name looks like it holds a secret.
func secretKey(key string) bool {
	k := strings.ToLower(key)
	if strings.HasSuffix(k, "env_var") || strings.HasSuffix(k, "_env") || strings.HasSuffix(k, "env_vars") {
		return false // Codex names an environment variable here, not a value
	}
	for _, w := range []string{"token", "secret", "password", "passwd", "apikey", "api_key", "api-key",
		"authorization", "credential", "private_key", "access_key", "cookie"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return k == "key" || k == "auth" || strings.HasSuffix(k, "_key") || strings.HasSuffix(k, "-key")
}

func maskValue(v string) string {
	prefix := ""
	for _, scheme := range []string{"Bearer ", "Basic ", "Token "} {
		if strings.HasPrefix(v, scheme) {
			prefix, v = scheme, v[len(scheme):]
			break
		}
	}
	r := []rune(v)
	keep := 3
	if len(r) <= 6 {
		keep = 0 // too short to show any of it
	}
	return prefix + string(r[:keep]) + "***"
}
