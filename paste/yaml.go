package paste

import (
	"errors"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// maxYAMLNodes bounds what aliases may expand to: a paste is a few servers,
// and a document of aliases of aliases ("billion laughs") is not one.
const maxYAMLNodes = 100000

// parseYAML reads a YAML document (Continue's config.yaml or a block file,
// Goose's config.yaml, or a piece of either) into nodes with the place of
// every key and value. Anchors and aliases are expanded; tags other than
// the core schema's are read as what their value is.
func parseYAML(data []byte, file string) (*node, canonical.Diagnostics) {
	li := newLineIndex(file, data, 0)
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		d := canonical.Errorf("malformed YAML: %s", yamlMessage(err))
		d.Detail = "fix the YAML at this place"
		return nil, canonical.Diagnostics{d.At(yamlErrPos(err, li, file))}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		d := canonical.Errorf("empty input: there is no server to read")
		return nil, canonical.Diagnostics{d.At(canonical.Pos{File: file, Line: 1, Column: 1})}
	}
	b := &yamlBuilder{li: li}
	n := b.build(doc.Content[0], 0)
	if b.err != nil {
		return nil, canonical.Diagnostics{b.err}
	}
	return n, nil
}

type yamlBuilder struct {
	li    *lineIndex
	nodes int
	err   *canonical.Diagnostic
}

func (b *yamlBuilder) pos(n *yaml.Node) canonical.Pos {
	if n.Line <= 0 {
		return canonical.Pos{File: b.li.file, Line: 1, Column: 1}
	}
	return b.li.at(n.Line, max(n.Column, 1))
}

func (b *yamlBuilder) build(y *yaml.Node, depth int) *node {
	b.nodes++
	if b.err != nil {
		return &node{kind: kNull}
	}
	if b.nodes > maxYAMLNodes || depth > maxDepth {
		d := canonical.Errorf("the YAML expands to more than %d values, or nests more than %d deep", maxYAMLNodes, maxDepth)
		d.Detail = "this is not an MCP configuration; paste the servers only"
		b.err = d.At(b.pos(y))
		return &node{kind: kNull}
	}
	n := &node{pos: b.pos(y)}
	switch y.Kind {
	case yaml.AliasNode:
		if y.Alias == nil {
			return &node{kind: kNull, pos: n.pos}
		}
		alias := b.build(y.Alias, depth+1)
		return alias
	case yaml.MappingNode:
		n.kind = kObject
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Tag == "!!merge" {
				// <<: *defaults: the anchor's keys, unless given here.
				merged := b.build(v, depth+1)
				for _, m := range merged.members {
					if !n.has(m.key) {
						n.members = append(n.members, m)
					}
				}
				continue
			}
			n.members = append(n.members, member{key: k.Value, keyPos: b.pos(k), val: b.build(v, depth+1)})
		}
	case yaml.SequenceNode:
		n.kind = kArray
		for _, e := range y.Content {
			n.elems = append(n.elems, b.build(e, depth+1))
		}
	case yaml.ScalarNode:
		switch y.ShortTag() {
		case "!!null":
			n.kind = kNull
		case "!!bool":
			var v bool
			if y.Decode(&v) == nil {
				n.kind, n.boolean = kBool, v
			} else {
				n.kind, n.text = kString, y.Value
			}
		case "!!int", "!!float":
			var f float64
			if err := y.Decode(&f); err == nil {
				n.kind, n.text = kNumber, strconv.FormatFloat(f, 'g', -1, 64)
			} else {
				n.kind, n.text = kString, y.Value
			}
		case "!!timestamp":
			n.kind, n.text = kDate, y.Value
		default:
			n.kind, n.text = kString, y.Value
		}
	default:
		n.kind = kNull
	}
	return n
}

var yamlLine = lazyre.New(`^yaml: line (\d+): (.*)$`)

func yamlMessage(err error) string {
	if m := yamlLine.Get().FindStringSubmatch(err.Error()); m != nil {
		return m[2]
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		return te.Errors[0]
	}
	return err.Error()
}

func yamlErrPos(err error, li *lineIndex, file string) canonical.Pos {
	if m := yamlLine.Get().FindStringSubmatch(err.Error()); m != nil {
		if line, convErr := strconv.Atoi(m[1]); convErr == nil && line > 0 {
			return li.at(line, 1)
		}
	}
	return canonical.Pos{File: file, Line: 1, Column: 1}
}
