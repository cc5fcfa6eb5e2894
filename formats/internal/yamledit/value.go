package yamledit

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"
)

// A Map is a YAML mapping whose key order matters when it is written anew.
// Values are string, int64, float64, bool, nil, time.Time, []any and Map;
// map[string]any and the other Go number types are accepted and
// normalised.
type Map []Field

// A Field is one key of a Map.
type Field struct {
	Key   string
	Value any
}

// Get returns the value of key.
func (m Map) Get(key string) (any, bool) {
	for _, f := range m {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Set replaces the value of key, or appends it.
func (m *Map) Set(key string, v any) {
	for i := range *m {
		if (*m)[i].Key == key {
			(*m)[i].Value = v
			return
		}
	}
	*m = append(*m, Field{key, v})
}

// Keys returns the keys in order.
func (m Map) Keys() []string {
	out := make([]string, len(m))
	for i, f := range m {
		out[i] = f.Key
	}
	return out
}

// MapFrom turns a decoded map into a Map: keys in order first (those
// present), then the rest sorted.
func MapFrom(m map[string]any, order []string) Map {
	out := make(Map, 0, len(m))
	seen := map[string]bool{}
	for _, k := range order {
		if v, ok := m[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, Field{k, v})
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		out = append(out, Field{k, m[k]})
	}
	return out
}

// Normalize returns v in the generic form this package compares:
// map[string]any, []any, int64, float64, string, bool, nil, time.Time.
func Normalize(v any) any {
	switch x := v.(type) {
	case Map:
		m := make(map[string]any, len(x))
		for _, f := range x {
			m[f.Key] = Normalize(f.Value)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = Normalize(e)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = Normalize(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Normalize(e)
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
	case int32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case uint:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}

// Equal reports whether two values mean the same: an integer equals a float
// of the same value, and a timestamp equals its own spelling as a string
// (JSON, which carries unknown keys between clients, has neither
// distinction).
func Equal(a, b any) bool {
	a, b = Normalize(a), Normalize(b)
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !Equal(xv, yv) {
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
			if !Equal(x[i], y[i]) {
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
		switch y := b.(type) {
		case time.Time:
			return x.Equal(y)
		case string:
			return FormatTime(x) == y
		}
		return false
	case string:
		if y, ok := b.(time.Time); ok {
			return FormatTime(y) == x
		}
	}
	return reflect.DeepEqual(a, b)
}

// FormatTime spells a decoded timestamp as YAML would: a date alone when
// it has no time of day.
func FormatTime(t time.Time) string {
	if t.Location() == time.UTC && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format(time.RFC3339Nano)
}
