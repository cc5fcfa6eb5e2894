package spec

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
)

// Context is what a hook knows about the file being read or written.
type Context struct {
	Spec *Spec
	Loc  formats.Location
	// Servers is the path of names to the server map in this file.
	Servers []string
	// Options are the user's choices for an Encode (zero for a Decode).
	Options formats.EncodeOptions
	// Written names the servers an Encode added or changed, for
	// FinishEncode; entries left alone are not in it.
	Written []string
	// Original is the file as it was before the Encode (nil: no file).
	Original []byte
}

// Hooks are a client's Go quirks around the generic adapter: the parts of a
// client that a spec cannot say. Embed NoHooks and override what you need.
type Hooks interface {
	// DecodeEntry adjusts one server after the generic decoding; entry is
	// its object in the file.
	DecodeEntry(c *Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics
	// FinishDecode checks the document once every server is read.
	FinishDecode(c *Context, doc *jsonedit.Doc, set *canonical.Set) canonical.Diagnostics
	// PrepareEncode rewrites the servers about to be written (the set is a
	// copy the hook may change).
	PrepareEncode(c *Context, want *canonical.Set) canonical.Diagnostics
	// FinishEncode edits the document outside the server map once the
	// servers are written; doc holds the result so far.
	FinishEncode(c *Context, doc *jsonedit.Doc) canonical.Diagnostics
}

// NoHooks is a client without quirks.
type NoHooks struct{}

// DecodeEntry implements Hooks.
func (NoHooks) DecodeEntry(*Context, jsonedit.Node, *canonical.Server) canonical.Diagnostics {
	return nil
}

// FinishDecode implements Hooks.
func (NoHooks) FinishDecode(*Context, *jsonedit.Doc, *canonical.Set) canonical.Diagnostics {
	return nil
}

// PrepareEncode implements Hooks.
func (NoHooks) PrepareEncode(*Context, *canonical.Set) canonical.Diagnostics { return nil }

// FinishEncode implements Hooks.
func (NoHooks) FinishEncode(*Context, *jsonedit.Doc) canonical.Diagnostics { return nil }
