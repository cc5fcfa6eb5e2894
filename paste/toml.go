package paste

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/pelletier/go-toml/v2/unstable"
)

// parseTOML reads a TOML document (a Codex config.toml or a piece of one).
// BurntSushi/toml decodes and validates it; go-toml's unstable parser is
// used only to find where each key is, since BurntSushi keeps positions
// private. Key order is the order of definition (MetaData.Keys).
func parseTOML(data []byte, file string) (*node, canonical.Diagnostics) {
	li := newLineIndex(file, data, 0)
	var doc map[string]any
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		d := canonical.Errorf("malformed TOML: %s", tomlMessage(err))
		d.Detail = "fix the TOML at this place"
		p := canonical.Pos{File: file, Line: 1, Column: 1}
		var pe toml.ParseError
		if errors.As(err, &pe) && pe.Position.Line > 0 {
			p = li.at(pe.Position.Line, max(pe.Position.Col, 1))
		}
		return nil, canonical.Diagnostics{d.At(p)}
	}
	order := map[string]int{}
	for i, k := range md.Keys() {
		path := strings.Join(k, "\x00")
		if _, seen := order[path]; !seen {
			order[path] = i
		}
	}
	b := &tomlBuilder{li: li, order: order, keyPos: map[string]canonical.Pos{}, valPos: map[string]canonical.Pos{}}
	b.scanPositions(data)
	root := b.build(doc, nil, "", canonical.Pos{File: file, Line: 1, Column: 1})
	return root, nil
}

func tomlMessage(err error) string {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.Message
	}
	return err.Error()
}

type tomlBuilder struct {
	li     *lineIndex
	order  map[string]int // key path without array indexes -> definition order
	keyPos map[string]canonical.Pos
	valPos map[string]canonical.Pos
}

// build converts a decoded value. path is the key path with array indexes
// ("#0") for positions; plain is the same path without them, for order.
func (b *tomlBuilder) build(v any, path []string, plain string, parent canonical.Pos) *node {
	key := strings.Join(path, "\x00")
	pos, ok := b.valPos[key]
	if !ok {
		if pos, ok = b.keyPos[key]; !ok {
			pos = parent
		}
	}
	n := &node{pos: pos}
	switch t := v.(type) {
	case map[string]any:
		n.kind = kObject
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		join := func(k string) string {
			if plain == "" {
				return k
			}
			return plain + "\x00" + k
		}
		sort.SliceStable(keys, func(i, j int) bool {
			oi, iok := b.order[join(keys[i])]
			oj, jok := b.order[join(keys[j])]
			if iok != jok {
				return iok
			}
			if oi != oj {
				return oi < oj
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			child := append(path[:len(path):len(path)], k)
			kp, ok := b.keyPos[strings.Join(child, "\x00")]
			if !ok {
				kp = pos
			}
			n.members = append(n.members, member{key: k, keyPos: kp, val: b.build(t[k], child, join(k), pos)})
		}
	case []map[string]any:
		n.kind = kArray
		for i, e := range t {
			n.elems = append(n.elems, b.build(e, append(path[:len(path):len(path)], "#"+strconv.Itoa(i)), plain, pos))
		}
	case []any:
		n.kind = kArray
		for i, e := range t {
			n.elems = append(n.elems, b.build(e, append(path[:len(path):len(path)], "#"+strconv.Itoa(i)), plain, pos))
		}
	case string:
		n.kind, n.text = kString, t
	case int64:
		n.kind, n.text = kNumber, strconv.FormatInt(t, 10)
	case float64:
		n.kind = kNumber
		switch {
		case math.IsInf(t, 1):
			n.text = "inf"
		case math.IsInf(t, -1):
			n.text = "-inf"
		case math.IsNaN(t):
			n.text = "nan"
		default:
			n.text = strconv.FormatFloat(t, 'g', -1, 64)
		}
	case bool:
		n.kind, n.boolean = kBool, t
	case time.Time:
		n.kind, n.text = kDate, t.Format(time.RFC3339Nano)
	case fmt.Stringer: // toml.LocalDate, LocalTime, LocalDatetime
		n.kind, n.text = kDate, t.String()
	default:
		n.kind = kNull
	}
	return n
}

// scanPositions walks the document with go-toml's parser and records where
// every key and value starts. A document BurntSushi accepted but this
// parser does not is still read; its positions fall back to the parent's.
func (b *tomlBuilder) scanPositions(data []byte) {
	var p unstable.Parser
	p.Reset(data)
	var table []string
	arrayCount := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, poss := b.keyParts(e.Key())
			table = parts
			for i := range parts {
				k := strings.Join(parts[:i+1], "\x00")
				if _, ok := b.keyPos[k]; !ok {
					b.keyPos[k] = poss[i]
				}
			}
			if e.Kind == unstable.ArrayTable {
				k := strings.Join(parts, "\x00")
				idx := arrayCount[k]
				arrayCount[k]++
				table = append(parts[:len(parts):len(parts)], "#"+strconv.Itoa(idx))
				b.keyPos[strings.Join(table, "\x00")] = poss[len(poss)-1]
			}
		case unstable.KeyValue:
			b.keyValue(e, table)
		}
	}
}

func (b *tomlBuilder) keyParts(it unstable.Iterator) ([]string, []canonical.Pos) {
	var parts []string
	var poss []canonical.Pos
	for it.Next() {
		k := it.Node()
		parts = append(parts, string(k.Data))
		poss = append(poss, b.li.pos(int(k.Raw.Offset)))
	}
	return parts, poss
}

func (b *tomlBuilder) keyValue(e *unstable.Node, table []string) {
	parts, poss := b.keyParts(e.Key())
	path := append(table[:len(table):len(table)], parts...)
	for i := range parts {
		k := strings.Join(path[:len(table)+i+1], "\x00")
		if _, ok := b.keyPos[k]; !ok {
			b.keyPos[k] = poss[i]
		}
	}
	b.value(e.Value(), path)
}

func (b *tomlBuilder) value(v *unstable.Node, path []string) {
	key := strings.Join(path, "\x00")
	if v.Raw.Length > 0 { // arrays carry no range; they fall back to their key
		b.valPos[key] = b.li.pos(int(v.Raw.Offset))
	}
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				b.keyValue(kv, path)
			}
		}
	case unstable.Array:
		it := v.Children()
		i := 0
		for it.Next() {
			if el := it.Node(); el.Kind != unstable.Comment {
				b.value(el, append(path[:len(path):len(path)], "#"+strconv.Itoa(i)))
				i++
			}
		}
	}
}
