package engine

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// ConvertOptions say what to convert: Data, one client's file (Name is
// what diagnostics call it), into another client's shape.
type ConvertOptions struct {
	From, To string
	// Scope is which of the clients' files the shapes are those of.
	Scope canonical.Scope
	// GOOS is the machine the output is for (default: this one).
	GOOS                       string
	Data                       []byte
	Name                       string
	BridgeRemote, PromptInputs bool
}

// Converted is a converted file: its bytes, and where To keeps such a file.
type Converted struct {
	Client string
	Path   string
	Format formats.Format
	Data   []byte
	// Diags are the warnings of reading and writing (a field To cannot
	// hold); with errors, Data is nil.
	Diags canonical.Diagnostics
}

// Convert reads o.Data as o.From reads it and writes it as o.To would. It
// writes no file. A client name that is not one is a UsageError.
func (e *Engine) Convert(o ConvertOptions) (*Converted, error) {
	reg := e.Registry()
	from, err := reg.Lookup(o.From)
	if err != nil {
		return nil, UsageError{Err: err}
	}
	to, err := reg.Lookup(o.To)
	if err != nil {
		return nil, UsageError{Err: err}
	}
	goos := o.GOOS
	if goos == "" {
		goos = e.GOOS
	}
	env := e.FormatsEnv(goos, "", nil)
	inLoc := formats.ShapeLocation(from, env, o.Scope)
	inLoc.Path = o.Name
	set, ds := from.Decode(inLoc, o.Data)
	ds = ds.WithFile(o.Name)
	if ds.HasErrors() {
		return &Converted{Client: to.ID(), Diags: ds}, nil
	}
	outLoc := formats.ShapeLocation(to, env, o.Scope)
	c := &Converted{Client: to.ID(), Path: outLoc.Path, Format: outLoc.Format}
	outLoc.Path = "<stdout>"
	out, eds := to.Encode(outLoc, nil, set, formats.EncodeOptions{OS: goos, BridgeRemote: o.BridgeRemote, PromptInputs: o.PromptInputs})
	c.Diags = append(ds, eds...)
	c.Diags.Sort()
	if !eds.HasErrors() {
		c.Data = out
	}
	return c, nil
}
