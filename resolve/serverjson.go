package resolve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
)

// ServerJSON is a server.json document (the official registry's schema),
// read from any of its published versions: the 2025-07-09 snake_case
// spelling and the camelCase one that replaced it are both accepted.
type ServerJSON struct {
	Schema      string      `json:"$schema,omitempty"`
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Version     string      `json:"version,omitempty"`
	WebsiteURL  string      `json:"websiteUrl,omitempty"`
	Repository  *Repository `json:"repository,omitempty"`
	Packages    []Package   `json:"packages,omitempty"`
	Remotes     []Transport `json:"remotes,omitempty"`
}

// Repository is where a server's source lives.
type Repository struct {
	URL       string `json:"url,omitempty"`
	Source    string `json:"source,omitempty"`
	ID        string `json:"id,omitempty"`
	Subfolder string `json:"subfolder,omitempty"`
}

// Package is one way to install and run a server.
type Package struct {
	RegistryType         string          `json:"registryType"`
	RegistryBaseURL      string          `json:"registryBaseUrl,omitempty"`
	Identifier           string          `json:"identifier"`
	Version              string          `json:"version,omitempty"`
	FileSHA256           string          `json:"fileSha256,omitempty"`
	RuntimeHint          string          `json:"runtimeHint,omitempty"`
	Transport            Transport       `json:"transport"`
	RuntimeArguments     []Argument      `json:"runtimeArguments,omitempty"`
	PackageArguments     []Argument      `json:"packageArguments,omitempty"`
	EnvironmentVariables []KeyValueInput `json:"environmentVariables,omitempty"`
}

// Transport is how a client connects: stdio for a package, or a URL.
type Transport struct {
	Type      string              `json:"type"`
	URL       string              `json:"url,omitempty"`
	Headers   []KeyValueInput     `json:"headers,omitempty"`
	Variables map[string]InputDef `json:"variables,omitempty"`
}

// InputDef is a value the user may or must provide. Value may hold {name}
// references to Variables.
type InputDef struct {
	Description string              `json:"description,omitempty"`
	IsRequired  bool                `json:"isRequired,omitempty"`
	IsSecret    bool                `json:"isSecret,omitempty"`
	Format      string              `json:"format,omitempty"`
	Value       string              `json:"value,omitempty"`
	Default     string              `json:"default,omitempty"`
	Placeholder string              `json:"placeholder,omitempty"`
	Choices     []string            `json:"choices,omitempty"`
	Variables   map[string]InputDef `json:"variables,omitempty"`
}

// Argument is a command-line argument: positional or named (--flag value).
type Argument struct {
	InputDef
	Type       string `json:"type"`
	Name       string `json:"name,omitempty"`
	ValueHint  string `json:"valueHint,omitempty"`
	IsRepeated bool   `json:"isRepeated,omitempty"`
}

// KeyValueInput is an environment variable or an HTTP header.
type KeyValueInput struct {
	InputDef
	Name string `json:"name"`
}

// ParseServerJSON reads a server.json document. Warnings say what was
// repaired (legacy spellings, invented shapes, missing transports); an
// error means the text is not a usable server.json.
func ParseServerJSON(data []byte) (*ServerJSON, []string, error) {
	var raw any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, nil, fmt.Errorf("not JSON: %v", jsonErrorAt(data, err))
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("not JSON: text after the document")
	}
	top, ok := raw.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("not a server.json: the document is not an object")
	}
	var warns []string
	snake := false
	top = normalizeKeys(top, &snake).(map[string]any)
	if snake {
		warns = append(warns, "uses the 2025-07-09 snake_case spelling: read as the current camelCase schema")
	}
	repairPackages(top, &warns)
	norm, err := json.Marshal(top)
	if err != nil {
		return nil, warns, err
	}
	var s ServerJSON
	if err := json.Unmarshal(norm, &s); err != nil {
		return nil, warns, fmt.Errorf("not a server.json: %v", err)
	}
	if s.Name == "" {
		return nil, warns, fmt.Errorf(`not a server.json: it has no "name"`)
	}
	if len(s.Packages) == 0 && len(s.Remotes) == 0 {
		return nil, warns, fmt.Errorf("server.json %q lists neither packages nor remotes: there is nothing to run", s.Name)
	}
	for i := range s.Packages {
		p := &s.Packages[i]
		if p.Transport.Type == "" {
			p.Transport.Type = "stdio"
			if p.RegistryType != "mcpb" {
				warns = append(warns, fmt.Sprintf("packages[%d] declares no transport: assumed stdio", i))
			}
		}
	}
	return &s, warns, nil
}

