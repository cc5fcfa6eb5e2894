// Package serve is mcpsync as an MCP server: the agent a user already
// talks to lists, adds, probes, exports and syncs servers for every client
// through it, with the same rules, backups and lock as the CLI.
//
// Every tool is a thin call of an engine verb whose output is the CLI's
// --json shape. What writes a file or starts a process is planned first:
// called without plan_id, a tool returns what it would do and a plan_id;
// called again with that plan_id, it plans again and acts only if the new
// plan is the same one (nothing changed since the user saw it). Otherwise
// it returns the new plan and does nothing. A plan_id is a hash of the
// tool, its arguments and everything the plan would write or run, so it
// needs no state in the server and survives a restart.
//
// Nothing a tool returns holds a secret-looking value (secrets.MaskTokens
// over every result, MaskServer over every server, masked diffs), and no
// reference (${VAR}) is ever expanded.
package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/render"
)

// Options configure the server.
type Options struct {
	// Engine returns an engine for one tool call: a new one each time, so
	// that each call reads the files as they are now.
	Engine func() *engine.Engine
	// Version is mcpsync's version, announced to the client.
	Version string
}

// instructions tell the agent how to use the tools.
const instructions = `mcpsync keeps the MCP servers of every AI client on this machine in step, from one store (mcpsync.hcl).
Read with list_servers, show_server, list_clients, sync_status, doctor and diff.
Tools that write files or start processes (add_server, export, sync, probe, restore) work in two steps:
call without plan_id to get the plan (a diff, or the command lines that would start) and a plan_id;
show the plan to the user; call again with the same arguments and that plan_id only once the user agrees.
If anything changed meanwhile, nothing is done and the new plan is returned with a new plan_id.`

// New returns the MCP server with every tool and resource.
func New(o Options) *server.MCPServer {
	s := server.NewMCPServer("mcpsync", o.Version,
		server.WithInstructions(instructions),
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithRecovery())
	h := &handlers{o: o}
	h.addTools(s)
	h.addResources(s)
	return s
}

type handlers struct{ o Options }

func (h *handlers) engine() *engine.Engine { return h.o.Engine() }

// paths are render's options for JSON: paths as the user writes them.
func paths(e *engine.Engine) render.Paths {
	return render.Paths{Display: e.Display, StoreDisplay: e.StoreDisplay}
}

// result is a tool's structured result, masked: the JSON text and the
// structured content are the same masked document.
//
// The masked JSON goes out as it is, as the structured content and as the
// text fallback both. Decoded into maps for the transport to encode again
// (sorting every map's keys), as it was, a diff of 1,000 servers to every
// client allocated 85 MB and 1.1 million objects more per call
// (BenchmarkDiffToolServer1000).
func result(v any) *mcp.CallToolResult {
	data, err := json.Marshal(v)
	if err != nil {
		return mcp.NewToolResultError("mcpsync: cannot encode the result: " + err.Error())
	}
	masked := secrets.MaskTokens(string(data))
	structured := []byte(masked)
	if !json.Valid(structured) {
		return mcp.NewToolResultError("mcpsync: cannot encode the result: masking its secrets left no valid JSON; this is a bug in mcpsync, please report it with the tool and its arguments")
	}
	if structured[0] != '{' { // structured content is an object (json.Marshal starts a value at its first byte)
		structured = append(append([]byte(`{"result":`), structured...), '}')
	}
	r := mcp.NewToolResultText(masked)
	r.RawStructuredContent = structured
	return r
}

// failure is a tool error, masked, with the diagnostics at file:line:col
// when the error carries them.
func failure(err error) *mcp.CallToolResult {
	msg := err.Error()
	var pe *engine.ProblemsError
	if errors.As(err, &pe) {
		for _, d := range pe.Diags {
			msg += "\n" + d.Error()
		}
	}
	return mcp.NewToolResultError(secrets.MaskTokens("mcpsync: " + msg))
}

// tool wraps a handler: its arguments are bound to A, its result masked.
func tool[A any](f func(ctx context.Context, args A) (any, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args A
		if err := req.BindArguments(&args); err != nil {
			return mcp.NewToolResultError("mcpsync: the arguments do not fit the tool's schema: " + err.Error()), nil
		}
		out, err := f(ctx, args)
		if err != nil {
			return failure(err), nil
		}
		return result(out), nil
	}
}

// planID is the id of a plan: the tool, its arguments without the plan
// id, and a fingerprint of everything the plan writes or runs.
func planID(tool string, args any, fingerprint string) string {
	a, _ := json.Marshal(args)
	sum := sha256.Sum256([]byte(tool + "\x00" + string(a) + "\x00" + fingerprint))
	return hex.EncodeToString(sum[:8])
}

// Planned is what a two-step tool returns when it did not act: the plan
// and its id. Stale says a plan_id was given and the plan changed since.
type Planned struct {
	PlanID string `json:"plan_id"`
	Done   bool   `json:"done"`
	Stale  bool   `json:"stale,omitempty"`
	Note   string `json:"note"`
	Plan   any    `json:"plan"`
}

// confirm decides, for a two-step tool, whether to act: given is the
// plan_id the call brought, id the plan's now. It returns the answer to
// give instead of acting, or nil to act.
func confirm(given, id string, plan any, what string) *Planned {
	switch {
	case given == "":
		return &Planned{PlanID: id, Plan: plan,
			Note: fmt.Sprintf("nothing was done yet; show this to the user and, once they agree, call again with plan_id %q to %s", id, what)}
	case given != id:
		return &Planned{PlanID: id, Plan: plan, Stale: true,
			Note: fmt.Sprintf("the plan changed since plan_id %q was made (a file or the store changed): nothing was done; "+
				"show this new plan and call again with plan_id %q to %s", given, id, what)}
	}
	return nil
}
