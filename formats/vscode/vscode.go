// Package vscode holds VS Code's quirk: "inputs", the prompts that
// ${input:id} references ask for. Everything else about VS Code is its spec,
// formats/spec/builtin/vscode.hcl.
//
// When the user asks for prompts (EncodeOptions.PromptInputs), a secret
// reference in env or headers is written as ${input:id} and a promptString
// input with password: true is added for it. An input mcpsync added is
// marked in its description and removed once no server refers to it; the
// "inputs" array goes too when mcpsync created it (SideKeys). The user's
// own inputs, and an inputs array the file had, are never touched.
//
// The definitions of the user's own inputs (a promptString's description, a
// pickString's options and default, a command input) travel with the
// servers that use them, as the key "inputs" of the server's VS Code extra:
// import keeps them in the store, and an export to a VS Code file that lacks
// an input writes the user's definition instead of a made-up prompt.
package vscode

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Adapter returns the VS Code adapter.
func Adapter() formats.Adapter { return spec.BuiltinAdapter("vscode", Hooks{}) }

// addedMark ends the description of an input mcpsync added.
const addedMark = " (added by mcpsync)"

// Hooks are VS Code's quirks.
type Hooks struct{ spec.NoHooks }

// SideKeys implements spec.SideKeys: FinishEncode adds "inputs" beside the
// server map for the prompts it writes; once the last one mcpsync added is
// gone, an "inputs" that mcpsync created goes too (never the user's own).
func (Hooks) SideKeys() []string { return []string{"inputs"} }

// inputsPath is where the inputs live: beside the server map.
func inputsPath(c *spec.Context) []string {
	return append(slices.Clone(c.Servers[:len(c.Servers)-1]), "inputs")
}

// InputID is the input id mcpsync uses for an environment variable:
// GITHUB_TOKEN becomes github-token (and canonical.InputEnvName maps it back).
func InputID(envName string) string {
	return strings.ReplaceAll(strings.ToLower(envName), "_", "-")
}

// PrepareEncode implements spec.Hooks: with PromptInputs, environment
// references in env and headers become prompts.
func (Hooks) PrepareEncode(c *spec.Context, want *canonical.Set) canonical.Diagnostics {
	own := ownList(want)
	carryInputs(c, want, own)
	if !c.Options.PromptInputs {
		return nil
	}
	var diags canonical.Diagnostics
	for i := range want.Servers {
		if len(want.Servers[i].Env) == 0 && len(want.Servers[i].Headers) == 0 {
			continue
		}
		own()
		want.Servers[i] = want.Servers[i].Clone() // its maps are the caller's
		s := &want.Servers[i]
		for field, m := range map[string]map[string]string{"env": s.Env, "headers": s.Headers} {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if v := toInputs(m[k]); v != m[k] {
					d := canonical.Warnf("%s.%s: VS Code asks for %s as %s (prompt inputs)", field, k, m[k], v)
					d.Detail = "the other clients keep reading the environment variable"
					d.Server, d.Field = s.Name, field+"."+k
					diags = append(diags, d)
					m[k] = v
				}
			}
		}
	}
	return diags
}

// extraInputs is the key of a server's VS Code extra that holds the
// definitions of the inputs it uses; they live in the file's top-level
// "inputs", never in the server's entry.
const extraInputs = "inputs"

// ownList returns what gives want a list of its own, once, before a
// server in it is replaced: the list is the caller's (spec.Hooks).
func ownList(want *canonical.Set) func() {
	owned := false
	return func() {
		if !owned {
			want.Servers, owned = slices.Clone(want.Servers), true
		}
	}
}

