package reconcile

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// Synthetic clients for the pure merge: what each can express.
//
//   - full:    everything but other clients' keys
//   - nocwd:   no cwd (Claude Code)
//   - noflag:  no disabled flag: a disabled server cannot be held at all (Cursor)
func viewFor(id string) func(fields) (fields, bool) {
	return func(f fields) (fields, bool) {
		out := fields{}
		for k, v := range f {
			if strings.HasPrefix(k, extraPrefix) && k != extraPrefix+id {
				continue
			}
			if id == "nocwd" && k == "cwd" {
				continue
			}
			out[k] = v
		}
		if id == "noflag" && out["disabled"] == "true" {
			return nil, false
		}
		return out, true
	}
}

func storeSide(cur fields) sideIn {
	s := sideIn{ID: StoreSide, Store: true, View: func(f fields) (fields, bool) { return f, true }}
	if cur != nil {
		s.Present, s.Cur = true, cur
	}
	return s
}

// client builds a client side; cur and ref are given as the base would be
// and are put through the client's view, as a real file read back is.
func client(id string, cur, ref fields, managed bool) sideIn {
	s := sideIn{ID: id, View: viewFor(id), Managed: managed}
	if cur != nil {
		s.Cur, s.Present = s.View(cur)
	}
	if ref != nil {
		s.Ref, s.HasRef = s.View(ref)
	}
	return s
}

func with(f fields, kv ...string) fields {
	out := f.clone()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(out, kv[i])
		} else {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

var base = fields{"transport": "stdio", "command": "npx", "args": `["-y","srv"]`, "cwd": "/w", "env/TOKEN": "${TOKEN}"}

func acts(t *testing.T, in mergeIn, out mergeOut) []action {
	t.Helper()
	var got []action
	for _, a := range decide(in, out, in.Take >= 0) {
		got = append(got, a.Act)
	}
	return got
}

func TestMergeWithBase(t *testing.T) {
	edited := with(base, "args", `["-y","srv","--v"]`)
	for _, tt := range []struct {
		name    string
		sides   []sideIn
		verdict verdict
		del     bool
		winner  fields
		acts    []action
	}{
		{"nothing changed", []sideIn{storeSide(base), client("full", base, base, true), client("nocwd", base, base, true)},
			settled, false, base, []action{keep, keep, keep}},
		{"the store changed", []sideIn{storeSide(edited), client("full", base, base, true), client("nocwd", base, base, true)},
			settled, false, edited, []action{keep, put, put}},
		{"a lossy client changed; what it cannot express stays", []sideIn{storeSide(base), client("full", base, base, true),
			client("nocwd", edited, base, true)}, settled, false, edited, []action{put, put, keep}},
		{"two clients made the same change", []sideIn{storeSide(base), client("full", edited, base, true),
			client("nocwd", edited, base, true)}, settled, false, edited, []action{put, keep, keep}},
		{"two clients changed it differently", []sideIn{storeSide(base), client("full", edited, base, true),
			client("nocwd", with(base, "command", "bunx"), base, true)}, conflict, false, nil, []action{keep, keep, keep}},
		{"the store and a client changed different fields", []sideIn{storeSide(with(base, "cwd", "/x")),
			client("full", edited, base, true)}, conflict, false, nil, []action{keep, keep}},
		{"removed in the store", []sideIn{storeSide(nil), client("full", base, base, true), client("nocwd", base, base, false)},
			settled, true, nil, []action{keep, remove, leave}},
		{"removed in the store, edited in a client", []sideIn{storeSide(nil), client("full", edited, base, true)},
			conflict, false, nil, []action{keep, keep}},
		{"removed in a client", []sideIn{storeSide(base), client("full", nil, base, true), client("nocwd", base, base, true)},
			settled, true, nil, []action{remove, keep, remove}},
		{"a client never synced agrees", []sideIn{storeSide(base), client("nocwd", base, nil, false)},
			settled, false, base, []action{keep, keep}},
		{"a client never synced has its own version", []sideIn{storeSide(base), client("full", edited, nil, false)},
			conflict, false, nil, []action{keep, keep}},
		{"a client never synced that lacks it gets it", []sideIn{storeSide(base), client("full", nil, nil, false)},
			settled, false, base, []action{keep, put}},
		{"a client's own keys are not a version of its own", []sideIn{storeSide(base),
			client("full", with(base, "extra/full", `{"envFile":".env"}`), nil, false)}, settled, false, base, []action{keep, keep}},
		{"removed in the store; an entry never synced stays", []sideIn{storeSide(nil), client("full", edited, nil, false),
			client("nocwd", base, base, true)}, settled, true, nil, []action{keep, leave, remove}},
		{"disabled in the store: a client without the flag loses the entry mcpsync wrote",
			[]sideIn{storeSide(with(base, "disabled", "true")), client("noflag", base, base, true), client("full", base, base, true)},
			settled, false, with(base, "disabled", "true"), []action{keep, remove, put}},
		{"a fresh store does not remove anything", []sideIn{{ID: StoreSide, Store: true, Fresh: true,
			View: func(f fields) (fields, bool) { return f, true }}, client("full", base, base, true)},
			settled, false, base, []action{put, keep}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := mergeIn{Kind: hasBase, Base: base, Sides: tt.sides, Take: -1}
			out := merge(in)
			if out.Verdict != tt.verdict || out.Del != tt.del {
				t.Fatalf("verdict %d del %v, want %d del %v (cands %+v)", out.Verdict, out.Del, tt.verdict, tt.del, out.Cands)
			}
			if tt.winner != nil && !out.Winner.equal(tt.winner) {
				t.Errorf("winner\n%v\nwant\n%v", out.Winner, tt.winner)
			}
			if got := acts(t, in, out); !slices.Equal(got, tt.acts) {
				t.Errorf("actions %v, want %v", got, tt.acts)
			}
		})
	}
}

