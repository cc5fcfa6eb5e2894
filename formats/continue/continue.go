// Package continuedev reads and writes the MCP servers of Continue (the
// VS Code and JetBrains extension and its CLI): the mcpServers list of
// ~/.continue/config.yaml and of the block files in a project's
// .continue/mcpServers/. (The directory is formats/continue; continue is a
// Go keyword, so the package is named after Continue's npm scope.)
//
// A server is a list item named by its name field. Items that reference a
// Continue Hub block ("- uses: owner/block") are not servers mcpsync can
// move: they are left as they are. Secrets are ${{ secrets.NAME }} and
// prompts ${{ inputs.NAME }}; they map to the canonical ${NAME} and
// ${input:NAME}.
//
// In a project, Continue reads every .yaml (and Claude-style .json) file of
// .continue/mcpServers/. mcpsync writes one file of its own there,
// mcpsync.yaml (a block with name, version and schema: v1), and leaves the
// others to their authors.
package continuedev

import (
	"path"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
)

// ID is the client id users type.
const ID = "continue"

const (
	section = "mcpServers"
	nameKey = "name"
	// ProjectFile is the block file mcpsync owns in .continue/mcpServers.
	ProjectFile = "mcpsync.yaml"
)

// layout is where Continue keeps its servers, a list under a top-level
// key, and how it words the errors that keep it from reading any.
var layout = adapterkit.YAMLSection{
	Key:              section,
	Client:           "Continue",
	Kind:             yaml.SequenceNode,
	SyntaxDetail:     "Continue cannot load this file; fix the syntax at this line",
	NotMappingDetail: "a Continue config or block maps keys to values: name, version, schema, mcpServers",
	WrongKind:        "invalid type: mcpServers is not a list",
	WrongKindDetail:  "Continue lists servers: mcpServers: - name: ... (a map of servers is Claude's JSON shape)",
}

type adapter struct{}

// Adapter returns the Continue adapter.
func Adapter() formats.Adapter { return adapter{} }

func (adapter) ID() string          { return ID }
func (adapter) DisplayName() string { return "Continue" }

func (adapter) Capabilities() formats.Capabilities {
	return formats.Capabilities{
		Transports: []canonical.Transport{canonical.Stdio, canonical.HTTP, canonical.SSE},
		Headers:    true,
		Cwd:        true,
		Timeouts:   true,
		Comments:   true,
		Dialect:    canonical.DialectContinue.Name,
	}
}

// Locations returns ~/.continue/config.yaml and, with a project, the block
// file mcpsync owns, <project>/.continue/mcpServers/mcpsync.yaml, then every
// other block file there, read-only: Continue reads them all, so import
// and doctor do, and mcpsync writes only its own.
func (adapter) Locations(env formats.Env) []formats.Location {
	var locs []formats.Location
	if env.Home != "" {
		locs = append(locs, formats.Location{
			Client: ID, Scope: canonical.ScopeUser, Format: formats.YAML,
			Path: adapterkit.JoinPath(env.PathOS(), env.Home, ".continue", "config.yaml"),
		})
	}
	if env.ProjectDir != "" {
		locs = append(locs, formats.Location{
			Client: ID, Scope: canonical.ScopeProject, Format: formats.YAML,
			Path: adapterkit.JoinPath(env.PathOS(), env.ProjectDir, ".continue", "mcpServers", ProjectFile),
			Note: "Continue reads every file in .continue/mcpServers; mcpsync writes only " + ProjectFile +
				" and leaves the other blocks as they are",
		})
		dir := adapterkit.JoinPath(env.PathOS(), env.ProjectDir, ".continue", "mcpServers")
		for _, name := range env.ListDir(dir) {
			ext := strings.ToLower(path.Ext(name))
			if name == ProjectFile || ext != ".yaml" && ext != ".yml" {
				continue
			}
			locs = append(locs, formats.Location{
				Client: ID, Scope: canonical.ScopeProject, Format: formats.YAML, ReadOnly: true,
				Path: adapterkit.JoinPath(env.PathOS(), dir, name),
				Note: "a block of the project's own: Continue reads it; mcpsync imports and checks it, and never writes it",
			})
		}
	}
	return locs
}

// Shape implements formats.Shaper: a list under mcpServers (or a block
// file of its own), ${{ secrets.X }} references, and connectionTimeout in
// milliseconds.
func (adapter) Shape() formats.Shape {
	return formats.Shape{Client: ID, Servers: [][]string{{"mcpServers"}}, Dialect: canonical.DialectContinue,
		Types:          map[string]canonical.Transport{"stdio": canonical.Stdio, "sse": canonical.SSE, "streamable-http": canonical.HTTP},
		URLWithoutType: "http",
		Timeouts:       map[string]formats.Timeout{"connectionTimeout": {Unit: time.Millisecond, Startup: true}}}
}
