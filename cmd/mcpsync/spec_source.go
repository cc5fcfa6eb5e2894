package main

import "github.com/mcpsync/mcpsync/formats/spec"

// builtinSpec returns the embedded spec text of a built-in client.
func builtinSpec(id string) ([]byte, bool) { return spec.BuiltinSource(id) }
