package jsonedit

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// Kind is the type of a JSON value.
type Kind byte

// The kinds of JSON values.
const (
	KindInvalid Kind = 0
	KindNull    Kind = 'n'
	KindBool    Kind = 'b'
	KindNumber  Kind = '0'
	KindString  Kind = '"'
	KindObject  Kind = '{'
	KindArray   Kind = '['
)

func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindObject:
		return "object"
	case KindArray:
		return "array"
	}
	return "nothing"
}

// A Node is one value of a parsed document. The zero Node is not Valid and
// answers every question with a zero value.
type Node struct {
	d *Doc
	v *hujson.Value
}

// A Member is a name and value of an object.
type Member struct {
	Name string
	// Key is the node of the name itself, for its position.
	Key   Node
	Value Node
}

// Valid reports whether the node exists.
func (n Node) Valid() bool { return n.v != nil && n.v.Value != nil }

// Kind returns the type of the value.
func (n Node) Kind() Kind {
	if !n.Valid() {
		return KindInvalid
	}
	switch k := n.v.Value.Kind(); k {
	case 't', 'f':
		return KindBool
	default:
		return Kind(k)
	}
}

// Offset returns the byte offset of the value's first byte in the text.
func (n Node) Offset() int {
	if !n.Valid() {
		return 0
	}
	return n.d.off + n.v.StartOffset
}

// End returns the byte offset just after the value.
func (n Node) End() int {
	if !n.Valid() {
		return 0
	}
	return n.d.off + n.v.EndOffset
}

// Pos returns the 1-based line and byte column where the value starts.
func (n Node) Pos() (line, col int) {
	if !n.Valid() {
		return 0, 0
	}
	return n.d.Pos(n.Offset())
}

// Text returns the value of a string.
func (n Node) Text() (string, bool) {
	if n.Kind() != KindString {
		return "", false
	}
	return unquote(n.v.Value.(hujson.Literal)), true
}

// unquote returns the value of a string literal, without encoding/json for
// the common case of a string with no escapes.
func unquote(lit hujson.Literal) string {
	raw := lit[1 : len(lit)-1]
	for _, c := range raw {
		if c == '\\' || c >= 0x80 {
			if utf8.Valid(raw) && bytes.IndexByte(raw, '\\') < 0 {
				return string(raw)
			}
			return lit.String()
		}
	}
	if i := common(raw); i >= 0 {
		return commonStrings[i]
	}
	return string(raw)
}

// commonStrings are names and values that every server of a client file
// repeats. Decoding a file of 10,000 servers made about 60,000 strings of
// these alone, and boxed as many literals in the tree, each an allocation
// for the collector to sweep: they are made once instead (common,
// commonLiterals). The tree is never changed in place (an edit splices the
// text and parses it again), so its nodes can share them.
var commonStrings = [...]string{"command", "args", "env", "type", "url", "headers", "cwd", "disabled", "enabled", "timeout", "environment", "stdio", "http", "sse", "local", "remote", "npx", "-y", "uvx", "node", "Authorization"}

// commonLiterals are commonStrings as string literals in a tree.
var commonLiterals = func() (lits [len(commonStrings)]hujson.ValueTrimmed) {
	for i, s := range commonStrings {
		lits[i] = hujson.Literal(strconv.Quote(s))
	}
	return lits
}()

// common returns the place in commonStrings of the string raw spells
// (without quotes or escapes), or -1. A switch on string(raw) converts
// nothing; TestCommonStringsDecodeAsWritten holds it to commonStrings.
func common(raw []byte) int {
	switch string(raw) {
	case "command":
		return 0
	case "args":
		return 1
	case "env":
		return 2
	case "type":
		return 3
	case "url":
		return 4
	case "headers":
		return 5
	case "cwd":
		return 6
	case "disabled":
		return 7
	case "enabled":
		return 8
	case "timeout":
		return 9
	case "environment":
		return 10
	case "stdio":
		return 11
	case "http":
		return 12
	case "sse":
		return 13
	case "local":
		return 14
	case "remote":
		return 15
	case "npx":
		return 16
	case "-y":
		return 17
	case "uvx":
		return 18
	case "node":
		return 19
	case "Authorization":
		return 20
	}
	return -1
}

