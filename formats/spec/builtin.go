package spec

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
)

//go:embed builtin/*.hcl
var builtinFS embed.FS

// BuiltinIDs lists the clients whose spec is built in, sorted.
func BuiltinIDs() []string {
	entries, _ := builtinFS.ReadDir("builtin")
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".hcl"); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// BuiltinSource returns the text of a built-in client's spec, the starting
// point for a plugin (mcpsync clients --spec ID).
func BuiltinSource(id string) ([]byte, bool) {
	if strings.ContainsAny(id, `/\.`) {
		return nil, false
	}
	b, err := builtinFS.ReadFile(path.Join("builtin", id+".hcl"))
	return b, err == nil
}

var builtinCache sync.Map // id -> *Spec

// Builtin returns the parsed spec of a built-in client. Each spec is parsed
// once, on first use, so that start-up pays only for the clients a command
// touches.
func Builtin(id string) (*Spec, error) {
	if s, ok := builtinCache.Load(id); ok {
		return s.(*Spec), nil
	}
	src, ok := BuiltinSource(id)
	if !ok {
		return nil, fmt.Errorf("no built-in client %q", id)
	}
	specs, diags := Parse("builtin/"+id+".hcl", src)
	if diags.HasErrors() {
		return nil, diags.Err()
	}
	if len(specs) != 1 || specs[0].ID != id {
		return nil, fmt.Errorf("builtin/%s.hcl must describe exactly the client %q", id, id)
	}
	s, _ := builtinCache.LoadOrStore(id, specs[0])
	return s.(*Spec), nil
}

// MustBuiltin is Builtin for the built-in list, where a broken spec is a bug
// that the tests catch.
func MustBuiltin(id string) *Spec {
	s, err := Builtin(id)
	if err != nil {
		panic(err)
	}
	return s
}
