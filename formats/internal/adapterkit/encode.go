package adapterkit

import "github.com/mcpsync/mcpsync/canonical"

// LayoutRisk is the Detail of an edit the editor could not prove right: the
// file is fine, but laid out in a way the editor does not handle safely.
const LayoutRisk = "nothing was written; the file's layout is one mcpsync cannot edit without risk"

// A SectionEdit writes the servers a client is given as the entries of the
// section of its file that holds them. E is the entry type of the file's
// syntax (tomledit.Entry, yamledit.Entry).
//
// The steps are the same for every client: a name given twice is an
// error; a server the file holds unchanged keeps its entry as the file has
// it; only what is written must be valid (an entry the file already holds
// is kept even when it could not work, as the client accepts it); and
// nothing is written when anything is wrong. What differs between clients
// is given in the fields.
type SectionEdit[E any] struct {
	Warnings *Warnings
	Client   string        // the client's ID: which Extra SameServer compares
	Have     canonical.Set // what the file holds now
	// Pinned are entries the section keeps whatever the servers given
	// (Goose's own extensions); they come first.
	Pinned []E
	// Duplicate is the Detail of the error for a name given twice.
	Duplicate string
	// Refuse, when set, warns about a server the client cannot take at all
	// and returns that warning; nil when it can. A refused server is not
	// written and the entry the file has by its name, if any, stays as it
	// is. It is asked only after an unchanged server was kept, so that an
	// entry the client no longer runs (Goose's sse) is given back without a
	// word when nothing asks to change it.
	Refuse func(srv canonical.Server) *canonical.Diagnostic
	// Keep returns the file's entry for name, as the file has it.
	Keep func(name string) E
	// Render returns the entry for srv; old is what the file holds under
	// that name, nil for a new server.
	Render func(srv canonical.Server, old *canonical.Server) E
	// Edit returns the file with entries as the whole section.
	Edit func(entries []E) ([]byte, error)
	// FileName names the file in messages when it has no path (it came on
	// stdin): "config.toml".
	FileName string
	// Unverified is the editor's error for an edit it could not prove
	// right; Risk is the Detail of the error then.
	Unverified error
	Risk       string
}

// Run returns data edited to hold the servers of want, with the warnings;
// on any error it returns data unchanged with the diagnostics: nothing is
// written.
func (s *SectionEdit[E]) Run(data []byte, want canonical.Set) ([]byte, canonical.Diagnostics) {
	w := s.Warnings
	entries := append([]E(nil), s.Pinned...)
	var invalid canonical.Diagnostics
	seen := map[string]bool{}
	for _, srv := range want.Servers {
		if seen[srv.Name] {
			d := canonical.Errorf("duplicate server name %q", srv.Name)
			d.Detail, d.Server = s.Duplicate, srv.Name
			invalid = append(invalid, d.At(srv.Origin))
			continue
		}
		seen[srv.Name] = true
		srv = srv.Clone()
		srv.Normalize()
		old, hasOld := s.Have.Get(srv.Name)
		if hasOld && SameServer(old, srv, s.Client) {
			entries = append(entries, s.Keep(srv.Name))
			continue
		}
		if s.Refuse != nil {
			if d := s.Refuse(srv); d != nil {
				if hasOld {
					d.Detail += "; the entry already in the file is left as it is"
					entries = append(entries, s.Keep(srv.Name))
				}
				continue
			}
		}
		// Only what is written must be valid: an entry the file already
		// holds is kept even when it could not work (the client accepts it).
		if vds := srv.Validate(); vds.HasErrors() {
			invalid = append(invalid, vds...)
			continue
		}
		var oldp *canonical.Server
		if hasOld {
			oldp = &old
		}
		entries = append(entries, s.Render(srv, oldp))
	}
	if invalid.HasErrors() {
		return data, append(w.Diags, invalid...)
	}
	out, err := s.Edit(entries)
	if err != nil {
		return data, append(w.Diags, EditRefused(w.File, s.FileName, err, s.Unverified, s.Risk))
	}
	return out, w.Diags
}
