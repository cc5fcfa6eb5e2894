package paste

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/tailscale/hujson"
)

// parseJSON reads JSON or JSONC (comments and trailing commas, as VS Code,
// OpenCode and Zed allow). A fragment, a member list such as
// `"github": {…}, "linear": {…}` without the outer braces, is read by
// wrapping it in braces; positions still point into the user's text.
func parseJSON(data []byte, file string, fragment bool) (*node, canonical.Diagnostics) {
	shift := 0
	src := data
	if fragment {
		src = make([]byte, 0, len(data)+3)
		src = append(src, '{')
		src = append(src, data...)
		src = append(src, '\n', '}')
		shift = 1
	}
	li := newLineIndex(file, src, shift)
	li.lines = bytes.Count(data, []byte("\n")) + 1
	v, err := hujson.Parse(src)
	if err != nil {
		return nil, canonical.Diagnostics{jsonSyntaxError(err, li, fragment)}
	}
	return fromHujson(&v, li), nil
}

var hujsonErrPos = lazyre.New(`^hujson: line (\d+), column (\d+): (.*)$`)

// jsonSyntaxError turns hujson's "line L, column C: msg" into a diagnostic
// at that place.
func jsonSyntaxError(err error, li *lineIndex, fragment bool) *canonical.Diagnostic {
	msg := err.Error()
	p := canonical.Pos{File: li.file, Line: 1, Column: 1}
	if m := hujsonErrPos.Get().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		p = li.at(line, col)
		msg = m[3]
	}
	d := canonical.Errorf("malformed JSON: %s", msg)
	d.Detail = "fix the JSON at this place; comments and trailing commas are fine"
	if fragment {
		d.Detail = `the input was read as a list of "name": {…} members; ` + d.Detail
	}
	return d.At(p)
}

func fromHujson(v *hujson.Value, li *lineIndex) *node {
	n := &node{pos: li.pos(v.StartOffset)}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.kind = kObject
		n.members = make([]member, len(t.Members))
		for i := range t.Members {
			m := &t.Members[i]
			key, _ := m.Name.Value.(hujson.Literal)
			n.members[i] = member{key: unquote(key), keyPos: li.pos(m.Name.StartOffset), val: fromHujson(&m.Value, li)}
		}
	case *hujson.Array:
		n.kind = kArray
		n.elems = make([]*node, len(t.Elements))
		for i := range t.Elements {
			n.elems[i] = fromHujson(&t.Elements[i], li)
		}
	case hujson.Literal:
		switch t.Kind() {
		case '"':
			n.kind, n.text = kString, unquote(t)
		case '0':
			n.kind, n.text = kNumber, string(t)
		case 't', 'f':
			n.kind, n.boolean = kBool, t.Bool()
		default:
			n.kind = kNull
		}
	default:
		n.kind = kNull
	}
	return n
}

// unquote returns a JSON string's value; most strings have no escapes, so
// they skip the decoder.
func unquote(lit hujson.Literal) string {
	if len(lit) >= 2 && bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return string(lit)
	}
	return s
}
