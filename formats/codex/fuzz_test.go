package codex

import (
	"bytes"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// FuzzDecode: Decode never panics; every diagnostic has a line; a file that
// decodes without errors comes back unchanged from Encode, and what Encode
// writes for a changed set decodes again.
func FuzzDecode(f *testing.F) {
	for _, data := range corpusFiles(f) {
		f.Add(data)
	}
	for _, s := range []string{
		"", "[mcp_servers.a]\ncommand = \"x\"\nenv = { A = \"${B}\" }\n",
		"[mcp_servers]\nx = { url = \"https://e\", http_headers = { A = \"b\" } }\n",
		"mcp_servers = { a = { command = \"cmd\", args = [\"/c\", \"npx\", \"p\"] } }\n",
		"[mcp_servers.a]\nurl = \"u\"\nbearer_token_env_var = \"T\"\n[mcp_servers.a.oauth]\nclient_id = \"c\"\nx = 1\n",
		"[mcp_servers.a]\ncommand = \"x\"\nenv_vars = [\"A\", { name = \"B\", source = \"remote\" }]\nstartup_timeout_ms = 5\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return
		}
		set, ds := Adapter().Decode(userLoc, data)
		for _, d := range ds {
			if d.Line == 0 && d.Severity == canonical.Error {
				t.Fatalf("error without a line: %v", d)
			}
		}
		if ds.HasErrors() {
			return
		}
		out, eds := Adapter().Encode(userLoc, data, set, formats.EncodeOptions{})
		if eds.HasErrors() || !bytes.Equal(out, data) {
			t.Fatalf("Encode(Decode(x)) != x: %v", eds)
		}
		changed := set.Clone()
		changed.Put(canonical.Server{Name: "fuzz-added", Command: "echo", Args: []string{"x"}, Env: map[string]string{"K": "${K}"}})
		for i := range changed.Servers {
			changed.Servers[i].Disabled = !changed.Servers[i].Disabled
		}
		out, eds = Adapter().Encode(userLoc, data, changed, formats.EncodeOptions{})
		if eds.HasErrors() {
			return // refused, nothing written: allowed
		}
		back, bds := Adapter().Decode(userLoc, out)
		if bds.HasErrors() {
			t.Fatalf("our output does not decode: %v\n%s", bds.Err(), out)
		}
		if back.Len() != changed.Len() {
			t.Fatalf("wrote %d servers, read %d", changed.Len(), back.Len())
		}
	})
}
