// Package value holds what the TOML and YAML editors (tomledit, yamledit)
// share about decoded values: the generic form two values are compared in,
// the comparison itself, and the way back from the JSON that carries a
// client's unknown keys (canonical.Server.Extra) to an ordered map.
//
// Each editor has its own ordered map type (tomledit.Table, yamledit.Map:
// a list of Key/Value fields); the functions here take it as a type
// parameter. The editors differ only where their formats do: how a
// date-time compares with another value (TimeEqual), and whether null
// exists (TOML has none: Nulls).
package value

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// A Field is the shape of one key of an editor's ordered map.
type Field = struct {
	Key   string
	Value any
}

// Ordered is an editor's ordered map type, M, whose fields are F.
type Ordered[F ~Field] interface{ ~[]F }

// FromMap turns a decoded map into an ordered map: the keys of order first
// (those present), then the rest sorted.
func FromMap[M Ordered[F], F ~Field](m map[string]any, order []string) M {
	out := make(M, 0, len(m))
	seen := make(map[string]bool, len(m))
	for _, k := range order {
		if v, ok := m[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, F{Key: k, Value: v})
		}
	}
	rest := make([]string, 0, len(m)-len(seen))
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		out = append(out, F{Key: k, Value: m[k]})
	}
	return out
}

// SameOutside reports whether two decoded documents hold the same keys
// with the same values (reflect.DeepEqual), key aside: an edit of section
// key changed nothing else.
func SameOutside(a, b map[string]any, key string) bool {
	na, nb := len(a), len(b)
	if _, ok := a[key]; ok {
		na--
	}
	if _, ok := b[key]; ok {
		nb--
	}
	if na != nb {
		return false
	}
	for k, va := range a {
		if k == key {
			continue
		}
		if vb, ok := b[k]; !ok || !reflect.DeepEqual(va, vb) {
			return false
		}
	}
	return true
}

// Normalize returns v in the generic form a decoder produces and Equal
// compares: map[string]any, []any, int64, float64, string, bool, nil,
// time.Time. An ordered map M becomes a map[string]any.
func Normalize[M Ordered[F], F ~Field](v any) any {
	switch x := v.(type) {
	case M:
		m := make(map[string]any, len(x))
		for _, f := range x {
			kv := Field(f)
			m[kv.Key] = Normalize[M](kv.Value)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = Normalize[M](e)
		}
		return m
	case map[any]any:
		// Keys of other types are spelled as strings, where two can meet
		// (YAML's 0 and .0 are both "0"): taken in a fixed order, so that
		// which one stands never depends on Go's map order.
		type pair struct {
			order string
			k, v  any
		}
		pairs := make([]pair, 0, len(x))
		for k, e := range x { // pairs, not keys: a NaN key cannot be looked up again
			pairs = append(pairs, pair{fmt.Sprintf("%T\x00%v", k, k), k, e})
		}
		slices.SortStableFunc(pairs, func(a, b pair) int { return strings.Compare(a.order, b.order) })
		m := make(map[string]any, len(x))
		for _, p := range pairs {
			m[fmt.Sprint(p.k)] = Normalize[M](p.v)
		}
		return m
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Normalize[M](e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Normalize[M](e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case float32:
		return float64(x)
	}
	return v
}

// A TimeEqual says whether a decoded date-time t means the same as other,
// which is a time.Time or a string (its spelling in the file's format).
type TimeEqual func(t time.Time, other any) bool

// Equal reports whether two values mean the same: maps and lists element
// by element, an integer equal to a float of the same value (JSON, which
// carries unknown keys between clients, cannot tell them apart), NaN equal
// to NaN, and a date-time as sameTime says.
func Equal[M Ordered[F], F ~Field](a, b any, sameTime TimeEqual) bool {
	return equal(Normalize[M](a), Normalize[M](b), sameTime)
}

// equal compares two normalised values.
func equal(a, b any, sameTime TimeEqual) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv, sameTime) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], sameTime) {
				return false
			}
		}
		return true
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
		return false
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y || (math.IsNaN(x) && math.IsNaN(y))
		case int64:
			return x == float64(y)
		}
		return false
	case time.Time:
		return sameTime(x, b)
	case string:
		if y, ok := b.(time.Time); ok {
			return sameTime(y, x)
		}
	}
	return reflect.DeepEqual(a, b)
}
