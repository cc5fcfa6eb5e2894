package value

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// ToJSON turns a decoded value into compact JSON, as Server.Extra carries
// a client's unknown keys. scalar gives a value JSON has no form for (a
// date-time, NaN) one, as the file's format spells it; when the value still
// cannot be marshalled, it is whole's text as a JSON string.
func ToJSON(v any, scalar func(any) any, whole func(any) string) json.RawMessage {
	b, err := json.Marshal(jsonable(v, scalar))
	if err != nil {
		b, _ = json.Marshal(whole(v))
	}
	return b
}

func jsonable(v any, scalar func(any) any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonable(e, scalar)
		}
		return out
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e, scalar)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e, scalar)
		}
		return out
	}
	return scalar(v)
}

// Nulls says what FromJSON does with a JSON null.
type Nulls int

const (
	// KeepNulls reads null as nil (YAML has null). A member or element
	// that cannot be read fails the whole value.
	KeepNulls Nulls = iota
	// DropNulls is for a format without null (TOML): a null value is not
	// ok, and a member or element that is null (or a number out of range)
	// is left out.
	DropNulls
)

// FromJSON turns an Extra value back into a value an editor writes,
// keeping the key order of objects (as the editor's ordered map M). A
// number without a fraction or exponent that fits is an int64, any other a
// float64. ok is false for an absent or malformed value, and for null
// (or a number out of range) with DropNulls.
func FromJSON[M Ordered[F], F ~Field](raw json.RawMessage, nulls Nulls) (v any, ok bool) {
	if len(raw) == 0 {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, r := readJSON[M](dec, nulls)
	return v, r == read
}

// result is what readJSON made of one value.
type result int

const (
	read      result = iota
	left             // null, or a number out of range, with DropNulls: left out
	malformed        // the JSON is broken, or (KeepNulls) a number is out of range
)

func readJSON[M Ordered[F], F ~Field](dec *json.Decoder, nulls Nulls) (any, result) {
	// What a value that has no form becomes.
	noForm := malformed
	if nulls == DropNulls {
		noForm = left
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, malformed
	}
	switch x := tok.(type) {
	case json.Delim:
		switch x {
		case '{':
			m := M{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, malformed
				}
				k, _ := kt.(string)
				v, r := readJSON[M](dec, nulls)
				switch r {
				case read:
					m = append(m, F{Key: k, Value: v})
				case malformed:
					return nil, malformed
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, malformed
			}
			return m, read
		case '[':
			list := []any{}
			for dec.More() {
				v, r := readJSON[M](dec, nulls)
				switch r {
				case read:
					list = append(list, v)
				case malformed:
					return nil, malformed
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, malformed
			}
			return list, read
		}
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i, read
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, read
		}
		return nil, noForm
	case string, bool:
		return x, read
	case nil:
		if nulls == KeepNulls {
			return nil, read
		}
		return nil, left
	}
	return nil, malformed
}
