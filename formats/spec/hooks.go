package spec

import (
	"encoding/json"
	"slices"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
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
	// Carry is what PrepareEncode keeps for FinishEncode: parts of the
	// servers written outside the server map (VS Code's input definitions).
	Carry map[string]json.RawMessage

	// leftAlone are what an EntryViewer said of the entries it skipped.
	leftAlone canonical.Diagnostics
	// refs is what a Decode made of the values with references it read
	// (refMemo).
	refs refMemo
}

// Hooks are a client's Go quirks around the generic adapter: the parts of a
// client that a spec cannot say. Embed NoHooks and override what you need.
type Hooks interface {
	// DecodeEntry adjusts one server after the generic decoding; entry is
	// its object in the file.
	DecodeEntry(c *Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics
	// FinishDecode checks the document once every server is read.
	FinishDecode(c *Context, doc *jsonedit.Doc, set *canonical.Set) canonical.Diagnostics
	// PrepareEncode rewrites the servers about to be written. want.Servers
	// and each server's lists and maps are the caller's: to change a
	// server, give want a list of its own first (slices.Clone, once) and
	// put a clone of the server (canonical.Server.Clone) in its place.
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

// EntryViewer is an optional part of Hooks, for clients whose entries come
// in shapes a spec cannot describe: a nested object holding the transport
// (Cline CLI), a legacy nested command (Zed), or entries that are not
// servers mcpsync manages at all (Zed's extension settings).
type EntryViewer interface {
	// ViewEntry runs before the generic decoding of an entry. It returns
	// the members the generic decoding reads instead of the entry's own
	// (nil: the entry's own). The members are nodes of the file, so every
	// position stays right; a member renamed to a key the spec does not
	// know is kept in Extra under that name. skip == true leaves the entry
	// alone: it is not imported and Encode never touches it unless the
	// wanted set replaces it by name; diags say why, if the user needs to
	// know.
	ViewEntry(c *Context, name string, entry jsonedit.Node) (members []jsonedit.Member, skip bool, diags canonical.Diagnostics)
}

// SideKeys is an optional part of Hooks, for clients whose hooks add keys
// beside the server map for the servers' sake (VS Code's "inputs"): their
// names, in the object that holds the map. The adapter then reports the
// ones an edit added and removes them once empty again
// (formats.SideKeyRemover).
type SideKeys interface {
	SideKeys() []string
}

// EntryEncoder is an optional part of Hooks, for clients whose entries need
// a key the model does not give (Copilot's tools: ["*"]) or a shape of
// their own (Cline CLI's nested transport).
type EntryEncoder interface {
	// EncodeEntry adjusts the entry the generic encoder wrote for s, in
	// e.Fields (keys in the order they are written). old is the entry in
	// the file, not Valid for a new one. A key the hook adds is edited in
	// place with the part of the model its field in the spec belongs to;
	// set e.Replace to write the whole entry as e.Fields instead, which a
	// hook must do when it adds a key the spec does not know.
	EncodeEntry(c *Context, s canonical.Server, old jsonedit.Node, e *EncodedEntry) canonical.Diagnostics
}

// EncodedEntry is one entry as about to be written.
type EncodedEntry struct {
	Fields jsonedit.Object
	// Old is the server the entry in the file decodes to; nil for a new
	// entry.
	Old *canonical.Server
	// Replace writes Fields as the whole entry, instead of editing the
	// entry in the file key by key.
	Replace bool
}

// KeepUnknown appends to e.Fields the keys kept verbatim for the client
// that are not written yet: the wanted server's Extra when it has one for
// the client, else the Extra of the server the entry in the file holds (the
// wanted server then says nothing of the user's other keys, and they stay).
// The generic encoder writes the keys of the model only from the model, so
// a hook that writes an entry whole (EncodedEntry.Replace) calls it to keep
// every key it did not mean to drop.
func KeepUnknown(c *Context, s canonical.Server, e *EncodedEntry) {
	extra, ok := s.Extra[c.Spec.ID]
	if !ok && e.Old != nil {
		extra = e.Old.Extra[c.Spec.ID]
	}
	for _, k := range mapkeys.Sorted(extra) {
		if !slices.ContainsFunc(e.Fields, func(f jsonedit.Field) bool { return f.Key == k }) {
			e.Fields = append(e.Fields, jsonedit.Field{Key: k, Value: extra[k]})
		}
	}
}
