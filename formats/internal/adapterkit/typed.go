package adapterkit

import "github.com/mcpsync/mcpsync/internal/mapkeys"

// Typed reads the keys of one decoded table with the types a client
// expects, reporting a wrong type in serde's words (Codex and Goose are
// Rust programs and say it so): "invalid type: string \"10\", expected
// u64".
type Typed struct {
	M map[string]any
	// Prefix is put before every key a failure names ("oauth.").
	Prefix string
	// Fail reports a key with a wrong value.
	Fail func(key, format string, args ...any)
	// Describe names a value in the client's words: integer `1`, a sequence.
	Describe func(any) string
}

// Str reads a string; ok is false when the key is absent or not a string.
func (t Typed) Str(key string) (string, bool) {
	v, ok := t.M[key]
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		t.Fail(t.Prefix+key, "invalid type: %s, expected a string", t.Describe(v))
	}
	return s, ok
}

// Bool reads a boolean.
func (t Typed) Bool(key string) (bool, bool) {
	v, ok := t.M[key]
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		t.Fail(t.Prefix+key, "invalid type: %s, expected a boolean", t.Describe(v))
	}
	return b, ok
}

// Number reads an integer or a float as a float; want names the type the
// client expects ("f64").
func (t Typed) Number(key, want string) (float64, bool) {
	switch x := t.M[key].(type) {
	case nil:
		return 0, false
	case int64:
		return float64(x), true
	case float64:
		return x, true
	default:
		t.Fail(t.Prefix+key, "invalid type: %s, expected %s", t.Describe(x), want)
		return 0, false
	}
}

// Uint reads a non-negative integer.
func (t Typed) Uint(key string) (uint64, bool) {
	switch x := t.M[key].(type) {
	case nil:
		return 0, false
	case int64:
		if x < 0 {
			t.Fail(t.Prefix+key, "invalid value: integer `%d`, expected u64", x)
			return 0, false
		}
		return uint64(x), true
	default:
		t.Fail(t.Prefix+key, "invalid type: %s, expected u64", t.Describe(x))
		return 0, false
	}
}

// StrList reads a list of strings, leaving out (and reporting) the
// elements that are not. An absent or null key is nil; an empty list is
// empty, not nil.
func (t Typed) StrList(key string) []string {
	v, ok := t.M[key]
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		t.Fail(t.Prefix+key, "invalid type: %s, expected a sequence", t.Describe(v))
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			t.Fail(t.Prefix+key, "invalid type: %s, expected a string", t.Describe(e))
			continue
		}
		out = append(out, s)
	}
	return out
}

// StrMap reads a map of strings, leaving out (and reporting) the values
// that are not; ok is false when the key is absent, null or not a map.
func (t Typed) StrMap(key string) (map[string]string, bool) {
	v, ok := t.M[key]
	if !ok || v == nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fail(t.Prefix+key, "invalid type: %s, expected a map", t.Describe(v))
		return nil, false
	}
	out := make(map[string]string, len(m))
	for _, k := range mapkeys.Sorted(m) {
		s, ok := m[k].(string)
		if !ok {
			t.Fail(t.Prefix+key+"."+k, "invalid type: %s, expected a string", t.Describe(m[k]))
			continue
		}
		out[k] = s
	}
	return out, true
}
