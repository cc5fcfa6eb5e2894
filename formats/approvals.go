package formats

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/tailscale/hujson"
)

// Approvals is a client's own setting that lists the environment variables
// it may expand in an MCP file. Kiro (IDE and CLI, since Kiro CLI 2.4.0)
// expands ${VAR} only for a variable in kiroAgent.mcpApprovedEnvVars; any
// other reference reaches the server as the text ${VAR}, so a server that
// worked before fails with a 401 and nothing says why.
type Approvals struct {
	Path string // the client's settings file
	Key  string // the setting: a dotted name, flat or nested in the file
	How  string // how the user approves a variable in the client itself
}

// ApprovalsReader is a client with such a list; ok is false when it has none.
type ApprovalsReader interface {
	Approvals(env Env) (a Approvals, ok bool)
}

// ReadApprovals returns the variable names the settings file approves. The
// key is looked up as one flat member ("kiroAgent.mcpApprovedEnvVars", the
// way VS Code-style settings spell it) and then as nested objects. A file
// that does not parse is an error that names it; a file without the key
// approves nothing.
func ReadApprovals(a Approvals, data []byte) (map[string]bool, error) {
	std, err := hujson.Standardize(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", a.Path, err)
	}
	var root map[string]any
	if err := json.Unmarshal(std, &root); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %v", a.Path, err)
	}
	v, ok := root[a.Key]
	if !ok {
		var cur any = root
		for _, part := range strings.Split(a.Key, ".") {
			m, isObj := cur.(map[string]any)
			if !isObj {
				cur = nil
				break
			}
			cur = m[part]
		}
		v = cur
	}
	out := map[string]bool{}
	if list, isList := v.([]any); isList {
		for _, x := range list {
			if s, isStr := x.(string); isStr {
				out[s] = true
			}
		}
	}
	return out, nil
}

// UnapprovedRefs says which environment variables srv references without
// the client's approval, each with the fields that hold it, names sorted.
func UnapprovedRefs(srv canonical.Server, approved map[string]bool) (names []string, fields map[string][]string) {
	fields = map[string][]string{}
	for field, v := range srv.Values() {
		for _, seg := range canonical.Parse(v, canonical.DialectCanonical) {
			if seg.Kind == canonical.EnvRef && !approved[seg.Name] && !slices.Contains(fields[seg.Name], field) {
				fields[seg.Name] = append(fields[seg.Name], field)
			}
		}
	}
	for n := range fields {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, fields
}

// ApprovalsAt reads the client's approved list from its file; a missing
// file approves nothing.
func ApprovalsAt(a Approvals) (map[string]bool, error) {
	data, err := os.ReadFile(a.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ReadApprovals(a, data)
}

// Fix tells the user how to approve name; display shortens the path.
func (a Approvals) Fix(name string, display func(string) string) string {
	how := a.How
	if how != "" {
		how += ", or "
	}
	p := a.Path
	if display != nil {
		p = display(p)
	}
	return how + "add \"" + name + "\" to " + a.Key + " in " + p
}