func TestMergeExpandedReferenceIsNotAnEdit(t *testing.T) {
	expanded := with(base, "env/TOKEN", "ghp_0123456789abcdef", "args", `["-y","/home/me/srv"]`)
	ref := with(base, "args", `["-y","${HOME}/srv"]`)
	in := mergeIn{Kind: hasBase, Base: ref, Take: -1, Sides: []sideIn{storeSide(ref), client("full", expanded, ref, true)}}
	out := merge(in)
	if out.Verdict != settled || !out.Winner.equal(ref) {
		t.Fatalf("verdict %d winner %v", out.Verdict, out.Winner)
	}
	if got := acts(t, in, out); !slices.Equal(got, []action{keep, keep}) {
		t.Errorf("the expanded entry must be left alone: %v", got)
	}
	var fieldsSeen []string
	for _, x := range out.Exps[1] {
		fieldsSeen = append(fieldsSeen, x.Field)
	}
	if !slices.Equal(fieldsSeen, []string{"args[1]", "env/TOKEN"}) {
		t.Errorf("expansions %v", out.Exps[1])
	}
	// A real edit next to an expansion is taken, without the literal.
	both := with(expanded, "command", "bunx")
	in.Sides[1] = client("full", both, ref, true)
	out = merge(in)
	if want := with(ref, "command", "bunx"); out.Verdict != settled || !out.Winner.equal(want) {
		t.Fatalf("winner %v, want %v", out.Winner, want)
	}
	// resolve --take store writes the reference back over the literal.
	in.Sides[1] = client("full", expanded, ref, true)
	in.Take = 0
	out = merge(in)
	if got := acts(t, in, out); !slices.Equal(got, []action{keep, put}) {
		t.Errorf("take store: %v", got)
	}
}

func TestMergeWithoutBase(t *testing.T) {
	for _, tt := range []struct {
		name    string
		kind    baseKind
		sides   []sideIn
		verdict verdict
		del     bool
		winner  fields
		acts    []action
	}{
		{"nobody has it", noBase, []sideIn{storeSide(nil), client("full", nil, nil, false)}, nothing, false, nil, []action{keep, keep}},
		{"added in a client", noBase, []sideIn{storeSide(nil), client("full", base, nil, false), client("nocwd", nil, nil, false)},
			settled, false, base, []action{put, keep, put}},
		{"the lossy client agrees with the richer one", noBase, []sideIn{storeSide(nil), client("nocwd", base, nil, false),
			client("full", base, nil, false)}, settled, false, base, []action{put, keep, keep}},
		{"store and client disagree", noBase, []sideIn{storeSide(base), client("full", with(base, "command", "bunx"), nil, false)},
			conflict, false, nil, []action{keep, keep}},
		{"still removed; clients catch up", deletedBase, []sideIn{storeSide(nil), client("full", base, base, true),
			client("nocwd", base, nil, false)}, settled, true, nil, []action{keep, remove, leave}},
		{"re-added after a removal", deletedBase, []sideIn{storeSide(nil), client("full", with(base, "command", "bunx"), base, false)},
			settled, false, with(base, "command", "bunx"), []action{put, keep}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := mergeIn{Kind: tt.kind, Base: base, Sides: tt.sides, Take: -1}
			out := merge(in)
			if out.Verdict != tt.verdict || out.Del != tt.del {
				t.Fatalf("verdict %d del %v, want %d del %v", out.Verdict, out.Del, tt.verdict, tt.del)
			}
			if tt.winner != nil && !out.Winner.equal(tt.winner) {
				t.Errorf("winner\n%v\nwant\n%v", out.Winner, tt.winner)
			}
			if got := acts(t, in, out); !slices.Equal(got, tt.acts) {
				t.Errorf("actions %v, want %v", got, tt.acts)
			}
		})
	}
}

