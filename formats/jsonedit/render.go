package jsonedit

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/mcpsync/mcpsync/internal/strquote"
)

// A Field is one member of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object whose members are written in this order (Go maps
// have no order, so new entries are built as Objects).
//
// Values may be nil, string, bool, any integer or float, json.Number,
// json.RawMessage (re-laid out in the file's style), Object, []string, []any,
// map[string]string (keys sorted) or another Object.
type Object []Field

// layout is how a new value is written where it goes.
type layout struct {
	multiline bool
	indent    string // indentation of the line the value starts on
	unit      string
	nl        string
	colon     string // ": " or ":"
	comma     string // ", " or "," between inline members
}

func (l layout) deeper() layout { l.indent += l.unit; return l }

func render(b *textBuilder, v any, l layout) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		writeString(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("cannot write %v as JSON", x)
		}
		b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	case json.Number:
		b.WriteString(string(x))
	case huValue:
		return renderHu(b, x.v, l)
	case json.RawMessage:
		hv, err := hujson.Parse(x)
		if err != nil {
			return fmt.Errorf("invalid JSON value %s: %w", x, err)
		}
		return renderHu(b, hv.Value, l)
	case Object:
		return renderObject(b, len(x), func(i int) (string, any) { return x[i].Key, x[i].Value }, l)
	case map[string]string:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return renderObject(b, len(keys), func(i int) (string, any) { return keys[i], x[keys[i]] }, l)
	case []string:
		return renderArray(b, len(x), func(i int) any { return x[i] }, l)
	case []any:
		return renderArray(b, len(x), func(i int) any { return x[i] }, l)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			b.WriteString(strconv.FormatInt(rv.Int(), 10))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			b.WriteString(strconv.FormatUint(rv.Uint(), 10))
		case reflect.Float32:
			b.WriteString(strconv.FormatFloat(rv.Float(), 'f', -1, 32))
		default:
			return fmt.Errorf("jsonedit: cannot render a %T", v)
		}
	}
	return nil
}

func renderObject(b *textBuilder, n int, at func(int) (string, any), l layout) error {
	if n == 0 {
		b.WriteString("{}")
		return nil
	}
	b.WriteByte('{')
	in := l.deeper()
	for i := 0; i < n; i++ {
		k, v := at(i)
		if i > 0 {
			b.WriteByte(',')
		}
		if l.multiline {
			b.WriteString(l.nl)
			b.WriteString(in.indent)
		} else if i > 0 {
			b.WriteString(strings.TrimPrefix(l.comma, ","))
		}
		writeString(b, k)
		b.WriteString(l.colon)
		if err := render(b, v, in); err != nil {
			return err
		}
	}
	if l.multiline {
		b.WriteString(l.nl)
		b.WriteString(l.indent)
	}
	b.WriteByte('}')
	return nil
}

func renderArray(b *textBuilder, n int, at func(int) any, l layout) error {
	if n == 0 {
		b.WriteString("[]")
		return nil
	}
	b.WriteByte('[')
	in := l.deeper()
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if l.multiline {
			b.WriteString(l.nl)
			b.WriteString(in.indent)
		} else if i > 0 {
			b.WriteString(strings.TrimPrefix(l.comma, ","))
		}
		if err := render(b, at(i), in); err != nil {
			return err
		}
	}
	if l.multiline {
		b.WriteString(l.nl)
		b.WriteString(l.indent)
	}
	b.WriteByte(']')
	return nil
}

// renderHu lays out a parsed value again, dropping its comments and spacing.
func renderHu(b *textBuilder, v hujson.ValueTrimmed, l layout) error {
	switch x := v.(type) {
	case hujson.Literal:
		b.Write(x)
	case *hujson.Object:
		return renderObject(b, len(x.Members), func(i int) (string, any) {
			m := x.Members[i]
			return m.Name.Value.(hujson.Literal).String(), huValue{m.Value.Value}
		}, l)
	case *hujson.Array:
		return renderArray(b, len(x.Elements), func(i int) any { return huValue{x.Elements[i].Value} }, l)
	}
	return nil
}

// huValue carries a parsed value through render.
type huValue struct{ v hujson.ValueTrimmed }

// writeString writes s as a JSON string without HTML escaping, as
// JavaScript's JSON.stringify and every client do (strquote.JSON, which
// the secret scrubber also spells values by; most values need no escape
// and are written as they are).
func writeString(b *textBuilder, s string) {
	b.WriteByte('"')
	b.WriteString(strquote.JSON(s))
	b.WriteByte('"')
}

// textBuilder is a strings.Builder that doubles its room when it runs out:
// a new file's text, all its servers, is built here, and append grows a
// large buffer by about a quarter at a time, so a 1.5 MB text of 10,000
// servers was copied several times its size on the way.
type textBuilder struct{ strings.Builder }

func (b *textBuilder) room(n int) {
	if b.Cap()-b.Len() < n {
		b.Grow(n) // to twice the capacity, and n
	}
}

func (b *textBuilder) WriteString(s string) (int, error) {
	b.room(len(s))
	return b.Builder.WriteString(s)
}

func (b *textBuilder) WriteByte(c byte) error {
	b.room(1)
	return b.Builder.WriteByte(c)
}

func (b *textBuilder) Write(p []byte) (int, error) {
	b.room(len(p))
	return b.Builder.Write(p)
}
