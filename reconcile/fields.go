package reconcile

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/ledger"
)

// fields is a server flattened into one string per field, the unit of the
// merge: "command", "args" (a JSON array), "env/NAME" and "headers/NAME"
// (one per key, so that an empty value is still a value), "disabled",
// "extra/CLIENT" (that client's own keys, as one JSON object), ... A field
// that is absent has its zero value. Two servers are the same definition
// exactly when their fields are equal.
type fields map[string]string

const (
	envPrefix    = "env/"
	headerPrefix = "headers/"
	extraPrefix  = "extra/"
)

// fieldsOf flattens srv (normalised first, its Origin ignored).
func fieldsOf(srv canonical.Server) fields {
	s := ledger.Snapshot(srv)
	f := fields{}
	set := func(k, v string) {
		if v != "" {
			f[k] = v
		}
	}
	set("transport", string(s.Transport))
	set("command", s.Command)
	set("cwd", s.Cwd)
	set("url", s.URL)
	if len(s.Args) > 0 {
		f["args"] = jsonText(s.Args)
	}
	for k, v := range s.Env {
		f[envPrefix+k] = v
	}
	for k, v := range s.Headers {
		f[headerPrefix+k] = v
	}
	if s.Disabled {
		f["disabled"] = "true"
	}
	if len(s.ToolsAllow) > 0 {
		f["toolsAllow"] = jsonText(s.ToolsAllow)
	}
	if len(s.ToolsDeny) > 0 {
		f["toolsDeny"] = jsonText(s.ToolsDeny)
	}
	if s.StartupTimeout != 0 {
		f["startupTimeout"] = s.StartupTimeout.String()
	}
	if s.ToolTimeout != 0 {
		f["toolTimeout"] = s.ToolTimeout.String()
	}
	if s.Auth.BearerTokenEnv != "" {
		f["bearerTokenEnv"] = s.Auth.BearerTokenEnv
	}
	if !s.Auth.OAuth.IsZero() {
		f["oauth"] = jsonText(s.Auth.OAuth)
	}
	for client, kv := range s.Extra {
		if len(kv) > 0 {
			f[extraPrefix+client] = compactObject(kv)
		}
	}
	return f
}

// server rebuilds the named server from its fields.
func (f fields) server(name string) canonical.Server {
	s := canonical.Server{Name: name}
	for k, v := range f {
		switch {
		case k == "transport":
			s.Transport = canonical.Transport(v)
		case k == "command":
			s.Command = v
		case k == "cwd":
			s.Cwd = v
		case k == "url":
			s.URL = v
		case k == "args":
			json.Unmarshal([]byte(v), &s.Args)
		case strings.HasPrefix(k, envPrefix):
			if s.Env == nil {
				s.Env = map[string]string{}
			}
			s.Env[k[len(envPrefix):]] = v
		case strings.HasPrefix(k, headerPrefix):
			if s.Headers == nil {
				s.Headers = map[string]string{}
			}
			s.Headers[k[len(headerPrefix):]] = v
		case k == "disabled":
			s.Disabled = v == "true"
		case k == "toolsAllow":
			json.Unmarshal([]byte(v), &s.ToolsAllow)
		case k == "toolsDeny":
			json.Unmarshal([]byte(v), &s.ToolsDeny)
		case k == "startupTimeout":
			s.StartupTimeout, _ = time.ParseDuration(v)
		case k == "toolTimeout":
			s.ToolTimeout, _ = time.ParseDuration(v)
		case k == "bearerTokenEnv":
			s.Auth.BearerTokenEnv = v
		case k == "oauth":
			var o canonical.OAuth
			if json.Unmarshal([]byte(v), &o) == nil {
				s.Auth.OAuth = &o
			}
		case strings.HasPrefix(k, extraPrefix):
			var kv map[string]json.RawMessage
			if json.Unmarshal([]byte(v), &kv) == nil {
				for key, raw := range kv {
					s.SetExtra(k[len(extraPrefix):], key, raw)
				}
			}
		}
	}
	s.Normalize()
	return s
}

func (f fields) equal(g fields) bool { return maps.Equal(f, g) }

