// Package goose reads and writes the MCP servers of Block's Goose: the
// extensions map of ~/.config/goose/config.yaml.
//
// Goose keeps its own extensions (type builtin, platform, frontend,
// inline_python) in the same map. They are not MCP servers mcpsync can
// move between clients: they are never read into the canonical model and
// always left exactly as they are. stdio extensions (cmd, args, envs,
// env_keys) and streamable_http ones (uri, headers) are.
//
// Goose substitutes ${VAR} in uri and headers from the extension's envs and
// env_keys (values from its keyring); nothing else is expanded. An env value
// that references a variable is written as env_keys, which Goose fills in.
//
// Edits go through formats/internal/yamledit: unchanged extensions keep
// their bytes, changed ones are edited key by key, and comments stay.
package goose

import (
	"time"

	"go.yaml.in/yaml/v3"

	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
)

// ID is the client id users type.
const ID = "goose"

const section = "extensions"

// layout is where Goose keeps its extensions, a map under a top-level key,
// and how it words the errors that keep it from reading any.
var layout = adapterkit.YAMLSection{
	Key:              section,
	Client:           "Goose",
	Kind:             yaml.MappingNode,
	SyntaxDetail:     "Goose cannot read this file; fix the syntax at this line",
	NotMappingDetail: "Goose's config.yaml maps settings to values (GOOSE_PROVIDER: ..., extensions: ...)",
	WrongKind:        "invalid type: extensions is not a map",
	WrongKindDetail:  "write extensions as a map of name to extension; Goose drops every extension when it cannot read this",
}

// dialect is what Goose expands in uri and headers: ${VAR}, no defaults.
var dialect = canonical.Dialect{Name: "goose", Env: canonical.EnvDollar}

type adapter struct{}

// Adapter returns the Goose adapter.
func Adapter() formats.Adapter { return adapter{} }

func (adapter) ID() string          { return ID }
func (adapter) DisplayName() string { return "Goose" }

func (adapter) Capabilities() formats.Capabilities {
	return formats.Capabilities{
		Transports:  []canonical.Transport{canonical.Stdio, canonical.HTTP},
		Headers:     true,
		Disabled:    true,
		ToolFilters: true,
		Timeouts:    true,
		Comments:    true,
		Dialect:     dialect.Name,
	}
}

// Locations returns the one file Goose reads: $XDG_CONFIG_HOME/goose/
// config.yaml (else ~/.config/goose/config.yaml), on Windows
// %APPDATA%\Block\goose\config\config.yaml.
func (adapter) Locations(env formats.Env) []formats.Location {
	var path string
	switch {
	case env.OS == "windows":
		appData := env.Get("APPDATA")
		if appData == "" && env.Home != "" {
			appData = adapterkit.JoinPath(env.PathOS(), env.Home, "AppData", "Roaming")
		}
		if appData == "" {
			return nil
		}
		path = adapterkit.JoinPath(env.PathOS(), appData, "Block", "goose", "config", "config.yaml")
	case env.Get("XDG_CONFIG_HOME") != "":
		path = adapterkit.JoinPath(env.PathOS(), env.Get("XDG_CONFIG_HOME"), "goose", "config.yaml")
	case env.Home != "":
		path = adapterkit.JoinPath(env.PathOS(), env.Home, ".config", "goose", "config.yaml")
	default:
		return nil
	}
	return []formats.Location{{Client: ID, Scope: canonical.ScopeUser, Path: path, Format: formats.YAML}}
}

// disallowedEnv are the variables Goose refuses to set for an extension
// (Envs::DISALLOWED_KEYS in crates/goose/src/agents/extension.rs); an
// extension that sets one fails to load. Compared without case.
var disallowedEnv = []string{
	"PATH", "PATHEXT", "SystemRoot", "windir",
	"LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "LD_DEBUG", "LD_BIND_NOW", "LD_ASSUME_KERNEL",
	"DYLD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "DYLD_FRAMEWORK_PATH",
	"PYTHONPATH", "PYTHONHOME", "NODE_OPTIONS", "RUBYOPT", "GEM_PATH", "GEM_HOME", "CLASSPATH",
	"GO111MODULE", "GOROOT",
	"APPINIT_DLLS", "SESSIONNAME", "ComSpec", "TEMP", "TMP", "LOCALAPPDATA", "USERPROFILE", "HOMEDRIVE", "HOMEPATH",
}

func disallowed(k string) bool {
	for _, d := range disallowedEnv {
		if strings.EqualFold(d, k) {
			return true
		}
	}
	return false
}

// Shape implements formats.Shaper: extensions, each with a type, and one
// timeout in seconds.
func (adapter) Shape() formats.Shape {
	return formats.Shape{Client: ID, Servers: [][]string{{"extensions"}}, Dialect: dialect,
		Types:          map[string]canonical.Transport{"stdio": canonical.Stdio, "streamable_http": canonical.HTTP, "sse": canonical.SSE},
		URLWithoutType: "invalid",
		Timeouts:       map[string]formats.Timeout{"timeout": {Unit: time.Second}}}
}