// carryInputs moves the input definitions out of the servers about to be
// written (the entry must not hold them) into c.Carry, by input id, for
// FinishEncode.
func carryInputs(c *spec.Context, want *canonical.Set, own func()) {
	for i := range want.Servers {
		raw, ok := want.Servers[i].Extra["vscode"][extraInputs]
		if !ok {
			continue
		}
		own()
		want.Servers[i] = want.Servers[i].Clone() // its extras are the caller's
		s := &want.Servers[i]
		delete(s.Extra["vscode"], extraInputs)
		var defs []json.RawMessage
		if json.Unmarshal(raw, &defs) != nil {
			continue
		}
		for _, d := range defs {
			var head struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(d, &head) != nil || head.ID == "" {
				continue
			}
			if c.Carry == nil {
				c.Carry = map[string]json.RawMessage{}
			}
			if _, seen := c.Carry[head.ID]; !seen {
				c.Carry[head.ID] = d
			}
		}
	}
}

func toInputs(v string) string {
	t := canonical.Parse(v, canonical.DialectCanonical)
	changed := false
	for i, seg := range t {
		if seg.Kind == canonical.EnvRef {
			t[i] = canonical.Segment{Kind: canonical.InputRef, Name: InputID(seg.Name)}
			changed = true
		}
	}
	if !changed {
		return v
	}
	out, _ := t.Render(canonical.DialectCanonical)
	return out
}

// FinishEncode implements spec.Hooks: every ${input:id} the servers use has
// an input, and inputs mcpsync added that nothing uses any more are gone.
func (Hooks) FinishEncode(c *spec.Context, doc *jsonedit.Doc) canonical.Diagnostics {
	if _, err := doc.Bytes(); err != nil { // apply the server edits, to read what they say
		return canonical.Diagnostics{canonical.Errorf("%s: %v", c.Loc.Path, err)}
	}
	// References a written server had before are the user's business: an
	// input is added only for a reference this Encode introduced. The file
	// as it was is parsed for them only when a written server refers to an
	// input: most files refer to none, and parsing one of 10,000 servers
	// again for nothing was 5 % of what a sync after an edit allocated.
	var before map[string]map[string]bool
	hadRef := func(server, id string) bool {
		if before == nil {
			before = map[string]map[string]bool{}
			if old, err := jsonedit.Parse(c.Original); err == nil {
				for _, m := range old.Find(c.Servers...).Members() {
					before[m.Name] = map[string]bool{}
					for _, id := range inputRefs(m.Value) {
						before[m.Name][id] = true
					}
				}
			}
		}
		return before[server][id]
	}
	used := map[string]bool{}     // ids any server refers to
	writer := map[string]string{} // ids a server mcpsync wrote introduced -> that server
	var order []string
	var written map[string]bool // c.Written as a set: with prompt inputs every server may refer to one
	for _, m := range doc.Find(c.Servers...).Members() {
		for _, id := range inputRefs(m.Value) {
			used[id] = true
			if written == nil {
				written = make(map[string]bool, len(c.Written))
				for _, n := range c.Written {
					written[n] = true
				}
			}
			if _, ok := writer[id]; !ok && written[m.Name] && !hadRef(m.Name, id) {
				writer[id] = m.Name
				order = append(order, id)
			}
		}
	}
	path := inputsPath(c)
	inputs := doc.Find(path...)
	defined := map[string]bool{}
	var stale []int
	for i, in := range inputs.Elements() {
		id, _ := in.Get("id").Text()
		defined[id] = true
		desc, _ := in.Get("description").Text()
		if !used[id] && strings.HasSuffix(desc, addedMark) {
			stale = append(stale, i)
		}
	}
	var diags canonical.Diagnostics
	var fresh []any
	for _, id := range order {
		if defined[id] {
			continue
		}
		if def, ok := c.Carry[id]; ok { // the user's own definition, from the store
			fresh = append(fresh, def)
			continue
		}
		fresh = append(fresh, jsonedit.Object{
			{Key: "type", Value: "promptString"},
			{Key: "id", Value: id},
			{Key: "description", Value: canonical.InputEnvName(id) + " for " + writer[id] + addedMark},
			{Key: "password", Value: true},
		})
	}
	if len(fresh) > 0 && inputs.Valid() && inputs.Kind() != jsonedit.KindArray {
		d := canonical.Errorf("inputs must be an array, not %s", inputs.Kind())
		d.Detail = "fix the file by hand; mcpsync cannot add the prompts the servers need"
		line, col := inputs.Pos()
		return append(diags, d.At(canonical.Pos{File: c.Loc.Path, Line: line, Column: col}))
	}
	for i := len(stale) - 1; i >= 0; i-- {
		if _, err := doc.DeleteElement(path, stale[i]); err != nil {
			diags = append(diags, canonical.Errorf("%s: %v", c.Loc.Path, err))
		}
	}
	switch {
	case len(fresh) == 0:
	case inputs.Valid():
		if err := doc.AppendElements(path, fresh...); err != nil {
			diags = append(diags, canonical.Errorf("%s: %v", c.Loc.Path, err))
		}
	default:
		if err := doc.Set(path, fresh); err != nil {
			diags = append(diags, canonical.Errorf("%s: %v", c.Loc.Path, err))
		}
	}
	return diags
}

