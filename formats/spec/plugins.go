package spec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// LoadPlugins reads every *.hcl file of dir (a missing dir holds none) and
// returns an adapter per client they describe, sorted by file name. A
// plugin with a problem is reported with file:line:col and left out; the
// other plugins, and every built-in client, still load. Two plugins
// describing the same client: the second is reported and left out.
func LoadPlugins(dir string) ([]formats.Adapter, canonical.Diagnostics) {
	files, err := filepath.Glob(filepath.Join(dir, "*.hcl"))
	if err != nil {
		return nil, canonical.Diagnostics{canonical.Errorf("%s: %v", dir, err)}
	}
	sort.Strings(files)
	var out []formats.Adapter
	var diags canonical.Diagnostics
	seen := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			d := canonical.Errorf("cannot read plugin: %v", err)
			diags = append(diags, d.At(canonical.Pos{File: f}))
			continue
		}
		specs, ds := Parse(f, src)
		diags = append(diags, ds...)
		for _, s := range specs {
			s.Plugin = true
			if prev, dup := seen[s.ID]; dup {
				d := canonical.Errorf("client %q is also described in %s", s.ID, prev)
				d.Detail = "the first one is used; remove or rename one of them"
				diags = append(diags, d.At(canonical.Pos{File: f, Line: 1, Column: 1}))
				continue
			}
			a, err := NewAdapter(s, nil)
			if err != nil {
				d := canonical.Errorf("%v", err)
				diags = append(diags, d.At(canonical.Pos{File: f, Line: 1, Column: 1}))
				continue
			}
			seen[s.ID] = f
			out = append(out, a)
		}
	}
	return out, diags
}
