package codex

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/formats/internal/tomledit"
)

// toJSON turns a decoded TOML value into compact JSON for Server.Extra.
// Date-times become their TOML spelling, and floats JSON cannot carry (nan,
// inf) their TOML spelling too, as strings.
func toJSON(v any) json.RawMessage {
	b, err := json.Marshal(jsonable(v))
	if err != nil {
		b, _ = json.Marshal(tomledit.RenderValue(v))
	}
	return b
}

func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonable(e)
		}
		return out
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e)
		}
		return out
	case time.Time:
		return strings.Trim(tomledit.RenderValue(x), `"`)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return tomledit.RenderValue(x)
		}
	}
	return v
}

// fromJSON turns an Extra value back into a TOML value, keeping the key
// order of objects. A JSON number without a fraction or exponent is an
// integer. null has no TOML form: ok is false.
func fromJSON(raw json.RawMessage) (v any, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, ok = readJSON(dec)
	return v, ok
}

func readJSON(dec *json.Decoder) (any, bool) {
	tok, err := dec.Token()
	if err != nil {
		return nil, false
	}
	switch x := tok.(type) {
	case json.Delim:
		switch x {
		case '{':
			var t tomledit.Table
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, false
				}
				k, _ := kt.(string)
				v, ok := readJSON(dec)
				if ok {
					t = append(t, tomledit.Field{Key: k, Value: v})
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, false
			}
			if t == nil {
				t = tomledit.Table{}
			}
			return t, true
		case '[':
			list := []any{}
			for dec.More() {
				v, ok := readJSON(dec)
				if ok {
					list = append(list, v)
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, false
			}
			return list, true
		}
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i, true
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	case string, bool:
		return x, true
	}
	return nil, false // null
}

// npmShims are the commands that are .cmd scripts on Windows, which Codex
// (Rust's Command) cannot start without cmd /c.
var npmShims = map[string]bool{"npx": true, "npm": true, "pnpm": true, "pnpx": true, "yarn": true, "bunx": true}

// unwrapCmd reads cmd /c npx ... back as npx ....
func unwrapCmd(command string, args []string) (string, []string, bool) {
	base := strings.ToLower(command[strings.LastIndexAny(command, `/\`)+1:])
	if (base != "cmd" && base != "cmd.exe") || len(args) < 2 || !strings.EqualFold(args[0], "/c") {
		return command, args, false
	}
	if !npmShims[strings.ToLower(strings.TrimSuffix(strings.ToLower(args[1]), ".cmd"))] {
		return command, args, false
	}
	return args[1], append([]string(nil), args[2:]...), true
}

// wrapCmd writes npx ... as cmd /c npx ... for Windows.
func wrapCmd(command string, args []string) (string, []string, bool) {
	if !npmShims[strings.ToLower(command)] {
		return command, args, false
	}
	return "cmd", append([]string{"/c", command}, args...), true
}