func (f fields) clone() fields { return maps.Clone(f) }

// key is a stable text of f, for caches and for comparing candidates.
func (f fields) key() string {
	keys := slices.Sorted(maps.Keys(f))
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(f[k])
		b.WriteByte(0)
	}
	return b.String()
}

// edits are field changes: a value, or nil to remove the field.
type edits map[string]*string

// diff returns the edits that turn from into to.
func diff(from, to fields) edits {
	e := edits{}
	for k, v := range to {
		if old, ok := from[k]; !ok || old != v {
			e[k] = &v
		}
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			e[k] = nil
		}
	}
	return e
}

// apply returns base with the edits made.
func apply(base fields, e edits) fields {
	out := base.clone()
	if out == nil {
		out = fields{}
	}
	for k, v := range e {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = *v
		}
	}
	return out
}

// names returns the edited fields, sorted.
func (e edits) names() []string { return slices.Sorted(maps.Keys(e)) }

// An expansion is a reference that a client replaced by a literal value
// (Gemini CLI and Qwen Code save the expanded values of every other server
// when they add one). It is never taken as an edit: that value is usually
// a secret, and copying it into other clients would spread it.
type expansion struct {
	Field string // "env/GITHUB_TOKEN", "args[2]", ...
	Ref   string // the reference the field held, ${GITHUB_TOKEN}
	Value string // the literal the client holds now (print it masked)
}

// realEdits returns the edits from ref to cur that a client really made,
// and the expansions it left out: a field whose reference value became a
// literal keeps its reference.
func realEdits(ref, cur fields) (edits, []expansion) {
	e := diff(ref, cur)
	var exps []expansion
	for _, k := range e.names() {
		v := e[k]
		if v == nil {
			continue
		}
		old, had := ref[k]
		if !had {
			continue
		}
		switch {
		case k == "args":
			var oldArgs, newArgs []string
			if json.Unmarshal([]byte(old), &oldArgs) != nil || json.Unmarshal([]byte(*v), &newArgs) != nil ||
				len(oldArgs) != len(newArgs) {
				continue
			}
			kept := slices.Clone(newArgs)
			for i := range newArgs {
				if isExpansion(oldArgs[i], newArgs[i]) {
					exps = append(exps, expansion{Field: "args[" + strconv.Itoa(i) + "]", Ref: oldArgs[i], Value: newArgs[i]})
					kept[i] = oldArgs[i]
				}
			}
			if slices.Equal(kept, oldArgs) {
				delete(e, k)
			} else {
				s := jsonText(kept)
				e[k] = &s
			}
		case isStringField(k) && isExpansion(old, *v):
			exps = append(exps, expansion{Field: k, Ref: old, Value: *v})
			delete(e, k)
		}
	}
	return e, exps
}

// isStringField reports whether the field is one string that a client may
// expand: command, cwd, url, an env value or a header value.
func isStringField(k string) bool {
	return k == "command" || k == "cwd" || k == "url" || strings.HasPrefix(k, envPrefix) || strings.HasPrefix(k, headerPrefix)
}

// isExpansion reports whether a value that held references now holds none:
// the client wrote what the references stood for.
func isExpansion(ref, value string) bool {
	return value != "" && hasRefs(ref) && !hasRefs(value)
}

func hasRefs(s string) bool {
	return strings.Contains(s, "$") && canonical.Parse(s, canonical.DialectCanonical).HasRefs()
}

// Mask shows the first characters of a value that may be a secret, so that
// the user recognises it without the log or the terminal holding it.
func Mask(v string) string {
	r := []rune(v)
	if len(r) <= 6 {
		return "***"
	}
	return string(r[:3]) + "***"
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// compactObject renders a client's Extra as one JSON object with sorted
// keys and compact values, so that spacing never looks like an edit.
func compactObject(kv map[string]json.RawMessage) string {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	obj := make(map[string]any, len(kv))
	for _, k := range keys {
		var v any
		if json.Unmarshal(kv[k], &v) != nil {
			v = string(kv[k])
		}
		obj[k] = v
	}
	return jsonText(obj) // encoding/json sorts map keys
}
