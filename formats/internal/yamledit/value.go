package yamledit

import (
	"time"

	"github.com/mcpsync/mcpsync/formats/internal/value"
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
func MapFrom(m map[string]any, order []string) Map { return value.FromMap[Map](m, order) }

// Normalize returns v in the generic form this package compares:
// map[string]any, []any, int64, float64, string, bool, nil, time.Time.
func Normalize(v any) any { return value.Normalize[Map](v) }

// Equal reports whether two values mean the same: an integer equals a float
// of the same value, and a timestamp equals its own spelling as a string
// (JSON, which carries unknown keys between clients, has neither
// distinction).
func Equal(a, b any) bool { return value.Equal[Map](a, b, sameTime) }

// sameTime compares a timestamp with another, or with its spelling.
func sameTime(x time.Time, b any) bool {
	switch y := b.(type) {
	case time.Time:
		return x.Equal(y)
	case string:
		return FormatTime(x) == y
	}
	return false
}

// FormatTime spells a decoded timestamp as YAML would: a date alone when
// it has no time of day.
func FormatTime(t time.Time) string {
	if t.Location() == time.UTC && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format(time.RFC3339Nano)
}