// FinishDecode implements spec.Hooks: a reference to an input the file does
// not define is a warning, since VS Code cannot prompt for it. Each server
// gets the definitions of the user's inputs it uses (not those mcpsync
// added), so that they are not lost on the way through the store.
func (Hooks) FinishDecode(c *spec.Context, doc *jsonedit.Doc, set *canonical.Set) canonical.Diagnostics {
	defined := map[string]bool{}
	defs := map[string]json.RawMessage{}
	for _, in := range doc.Find(inputsPath(c)...).Elements() {
		id, _ := in.Get("id").Text()
		defined[id] = true
		if desc, _ := in.Get("description").Text(); id != "" && !strings.HasSuffix(desc, addedMark) && in.Kind() == jsonedit.KindObject {
			if _, seen := defs[id]; !seen {
				defs[id] = in.JSON()
			}
		}
	}
	var diags canonical.Diagnostics
	for _, m := range doc.Find(c.Servers...).Members() {
		var uses []json.RawMessage
		seen := map[string]bool{}
		for _, id := range inputRefs(m.Value) {
			if d, ok := defs[id]; ok && !seen[id] {
				seen[id] = true
				uses = append(uses, d)
			}
		}
		if len(uses) > 0 {
			if i := slices.IndexFunc(set.Servers, func(s canonical.Server) bool { return s.Name == m.Name }); i >= 0 {
				if raw, err := json.Marshal(uses); err == nil {
					set.Servers[i].SetExtra("vscode", extraInputs, raw)
				}
			}
		}
		for _, id := range inputRefs(m.Value) {
			if !defined[id] {
				d := canonical.Warnf("${input:%s} has no input", id)
				d.Detail = `add {"type": "promptString", "id": "` + id + `", "password": true} to "inputs", or VS Code cannot ask for it`
				d.Server = m.Name
				line, col := m.Key.Pos()
				diags = append(diags, d.At(canonical.Pos{File: c.Loc.Path, Line: line, Column: col}))
				defined[id] = true
			}
		}
	}
	return diags
}

// inputRefs returns the input ids referenced in any string under n, in order.
func inputRefs(n jsonedit.Node) []string {
	var out []string
	var walk func(n jsonedit.Node)
	walk = func(n jsonedit.Node) {
		switch n.Kind() {
		case jsonedit.KindString:
			s, _ := n.Text()
			if strings.Contains(s, "${input:") {
				for _, seg := range canonical.Parse(s, canonical.DialectVSCode) {
					if seg.Kind == canonical.InputRef {
						out = append(out, seg.Name)
					}
				}
			}
		case jsonedit.KindObject:
			for _, m := range n.Members() {
				walk(m.Value)
			}
		case jsonedit.KindArray:
			for _, e := range n.Elements() {
				walk(e)
			}
		}
	}
	walk(n)
	return out
}
