package sources

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/tailscale/hujson"
	"github.com/zclconf/go-cty/cty"
)

// A locator finds where a finding's value is written in its file, so that
// the refusal points at it. It falls back to the server's own position.
type locator func(server string, f finding) canonical.Pos

// hclLocator finds values in a source's mcpsync.hcl.
// The file is parsed on the first call only: a clean source needs no
// positions.
func hclLocator(file string, data []byte) locator {
	var f *hcl.File
	var diags hcl.Diagnostics
	return func(server string, fd finding) canonical.Pos {
		if f == nil && diags == nil {
			f, diags = hclsyntax.ParseConfig(data, file, hcl.InitialPos)
		}
		if diags.HasErrors() {
			return canonical.Pos{File: file, Line: 1, Column: 1}
		}
		body := f.Body.(*hclsyntax.Body)
		var blk *hclsyntax.Block
		for _, b := range body.Blocks {
			if b.Type == "server" && len(b.Labels) == 1 && b.Labels[0] == server {
				blk = b
				break
			}
		}
		if blk == nil {
			return canonical.Pos{File: file, Line: 1, Column: 1}
		}
		at := func(r hcl.Range) canonical.Pos {
			return canonical.Pos{File: file, Line: r.Start.Line, Column: r.Start.Column}
		}
		fallback := at(blk.LabelRanges[0])
		attrs, attrName, key := blk.Body.Attributes, fd.field, fd.key
		switch fd.field {
		case "oauth.client_secret":
			attrs, attrName = nil, "client_secret"
			for _, nb := range blk.Body.Blocks {
				if nb.Type == "oauth" {
					attrs = nb.Body.Attributes
				}
			}
		case "extra":
			client, k, _ := strings.Cut(fd.key, ".")
			attrs = nil
			for _, nb := range blk.Body.Blocks {
				if nb.Type == "extra" && len(nb.Labels) == 1 && nb.Labels[0] == client {
					attrs = nb.Body.Attributes
				}
			}
			attrName, key = k, ""
			if attrs != nil && attrs[k] == nil && attrs["_"] != nil {
				attrName, key = "_", k
			}
		case "args":
			attrName = "args"
		}
		attr := attrs[attrName]
		if attr == nil {
			return fallback
		}
		switch e := attr.Expr.(type) {
		case *hclsyntax.ObjectConsExpr:
			if key == "" {
				break
			}
			for _, item := range e.Items {
				if kv, ds := item.KeyExpr.Value(nil); !ds.HasErrors() && kv.Type() == cty.String && kv.IsKnown() && !kv.IsNull() && kv.AsString() == key {
					return at(item.ValueExpr.Range())
				}
			}
		case *hclsyntax.TupleConsExpr:
			if i, err := strconv.Atoi(key); err == nil && fd.field == "args" && i < len(e.Exprs) {
				return at(e.Exprs[i].Range())
			}
		}
		return at(attr.Expr.Range())
	}
}

// jsonLocator finds values in a per-server JSON file. The file may spell
// its keys the way any client does (env or environment, url or serverUrl),
// so the search goes by the key of the value first, under a parent whose
// name fits the field, then anywhere.
func jsonLocator(file string, data []byte) locator {
	var root hujson.Value
	var err error
	var lines []int
	parsed := false
	pos := func(off int) canonical.Pos {
		line := 1
		for line < len(lines) && lines[line] <= off {
			line++
		}
		return canonical.Pos{File: file, Line: line, Column: off - lines[line-1] + 1}
	}
	return func(_ string, fd finding) canonical.Pos {
		if !parsed {
			root, err = hujson.Parse(data)
			lines, parsed = lineStarts(data), true
		}
		if err != nil {
			return canonical.Pos{File: file, Line: 1, Column: 1}
		}
		start := func(v *hujson.Value) int { return v.StartOffset }
		parentFits := func(string) bool { return true }
		names := []string{fd.key}
		switch fd.field {
		case "env":
			parentFits = func(p string) bool { return strings.Contains(strings.ToLower(p), "env") }
		case "headers":
			parentFits = func(p string) bool { return strings.Contains(strings.ToLower(p), "header") }
		case "oauth.client_secret":
			names = []string{"clientSecret", "client_secret"}
		case "url":
			names = []string{"url", "serverUrl", "httpUrl", "uri"}
		case "extra":
			_, k, _ := strings.Cut(fd.key, ".")
			names = []string{k}
		case "args":
			i, _ := strconv.Atoi(fd.key)
			if v := findMember(&root, []string{"args"}, parentFits); v != nil {
				if arr, ok := v.Value.(*hujson.Array); ok && i < len(arr.Elements) {
					return pos(start(&arr.Elements[i]))
				}
				return pos(start(v))
			}
			return pos(start(&root))
		}
		if v := findMember(&root, names, parentFits); v != nil {
			return pos(start(v))
		}
		if v := findMember(&root, names, func(string) bool { return true }); v != nil {
			return pos(start(v))
		}
		return pos(start(&root))
	}
}

// findMember returns the value of the first member (depth first) named one
// of names inside an object that is the value of a member whose name
// parentFits ("" for the top-level object).
func findMember(v *hujson.Value, names []string, parentFits func(string) bool) *hujson.Value {
	var walk func(v *hujson.Value, parent string) *hujson.Value
	walk = func(v *hujson.Value, parent string) *hujson.Value {
		switch x := v.Value.(type) {
		case *hujson.Object:
			if parentFits(parent) {
				for i := range x.Members {
					m := &x.Members[i]
					name, ok := m.Name.Value.(hujson.Literal)
					if !ok {
						continue
					}
					for _, n := range names {
						if name.String() == n {
							return &m.Value
						}
					}
				}
			}
			for i := range x.Members {
				m := &x.Members[i]
				name := ""
				if lit, ok := m.Name.Value.(hujson.Literal); ok {
					name = lit.String()
				}
				if got := walk(&m.Value, name); got != nil {
					return got
				}
			}
		case *hujson.Array:
			for i := range x.Elements {
				if got := walk(&x.Elements[i], parent); got != nil {
					return got
				}
			}
		}
		return nil
	}
	return walk(v, "")
}

// lineStarts returns the offset of the first byte of every line.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i := bytes.IndexByte(data, '\n'); i >= 0; {
		starts = append(starts, starts[len(starts)-1]+i+1)
		rest := data[starts[len(starts)-1]:]
		i = bytes.IndexByte(rest, '\n')
	}
	return starts
}