func TestMergeTake(t *testing.T) {
	edited := with(base, "args", `["-y","srv","--v"]`)
	other := with(base, "command", "bunx")
	sides := []sideIn{storeSide(base), client("full", edited, base, true), client("nocwd", other, base, true)}
	for i, want := range []fields{base, edited, other} {
		in := mergeIn{Kind: hasBase, Base: base, Sides: sides, Take: i}
		out := merge(in)
		if out.Verdict != settled || !out.Winner.equal(want) {
			t.Errorf("take %s: verdict %d winner %v", sides[i].ID, out.Verdict, out.Winner)
		}
	}
	// A client that never had it has no version to take.
	in := mergeIn{Kind: noBase, Sides: []sideIn{storeSide(base), client("full", nil, nil, false)}, Take: 1}
	if out := merge(in); out.Err == "" {
		t.Errorf("taking a side without a version: no error")
	}
}

func TestFieldsRoundTrip(t *testing.T) {
	f := fields{"transport": "http", "url": "https://x/mcp", "headers/Authorization": "Bearer ${T}", "env/EMPTY": "",
		"toolsAllow": `["a","b"]`, "startupTimeout": "30s", "disabled": "true", "oauth": `{"clientId":"c"}`,
		"extra/cursor": `{"envFile":".env"}`}
	got := fieldsOf(f.server("x"))
	if !maps.Equal(got, f) {
		t.Errorf("round trip\n got %v\nwant %v", got, f)
	}
}

// TestMergeConvergesAfterTakeWithExpansion is a case FuzzMerge found: a
// client holding its own keys and a literal where it once had a reference,
// after resolve --take store. Its memory must become its entry with the
// reference, so that the next sync sees no edit and writes nothing.
func TestMergeConvergesAfterTakeWithExpansion(t *testing.T) {
	storeVersion := fields{"transport": "stdio", "command": "ghp_0123456789", "env/OTHER": "ghp_0123456789"}
	clientVersion := with(storeVersion, "extra/full", `{"envFile":".env"}`)
	ref := fields{"transport": "stdio", "command": "npx", "env/OTHER": `${HOME}/srv`}
	for _, take := range []int{-1, 0} {
		in := mergeIn{Kind: deletedBase, Base: ref, Take: take,
			Sides: []sideIn{storeSide(storeVersion), client("full", clientVersion, ref, false)}}
		out := merge(in)
		if out.Verdict != settled {
			t.Fatalf("take %d: verdict %d", take, out.Verdict)
		}
		next := applyOutcome(t, in, out, decide(in, out, take >= 0))
		again := merge(next)
		for i, a := range decide(next, again, false) {
			if again.Verdict != settled || a.Act == put || a.Act == remove {
				t.Errorf("take %d: the next sync is not a no-op: verdict %d, side %s action %d", take, again.Verdict, next.Sides[i].ID, a.Act)
			}
		}
	}
}

func TestOutcomeLine(t *testing.T) {
	for _, tt := range []struct {
		o    Outcome
		want string
	}{
		{Outcome{Server: "gh", Action: "changed", From: []string{"cursor"}, To: []string{"store", "codex"}},
			"gh: changed in cursor -> store, codex"},
		{Outcome{Server: "gh", Action: "copied", To: []string{"opencode"}}, "gh: copied from store -> opencode"},
		{Outcome{Server: "gh", Action: "removed", Removed: []string{"codex"}}, "gh: removed -> codex (catching up with an earlier sync)"},
		{Outcome{Server: "gh", Action: "removed", From: []string{"store"}, Removed: []string{"cursor"}, Kept: []string{"vscode"}},
			"gh: removed in store -> cursor; kept in vscode (an entry mcpsync did not write; remove it by hand if you no longer want it)"},
		{Outcome{Server: "gh", Action: "disabled", From: []string{"store"}, To: []string{"codex"}, Removed: []string{"cursor"}},
			"gh: disabled in store -> codex; removed from cursor (it has no way to turn a server off)"},
		{Outcome{Server: "gh", Action: "resolved", From: []string{"vscode"}, To: []string{"store"}},
			"gh: resolved with the version of vscode -> store"},
	} {
		if got := tt.o.Line(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
