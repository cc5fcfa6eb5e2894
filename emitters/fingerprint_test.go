package emitters

import (
	"io/fs"
	"testing"
)

// TestFingerprint: plans that make the same changes over the same bytes
// share a fingerprint; a change to anything applying would do gives
// another.
func TestFingerprint(t *testing.T) {
	base := func() *Plan {
		return &Plan{Files: []*FileChange{
			{Path: "/p/.mcp.json", Kind: Modify, Mode: 0o644, Before: []byte("{}\n"), After: []byte(`{"mcpServers": {"a": {}}}` + "\n")},
			{Path: "/p/.cursor/mcp.json", Kind: Create, Mode: 0o600, After: []byte(`{"mcpServers": {}}` + "\n")},
			{Path: "/p/untouched.json", Kind: Unchanged, Before: []byte("x"), After: []byte("x")},
		}}
	}
	want := base().Fingerprint()
	if got := base().Fingerprint(); got != want {
		t.Fatalf("the same plan twice: %s, then %s", want, got)
	}
	same := base()
	same.Files[2].Before, same.Files[2].After = []byte("y"), []byte("y") // a file the plan leaves alone
	if got := same.Fingerprint(); got != want {
		t.Errorf("a file the plan does not change changed the fingerprint")
	}
	for name, edit := range map[string]func(p *Plan){
		"one byte written":              func(p *Plan) { p.Files[0].After[3] = 'X' },
		"one byte written over":         func(p *Plan) { p.Files[0].Before = []byte("{ }\n") },
		"created over an empty one":     func(p *Plan) { p.Files[1].Before, p.Files[1].Kind = []byte{}, Modify },
		"an empty file instead of none": func(p *Plan) { p.Files[1].Before = []byte{} },
		"removed instead of written":    func(p *Plan) { p.Files[0].After, p.Files[0].Kind = nil, Delete },
		"mode":                          func(p *Plan) { p.Files[1].Mode = fs.FileMode(0o644) },
		"path":                          func(p *Plan) { p.Files[1].Path = "/p/.vscode/mcp.json" },
		"real path":                     func(p *Plan) { p.Files[0].RealPath = "/dotfiles/mcp.json" },
		"one file fewer":                func(p *Plan) { p.Files = p.Files[:1] },
		"files in another order":        func(p *Plan) { p.Files[0], p.Files[1] = p.Files[1], p.Files[0] },
		"bytes moved between before and after": func(p *Plan) {
			p.Files[0].Before, p.Files[0].After = []byte("{}\n{"), []byte(`"mcpServers": {"a": {}}}`+"\n")
		},
	} {
		p := base()
		edit(p)
		if p.Fingerprint() == want {
			t.Errorf("%s: the fingerprint did not change", name)
		}
	}
}
