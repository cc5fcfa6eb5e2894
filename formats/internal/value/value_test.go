package value

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"
)

// testMap is an editor's ordered map, as tomledit.Table and yamledit.Map are.
type testMap []testField

type testField struct {
	Key   string
	Value any
}

// spelled compares date-times by their RFC 3339 spelling.
func spelled(t time.Time, other any) bool {
	switch y := other.(type) {
	case time.Time:
		return t.Equal(y)
	case string:
		return t.Format(time.RFC3339) == y
	}
	return false
}

func TestFromJSONKeepsOrderAndNumbers(t *testing.T) {
	v, ok := FromJSON[testMap](json.RawMessage(`{"b": 1, "a": [2.5, "x", true, {"z": 1e3}], "c": 9007199254740993}`), KeepNulls)
	if !ok {
		t.Fatal("not ok")
	}
	want := testMap{
		{"b", int64(1)},
		{"a", []any{2.5, "x", true, testMap{{"z", 1000.0}}}},
		{"c", int64(9007199254740993)},
	}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %#v\nwant %#v", v, want)
	}
}

func TestFromJSONNulls(t *testing.T) {
	raw := json.RawMessage(`{"a": null, "b": [1, null, 2], "c": {}}`)
	keep, ok := FromJSON[testMap](raw, KeepNulls)
	if want := (testMap{{"a", nil}, {"b", []any{int64(1), nil, int64(2)}}, {"c", testMap{}}}); !ok || !reflect.DeepEqual(keep, want) {
		t.Errorf("KeepNulls: %#v, %v; want %#v", keep, ok, want)
	}
	drop, ok := FromJSON[testMap](raw, DropNulls)
	if want := (testMap{{"b", []any{int64(1), int64(2)}}, {"c", testMap{}}}); !ok || !reflect.DeepEqual(drop, want) {
		t.Errorf("DropNulls: %#v, %v; want %#v", drop, ok, want)
	}
	// A number TOML cannot hold is left out, like a null.
	if v, ok := FromJSON[testMap](json.RawMessage(`{"a": 1e400, "b": [1e400, 1]}`), DropNulls); !ok ||
		!reflect.DeepEqual(v, testMap{{"b", []any{int64(1)}}}) {
		t.Errorf("DropNulls with 1e400: %#v, %v", v, ok)
	}
	for _, tc := range []struct {
		raw   string
		nulls Nulls
		ok    bool
	}{
		{"", KeepNulls, false},
		{"null", KeepNulls, true},
		{"null", DropNulls, false},
		{`{"a": 1`, KeepNulls, false},
		{`[1, {"a": ]`, KeepNulls, false},
		// Broken JSON fails with DropNulls too (it used to loop for ever).
		{`[1, {"z": 1}N]`, DropNulls, false},
		{`{"a": 1e400}`, KeepNulls, false},
	} {
		if _, ok := FromJSON[testMap](json.RawMessage(tc.raw), tc.nulls); ok != tc.ok {
			t.Errorf("FromJSON(%q, %v): ok = %v, want %v", tc.raw, tc.nulls, ok, tc.ok)
		}
	}
}

