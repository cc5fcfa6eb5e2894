package serve

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// Resources: the store's text, each client's servers as mcpsync reads
// them, and the backups. Every one is masked as the tools' results are.
func (h *handlers) addResources(s *server.MCPServer) {
	s.AddResource(mcp.NewResource("mcpsync://store", "store",
		mcp.WithResourceDescription("the user's store, mcpsync.hcl, as it is on disk (secret-looking values masked)"),
		mcp.WithMIMEType("text/plain")), h.storeResource)
	s.AddResource(mcp.NewResource("mcpsync://backups", "backups",
		mcp.WithResourceDescription("mcpsync's backups, per file, newest first"), mcp.WithMIMEType("application/json")), h.backupsResource)
	s.AddResourceTemplate(mcp.NewResourceTemplate("mcpsync://client/{id}", "client",
		mcp.WithTemplateDescription("the servers in one client's user files, as mcpsync reads them (client ids: list_clients)"),
		mcp.WithTemplateMIMEType("application/json")), h.clientResource)
}

func (h *handlers) storeResource(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	e := h.engine()
	st, ds := e.LoadStore(canonical.ScopeUser)
	text := string(st.Bytes())
	if !st.Exists {
		text = "# no store yet: add a server with the add_server tool\n"
	}
	if ds.HasErrors() {
		text += "\n# mcpsync: this store has errors:\n# " + strings.ReplaceAll(ds.Err().Error(), "\n", "\n# ") + "\n"
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain",
		Text: secrets.ScrubberFor(st.Servers).Text(secrets.MaskTokens(text))}}, nil
}

func (h *handlers) backupsResource(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	e := h.engine()
	files, err := e.Backups(nil)
	if err != nil {
		return nil, err
	}
	return jsonContents(req.Params.URI, map[string]any{"backupDir": e.BackupDir(), "files": files})
}

func (h *handlers) clientResource(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	id := strings.TrimPrefix(req.Params.URI, "mcpsync://client/")
	e := h.engine()
	ad, err := e.Registry().Lookup(id)
	if err != nil {
		return nil, err
	}
	locs, err := e.ClientFiles(ad, canonical.ScopeUser, "")
	if err != nil {
		return nil, err
	}
	set, ds, err := e.ReadClient(ad, canonical.ScopeUser, "", locs, "fix the file and read it again")
	if err != nil {
		return nil, err
	}
	for i := range set.Servers {
		set.Servers[i] = secrets.MaskServer(set.Servers[i])
	}
	var files []string
	for _, l := range locs {
		files = append(files, l.Path)
	}
	return jsonContents(req.Params.URI, map[string]any{"client": ad.ID(), "files": files, "servers": set.Servers, "warnings": ds})
}

func jsonContents(uri string, v any) ([]mcp.ResourceContents, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: secrets.MaskTokens(string(data))}}, nil
}
