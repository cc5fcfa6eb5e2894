package canonical

import (
	"encoding/json"
	"testing"
)

func TestExtraEqual(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	a := map[string]json.RawMessage{"env_vars": raw(`[{"name": "A", "source": "remote"}]`), "n": raw(`1`)}
	for _, tc := range []struct {
		b    map[string]json.RawMessage
		want bool
	}{
		{map[string]json.RawMessage{"n": raw(`1.0`), "env_vars": raw(`[{"source":"remote","name":"A"}]`)}, true},
		{map[string]json.RawMessage{"n": raw(`2`), "env_vars": raw(`[{"name": "A", "source": "remote"}]`)}, false},
		{map[string]json.RawMessage{"n": raw(`1`)}, false},
		{map[string]json.RawMessage{"n": raw(`1`), "m": raw(`1`)}, false},
	} {
		if got := ExtraEqual(a, tc.b); got != tc.want {
			t.Errorf("ExtraEqual(%s, %s) = %v, want %v", a, tc.b, got, tc.want)
		}
	}
	if !ExtraEqual(nil, map[string]json.RawMessage{}) {
		t.Error("nil and empty differ")
	}
}
