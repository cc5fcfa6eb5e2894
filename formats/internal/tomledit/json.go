package tomledit

import (
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/formats/internal/value"
)

// ToJSON turns a decoded TOML value into compact JSON, as Server.Extra
// carries a client's unknown keys. Date-times become their TOML spelling,
// and floats JSON cannot carry (nan, inf) their TOML spelling too, as
// strings.
func ToJSON(v any) json.RawMessage { return value.ToJSON(v, jsonScalar, RenderValue) }

func jsonScalar(v any) any {
	switch x := v.(type) {
	case time.Time:
		return strings.Trim(RenderValue(x), `"`)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return RenderValue(x)
		}
	}
	return v
}

// FromJSON turns an Extra value back into a TOML value, keeping the key
// order of objects (as Table). A JSON number without a fraction or exponent
// is an integer. null has no TOML form: ok is false for it, and a member or
// element that is null is left out.
func FromJSON(raw json.RawMessage) (v any, ok bool) {
	return value.FromJSON[Table](raw, value.DropNulls)
}
