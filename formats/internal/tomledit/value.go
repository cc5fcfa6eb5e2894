package tomledit

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/formats/internal/value"
	"github.com/mcpsync/mcpsync/internal/strquote"
)

// A Table is a TOML table whose key order matters when it is written anew.
// Values are string, int64, float64, bool, time.Time, []any and Table;
// map[string]any and the other Go integer and float types are accepted and
// normalised.
type Table []Field

// A Field is one key of a Table.
type Field struct {
	Key   string
	Value any
}

// Get returns the value of key.
func (t Table) Get(key string) (any, bool) {
	for _, f := range t {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Set replaces the value of key, or appends it.
func (t *Table) Set(key string, v any) {
	for i := range *t {
		if (*t)[i].Key == key {
			(*t)[i].Value = v
			return
		}
	}
	*t = append(*t, Field{key, v})
}

// Keys returns the keys in order.
func (t Table) Keys() []string {
	out := make([]string, len(t))
	for i, f := range t {
		out[i] = f.Key
	}
	return out
}

// TableFromMap turns a decoded map into a Table, keys in the given order
// first (those present), then the rest sorted.
func TableFromMap(m map[string]any, order []string) Table { return value.FromMap[Table](m, order) }

// Normalize returns v in the generic form BurntSushi/toml decodes into:
// map[string]any, []any, int64, float64, string, bool, time.Time.
func Normalize(v any) any { return value.Normalize[Table](v) }

// Equal reports whether two values mean the same to a TOML reader. An
// integer equals a float of the same value (Codex reads 20 and 20.0 alike,
// and JSON, which carries unknown keys between clients, cannot tell them
// apart), and a date-time equals its own TOML spelling as a string.
func Equal(a, b any) bool { return value.Equal[Table](a, b, sameTime) }

// sameTime compares a date-time with another, its kind (local or not) and
// zone included, or with its TOML spelling.
func sameTime(x time.Time, b any) bool {
	switch y := b.(type) {
	case time.Time:
		return x.Equal(y) && x.Location().String() == y.Location().String()
	case string:
		return formatTime(x) == y
	}
	return false
}

// formatTime spells a decoded date-time as TOML does, keeping the local
// date, local time and local date-time kinds apart.
func formatTime(t time.Time) string {
	// BurntSushi/toml marks the local kinds by zone name (its
	// internal.LocalDate and friends are not exported).
	switch t.Location().String() {
	case "date-local":
		return t.Format("2006-01-02")
	case "time-local":
		return t.Format("15:04:05.999999999")
	case "datetime-local":
		return t.Format("2006-01-02T15:04:05.999999999")
	}
	return t.Format(time.RFC3339Nano)
}

// RenderKey spells one key part: bare when it may be, quoted otherwise.
func RenderKey(k string) string {
	if bareKey(k) {
		return k
	}
	return renderString(k)
}

// bareKey reports whether k may be written bare: A-Z, a-z, 0-9, _ and -,
// at least one. (strings.Trim with those 64 bytes as its cutset made a set
// of them for every key a Codex file was written with.)
func bareKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return k != ""
}

// RenderPath spells a dotted key.
func RenderPath(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = RenderKey(p)
	}
	return strings.Join(parts, ".")
}

// RenderValue spells v on one line: strings as basic strings, tables as
// inline tables, arrays inline.
func RenderValue(v any) string {
	var b strings.Builder
	renderValue(&b, v)
	return b.String()
}

func renderValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case Table:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{ ")
		for i, f := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(RenderKey(f.Key))
			b.WriteString(" = ")
			renderValue(b, f.Value)
		}
		b.WriteString(" }")
	case map[string]any:
		renderValue(b, TableFromMap(x, nil))
	case []map[string]any, []string:
		renderValue(b, Normalize(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			renderValue(b, e)
		}
		b.WriteByte(']')
	case string:
		b.WriteString(renderString(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(renderFloat(x))
	case time.Time:
		b.WriteString(formatTime(x))
	default:
		n := Normalize(v)
		if reflect.TypeOf(n) == reflect.TypeOf(v) {
			// Not a TOML value; a string keeps the output valid and the
			// verification after the edit reports the mismatch.
			b.WriteString(renderString(reflect.ValueOf(v).String()))
			return
		}
		renderValue(b, n)
	}
}

func renderFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// renderString writes a TOML basic string (strquote.TOML, which the
// secret scrubber also spells values by).
func renderString(s string) string { return `"` + strquote.TOML(s) + `"` }
