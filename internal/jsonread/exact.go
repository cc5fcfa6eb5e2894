package jsonread

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// EncodeExact is v as JSON, by encoding/json with HTML left unescaped (raw
// JSON values keep their bytes), or nil when that JSON does not read back
// by read as exactly v: a value JSON cannot carry as it is. mcpsync's
// caches check each entry so as it is made, which keeps them exact
// without knowing every value an entry can hold.
func EncodeExact[T any](v T, read func([]byte) (T, bool)) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	back, ok := read(buf.Bytes())
	if !ok || !reflect.DeepEqual(back, v) {
		return nil
	}
	return buf.Bytes()
}
