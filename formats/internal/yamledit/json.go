package yamledit

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpsync/mcpsync/formats/internal/value"
)

// ToJSON turns a decoded YAML value into compact JSON, as Server.Extra
// carries a client's unknown keys. A timestamp becomes its YAML spelling; a
// value JSON cannot carry at all (a NaN inside) becomes its text.
func ToJSON(v any) json.RawMessage {
	return value.ToJSON(v, jsonScalar, func(v any) string { return fmt.Sprint(v) })
}

func jsonScalar(v any) any {
	if t, ok := v.(time.Time); ok {
		return FormatTime(t)
	}
	return v
}

// FromJSON turns an Extra value back into a YAML value, keeping the key
// order of objects (as Map); ok is false for an absent value.
func FromJSON(raw json.RawMessage) (any, bool) {
	return value.FromJSON[Map](raw, value.KeepNulls)
}

// JSONEqual reports whether two Extra values mean the same as YAML values
// (Equal); an absent value equals only an absent one.
func JSONEqual(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && Equal(x, y)
}