func TestEqual(t *testing.T) {
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name string
		a, b any
		want bool
	}{
		{"integer and float of the same value", int64(20), 20.0, true},
		{"integer and another float", int64(20), 20.5, false},
		{"Go integer types", int(3), uint8(3), true},
		{"NaN", math.NaN(), math.NaN(), true},
		{"ordered map and map", testMap{{"a", int64(1)}, {"b", []string{"x"}}}, map[string]any{"b": []any{"x"}, "a": 1.0}, true},
		{"ordered map with another value", testMap{{"a", int64(1)}}, map[string]any{"a": int64(2)}, false},
		{"ordered map with a key more", testMap{{"a", int64(1)}, {"b", nil}}, map[string]any{"a": int64(1)}, false},
		{"nested", []any{testMap{{"k", []any{int32(1)}}}}, []any{map[string]any{"k": []any{1.0}}}, true},
		{"list lengths", []any{"a"}, []any{"a", "b"}, false},
		{"date-time and its spelling", when, "2025-01-02T03:04:05Z", true},
		{"spelling and date-time", "2025-01-02T03:04:05Z", when, true},
		{"date-time and another spelling", when, "2025-01-02", false},
		{"string and number", "1", int64(1), false},
		{"nil", nil, nil, true},
	} {
		if got := Equal[testMap](tc.a, tc.b, spelled); got != tc.want {
			t.Errorf("%s: Equal(%#v, %#v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
}

// FuzzFromJSON: any input, no panic; valid JSON reads (with nulls kept) as
// the value encoding/json reads, and with nulls dropped holds no null.
func FuzzFromJSON(f *testing.F) {
	for _, s := range []string{
		`{"b": 1, "a": [2.5, "x", true, {"z": 1e3}]}`,
		`{"env_vars": [{"name": "TOKEN", "source": "remote"}, "PLAIN"]}`,
		`{"a": null, "b": [1, null, 2], "c": {}}`,
		`[]`, `"\u00e9"`, `-0`, `12345678901234567890`, `1e400`, `{"a": {"a": {"a": []}}}`,
		`{"a": 1, "a": 2}`, `{"a": 1`, `nul`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		kept, okKeep := FromJSON[testMap](data, KeepNulls)
		dropped, okDrop := FromJSON[testMap](data, DropNulls)
		if okDrop && hasNil(dropped) {
			t.Errorf("DropNulls left a null: %#v", dropped)
		}
		var want any
		if !json.Valid(data) || json.Unmarshal(data, &want) != nil {
			return
		}
		if !okKeep {
			t.Fatalf("valid JSON not read: %q", data)
		}
		if !Equal[testMap](kept, want, spelled) {
			t.Errorf("%q read as %#v, encoding/json reads %#v", data, kept, want)
		}
	})
}

func hasNil(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case testMap:
		for _, f := range x {
			if hasNil(f.Value) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasNil(e) {
				return true
			}
		}
	}
	return false
}

func TestFromMapOrder(t *testing.T) {
	got := FromMap[testMap](map[string]any{"c": 3, "a": 1, "b": 2, "d": 4}, []string{"d", "x", "b", "d"})
	want := testMap{{"d", 4}, {"b", 2}, {"a", 1}, {"c", 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestToJSON(t *testing.T) {
	when := time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)
	scalar := func(v any) any {
		if x, ok := v.(time.Time); ok {
			return x.Format("2006-01-02")
		}
		return v
	}
	whole := func(v any) string { return "whole" }
	if got := string(ToJSON(map[string]any{"b": []any{when, int64(1)}, "a": []map[string]any{{"x": true}}}, scalar, whole)); got != `{"a":[{"x":true}],"b":["2025-01-02",1]}` {
		t.Errorf("got %s", got)
	}
	if got := string(ToJSON([]any{math.NaN()}, scalar, whole)); got != `"whole"` {
		t.Errorf("a NaN JSON cannot hold: got %s, want the whole value's text", got)
	}
}

func TestSameOutside(t *testing.T) {
	a := map[string]any{"x": int64(1), "s": "old", "l": []any{"a"}}
	for _, tc := range []struct {
		b    map[string]any
		want bool
	}{
		{map[string]any{"x": int64(1), "l": []any{"a"}}, true},
		{map[string]any{"x": int64(1), "s": "new", "l": []any{"a"}}, true},
		{map[string]any{"x": int64(2), "s": "old", "l": []any{"a"}}, false},
		{map[string]any{"x": int64(1), "s": "old"}, false},
		{map[string]any{"x": int64(1), "l": []any{"a"}, "y": nil}, false},
		{map[string]any{"x": 1.0, "l": []any{"a"}}, false},
	} {
		if got := SameOutside(a, tc.b, "s"); got != tc.want {
			t.Errorf("SameOutside(%v, %v) = %v, want %v", a, tc.b, got, tc.want)
		}
	}
	if !SameOutside(nil, map[string]any{"s": 1}, "s") {
		t.Error("nil and a map holding only the key differ")
	}
}