// Bool returns the value of a boolean.
func (n Node) Bool() (bool, bool) {
	if n.Kind() != KindBool {
		return false, false
	}
	return n.v.Value.(hujson.Literal).Bool(), true
}

// Float returns the value of a number.
func (n Node) Float() (float64, bool) {
	if n.Kind() != KindNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n.v.Value.(hujson.Literal)), 64)
	return f, err == nil
}

// Literal returns the text of a string, number, boolean or null exactly as
// written (strings keep their quotes).
func (n Node) Literal() string {
	if l, ok := n.value().(hujson.Literal); ok {
		return string(l)
	}
	return ""
}

func (n Node) value() hujson.ValueTrimmed {
	if !n.Valid() {
		return nil
	}
	return n.v.Value
}

// Members returns the members of an object in order, duplicates included.
func (n Node) Members() []Member {
	o, ok := n.value().(*hujson.Object)
	if !ok {
		return nil
	}
	out := make([]Member, len(o.Members))
	for i := range o.Members {
		m := &o.Members[i]
		out[i] = Member{
			Name:  unquote(m.Name.Value.(hujson.Literal)),
			Key:   Node{d: n.d, v: &m.Name},
			Value: Node{d: n.d, v: &m.Value},
		}
	}
	return out
}

// Len returns the number of members of an object or elements of an array.
func (n Node) Len() int {
	switch c := n.value().(type) {
	case *hujson.Object:
		return len(c.Members)
	case *hujson.Array:
		return len(c.Elements)
	}
	return 0
}

// Get returns the value of the object member called name (the last one if
// the name is repeated); it is not Valid when there is none.
func (n Node) Get(name string) Node {
	if i := n.memberIndex(name); i >= 0 {
		return Node{d: n.d, v: &n.value().(*hujson.Object).Members[i].Value}
	}
	return Node{}
}

func (n Node) memberIndex(name string) int {
	o, ok := n.value().(*hujson.Object)
	if !ok {
		return -1
	}
	for i := len(o.Members) - 1; i >= 0; i-- {
		if nameEquals(o.Members[i].Name.Value.(hujson.Literal), name) {
			return i
		}
	}
	return -1
}

// nameEquals compares a member name with a string without unquoting when the
// name has no escapes, which is nearly always.
func nameEquals(lit hujson.Literal, name string) bool {
	raw := lit[1 : len(lit)-1]
	for _, c := range raw {
		if c == '\\' || c >= 0x80 {
			return lit.String() == name
		}
	}
	return string(raw) == name
}

// Elements returns the elements of an array.
func (n Node) Elements() []Node {
	a, ok := n.value().(*hujson.Array)
	if !ok {
		return nil
	}
	out := make([]Node, len(a.Elements))
	for i := range a.Elements {
		out[i] = Node{d: n.d, v: &a.Elements[i]}
	}
	return out
}

// Raw returns the value's bytes exactly as written, comments inside included.
func (n Node) Raw() []byte {
	if !n.Valid() {
		return nil
	}
	return n.d.src[n.Offset():n.End()]
}

// JSON returns the value as compact standard JSON: comments, whitespace and
// trailing commas removed, everything else as written.
func (n Node) JSON() json.RawMessage {
	if !n.Valid() {
		return nil
	}
	if l, ok := n.v.Value.(hujson.Literal); ok {
		return json.RawMessage(append([]byte(nil), l...))
	}
	c := hujson.Value{Value: n.v.Value}.Clone()
	c.Minimize()
	return json.RawMessage(c.Pack())
}
