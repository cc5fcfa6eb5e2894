package yamledit

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// toNode builds the node for a value, keeping Map order. flow writes
// collections in flow style ([a, b], {k: v}).
func toNode(v any, flow bool) *yaml.Node {
	var style yaml.Style
	if flow {
		style = yaml.FlowStyle
	}
	switch x := v.(type) {
	case Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: style}
		for _, f := range x {
			n.Content = append(n.Content, strNode(f.Key), toNode(f.Value, flow))
		}
		return n
	case map[string]any:
		return toNode(MapFrom(x, nil), flow)
	case map[any]any, []string:
		return toNode(Normalize(x), flow)
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: style}
		for _, e := range x {
			n.Content = append(n.Content, toNode(e, flow))
		}
		return n
	case string:
		return strNode(x)
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		switch {
		case math.IsNaN(x):
			s = ".nan"
		case math.IsInf(x, 1):
			s = ".inf"
		case math.IsInf(x, -1):
			s = "-.inf"
		case !strings.ContainsAny(s, ".eE"):
			s += ".0"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
	case time.Time:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: FormatTime(x)}
	}
	n := Normalize(v)
	if fmt.Sprintf("%T", n) != fmt.Sprintf("%T", v) {
		return toNode(n, flow)
	}
	// Not a YAML value: a string keeps the output valid, and the check
	// after the edit reports the difference.
	return strNode(fmt.Sprint(v))
}

func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// encode renders a node with the file's indentation and sequence style. The
// text ends with one newline.
func (d *Doc) encode(n *yaml.Node) (string, error) {
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(d.unit())
	if d.compact() {
		e.CompactSeqIndent()
	}
	if err := e.Encode(n); err != nil {
		return "", err
	}
	if err := e.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// indentLines prefixes every line but the first with indent spaces and
// ends every line with the file's newline. A line the encoder left empty
// (inside a block scalar) stays empty.
func (d *Doc) indentLines(text string, indent int) string {
	text = strings.TrimSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	for i, l := range lines {
		if i > 0 && l != "" {
			b.WriteString(pad)
		}
		b.WriteString(l)
		b.WriteString(d.nl)
	}
	return b.String()
}

// renderPair renders "key: value" whose key starts at column indent+1;
// the first line carries no indentation (the caller's text precedes it).
func (d *Doc) renderPair(key string, v any, indent int, flow bool) (string, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{strNode(key), toNode(v, flow)}}
	text, err := d.encode(m)
	if err != nil {
		return "", err
	}
	return d.indentLines(text, indent), nil
}

// renderItem renders "- k: v ..." as a sequence item whose dash is at
// column indent+1; the first line carries no indentation.
func (d *Doc) renderItem(v any, indent int) (string, error) {
	s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{toNode(v, false)}}
	text, err := d.encode(s)
	if err != nil {
		return "", err
	}
	return d.indentLines(text, indent), nil
}

// renderScalar renders a scalar alone, or reports that it needs more than
// one line.
func (d *Doc) renderScalar(v any) (string, bool) {
	n := toNode(v, false)
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	text, err := d.encode(n)
	if err != nil {
		return "", false
	}
	text = strings.TrimSuffix(text, "\n")
	if strings.Contains(text, "\n") {
		return "", false
	}
	return text, true
}
