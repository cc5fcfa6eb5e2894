package spec

import "github.com/mcpsync/mcpsync/canonical"

// refMemo keeps, for one Encode or one Decode, what each value with a
// reference in it was rendered to, so that a value said by many servers
// is parsed and rendered once. A file's servers say the same few
// references over and over ("Bearer ${TOKEN}" in every remote server's
// headers): in an export of 10,000 such servers to four clients, parsing
// and rendering them again for each server was about 5 % of the CPU.
//
// A value renders the same in every field that expands references in the
// spec's dialect, and in every field that expands none (Spec.expands);
// that and the value are the key. What depends on the field (its name in
// a warning) is made by the caller from what the memo returns, as before.
// The zero value is ready; it is not safe for concurrent use (each Encode
// and Decode has its own).
type refMemo struct {
	m map[refKey]refResult
}

// refMemoCap is how many values the memo keeps at most; values past it are
// rendered each time. A file's servers say a few references many times
// (the same token in every server's headers), or each a reference of its
// own (plan200's servers: no value twice). Keeping all of those made each
// of the plan's 42 encodes and decodes keep a map of every value
// (BenchmarkPlanExport200 allocated 3 MB more).
const refMemoCap = 16

type refKey struct {
	expands bool
	v       string
}

// refResult is what a value renders to. For an encode: out, the value in
// the client's spelling, and probs, what the dialect cannot say. For a
// decode: out, the value in the canonical spelling, and foreign, the
// references the client does not expand. For a value whose "$" or "{"
// makes no reference, out is the value itself.
type refResult struct {
	out     string
	probs   []canonical.RenderProblem
	foreign []canonical.Segment
}

// get returns the memo's result for (expands, v), made by render on the
// first call. The result's slices are shared by every later call: callers
// only read them. A nil memo keeps nothing.
func (m *refMemo) get(expands bool, v string, render func() refResult) refResult {
	if m == nil {
		return render()
	}
	k := refKey{expands, v}
	if r, ok := m.m[k]; ok {
		return r
	}
	r := render()
	if len(m.m) < refMemoCap {
		if m.m == nil {
			m.m = make(map[refKey]refResult, refMemoCap)
		}
		m.m[k] = r
	}
	return r
}