// jsonErrorAt turns a decoder error into "line L, column C: msg".
func jsonErrorAt(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	p := canonical.PosAt("", data, int(off))
	return fmt.Sprintf("line %d, column %d: %v", p.Line, p.Column, err)
}

// normalizeKeys rewrites snake_case keys to camelCase, recursively, except
// inside "variables" maps (whose keys are the publisher's variable names)
// and "_meta" (publisher data we do not read).
func normalizeKeys(v any, snake *bool) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			switch {
			case k == "_meta":
				continue
			case k == "variables":
				vars, ok := val.(map[string]any)
				if !ok {
					out[k] = val
					continue
				}
				nv := make(map[string]any, len(vars))
				for name, vv := range vars {
					nv[name] = normalizeKeys(vv, snake)
				}
				out[k] = nv
				continue
			case k == "version_detail":
				// 2025-07-09 drafts: {"version_detail": {"version": "1.0"}}.
				if m, ok := val.(map[string]any); ok {
					if ver, ok := m["version"]; ok {
						if _, has := t["version"]; !has {
							out["version"] = ver
						}
					}
				}
				*snake = true
				continue
			case k == "transport_type":
				out["type"] = normalizeKeys(val, snake)
				*snake = true
				continue
			}
			nk := k
			if strings.Contains(k, "_") && !strings.HasPrefix(k, "$") {
				nk = camel(k)
				*snake = true
			}
			if _, dup := out[nk]; dup && nk != k {
				continue // a camelCase key given too wins
			}
			out[nk] = coerceScalar(nk, normalizeKeys(val, snake))
		}
		return out
	case []any:
		for i := range t {
			t[i] = normalizeKeys(t[i], snake)
		}
		return t
	}
	return v
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	var b strings.Builder
	b.WriteString(parts[0])
	for _, p := range parts[1:] {
		if p == "" {
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}

var knownRegistryTypes = map[string]bool{"npm": true, "pypi": true, "oci": true, "nuget": true, "mcpb": true, "cargo": true, "go": true}

// repairPackages maps shapes that older drafts and some publishers
// invented onto the schema: {"registryName": "npm", "name": ...},
// GrabzIt's {"type": "npm", "package": ...}, a transport given as a string.
func repairPackages(top map[string]any, warns *[]string) {
	pkgs, _ := top["packages"].([]any)
	for i, p := range pkgs {
		m, ok := p.(map[string]any)
		if !ok {
			continue
		}
		var renamed []string
		if _, ok := m["registryType"]; !ok {
			for _, k := range []string{"registryName", "type", "registry"} {
				if v, ok := m[k].(string); ok && knownRegistryTypes[strings.ToLower(v)] {
					m["registryType"] = strings.ToLower(v)
					delete(m, k)
					renamed = append(renamed, k)
					break
				}
			}
		}
		if _, ok := m["identifier"]; !ok {
			for _, k := range []string{"name", "package", "packageName", "image"} {
				if v, ok := m[k].(string); ok && v != "" {
					m["identifier"] = v
					delete(m, k)
					renamed = append(renamed, k)
					break
				}
			}
		}
		if t, ok := m["transport"].(string); ok {
			m["transport"] = map[string]any{"type": t}
			renamed = append(renamed, "transport (a string)")
		}
		if len(renamed) > 0 {
			*warns = append(*warns, fmt.Sprintf("packages[%d] uses non-schema keys %s: read leniently as registryType %v, identifier %v",
				i, strings.Join(renamed, ", "), m["registryType"], m["identifier"]))
		}
	}
	// Remotes given a transport type under "transport_type" were handled by
	// normalizeKeys; a remote with "transport": {"type", "url"} nests one level too deep.
	rems, _ := top["remotes"].([]any)
	for i, r := range rems {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		if t, ok := m["transport"].(map[string]any); ok {
			for k, v := range t {
				if _, has := m[k]; !has {
					m[k] = v
				}
			}
			delete(m, "transport")
			*warns = append(*warns, fmt.Sprintf("remotes[%d] nests its type and url under \"transport\": read leniently", i))
		}
	}
}

// coerceScalar repairs scalar types that publishers get wrong: a number
// where the schema wants a string ("value": 8085), a string where it wants
// a boolean ("isRequired": "true").
func coerceScalar(key string, v any) any {
	switch key {
	case "isRequired", "isSecret", "isRepeated":
		if s, ok := v.(string); ok {
			return strings.EqualFold(s, "true")
		}
	case "value", "default", "version", "identifier", "placeholder", "description", "name", "format",
		"valueHint", "runtimeHint", "registryType", "type", "url", "title", "subfolder", "id":
		switch t := v.(type) {
		case json.Number:
			return t.String()
		case bool:
			if t {
				return "true"
			}
			return "false"
		}
	}
	return v
}
