// Package all assembles the registry of every client mcpsync knows: the
// built-in adapters, then the user's plugins from clients.d.
//
// Commands import this package, never the client packages one by one, so a
// new client is one line here.
package all

import (
	"path/filepath"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"

	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/cline"
	"github.com/mcpsync/mcpsync/formats/codex"
	continuedev "github.com/mcpsync/mcpsync/formats/continue"
	"github.com/mcpsync/mcpsync/formats/copilot"
	"github.com/mcpsync/mcpsync/formats/gemini"
	"github.com/mcpsync/mcpsync/formats/goose"
	"github.com/mcpsync/mcpsync/formats/qwen"
	"github.com/mcpsync/mcpsync/formats/spec"
	"github.com/mcpsync/mcpsync/formats/vscode"
	"github.com/mcpsync/mcpsync/formats/zed"
)

// Options says where to find user plugins.
type Options struct {
	// PluginDir holds user client specs (*.hcl); "" loads none. The usual
	// place is PluginDir(configHome).
	PluginDir string
}

// PluginDir returns the user plugin directory under an XDG config home:
// $XDG_CONFIG_HOME/mcpsync/clients.d.
func PluginDir(configHome string) string {
	return filepath.Join(configHome, "mcpsync", "clients.d")
}

// NewRegistry returns a registry holding every built-in adapter, in
// alphabetical order of id, then the plugins of opts.PluginDir. A plugin
// that fails to load is reported in the registry's Diags and skipped; every
// other client still works.
func NewRegistry(opts Options) *formats.Registry {
	r := formats.NewRegistry()
	builtin := formats.Origin{Builtin: true}
	// Built-in adapters, alphabetical by id. A client described by its spec
	// alone is plain(id); a client with Go quirks has a package exposing
	// Adapter() formats.Adapter.
	r.Register(plain("amazonq"), builtin)
	r.Register(plain("amp"), builtin)
	r.Register(plain("antigravity-cli"), builtin)
	r.Register(plain("auggie"), builtin)
	r.Register(plain("claude-code"), builtin)
	r.Register(plain("claude-desktop"), builtin)
	r.Register(cline.Adapter(), builtin)
	r.Register(cline.CLIAdapter(), builtin)
	// >>> codex
	r.Register(codex.Adapter(), builtin)
	// <<< codex
	r.Register(continuedev.Adapter(), builtin)
	r.Register(copilot.Adapter(), builtin)
	r.Register(plain("crush"), builtin)
	r.Register(plain("cursor"), builtin)
	r.Register(plain("devin"), builtin)
	r.Register(plain("devin-cli"), builtin)
	r.Register(plain("droid"), builtin)
	r.Register(gemini.Adapter(), builtin)
	r.Register(goose.Adapter(), builtin)
	r.Register(plain("junie"), builtin)
	r.Register(plain("kilo"), builtin)
	r.Register(plain("kiro"), builtin)
	r.Register(plain("lm-studio"), builtin)
	r.Register(plain("opencode"), builtin)
	r.Register(plain("pi"), builtin)
	r.Register(qwen.Adapter(), builtin)
	r.Register(plain("roo"), builtin)
	r.Register(plain("visual-studio"), builtin)
	r.Register(vscode.Adapter(), builtin)
	r.Register(plain("windsurf"), builtin)
	r.Register(zed.Adapter(), builtin)

	if opts.PluginDir != "" {
		plugins, diags := spec.LoadPlugins(opts.PluginDir)
		r.Diags = append(r.Diags, diags...)
		for _, p := range plugins {
			file := p.(*spec.Adapter).Spec().File
			if old, err := r.Lookup(p.ID()); err == nil && r.Origin(old.ID()).Builtin {
				// Said on every command: a file in clients.d now decides
				// where mcpsync writes this client's servers.
				d := canonical.Warnf("the plugin %s replaces the built-in client %q", file, p.ID())
				d.Detail = "every command reads and writes " + p.ID() + "'s files as the plugin says; remove the file to use the built-in client"
				r.Diags = append(r.Diags, d.At(canonical.Pos{File: file}))
			}
			r.Replace(p, formats.Origin{File: file})
		}
	}
	return r
}

// plain is a built-in client that its spec describes entirely. Its spec is
// parsed on first use.
func plain(id string) formats.Adapter { return spec.BuiltinAdapter(id, nil) }

// builtinShapes is Shapes' answer, computed once.
var builtinShapes = sync.OnceValue(func() []formats.Shape {
	var out []formats.Shape
	for _, ad := range NewRegistry(Options{}).All() {
		if s, ok := ad.(formats.Shaper); ok {
			out = append(out, s.Shape())
		}
	}
	return out
})

// Shapes are the Shapes of the built-in clients, in id order: how each
// spells its servers, for reading a paste of any of them.
func Shapes() []formats.Shape { return builtinShapes() }
