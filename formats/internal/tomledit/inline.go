package tomledit

import (
	"strings"
)

// inlineEdit collects the changes to a section written as one inline
// table (section = { a = {...}, b = {...} }) and applies them together.
type inlineEdit struct {
	dels     map[string]bool
	replaced map[string]Table
	added    []Entry
}

func (in *inlineEdit) del(name string) {
	if in.dels == nil {
		in.dels = map[string]bool{}
	}
	in.dels[name] = true
}

func (in *inlineEdit) replace(name string, t Table) {
	if in.replaced == nil {
		in.replaced = map[string]Table{}
	}
	in.replaced[name] = t
}

func (in *inlineEdit) add(name string, t Table) { in.added = append(in.added, Entry{name, t}) }

// flushInline turns the collected inline changes into patches. When entries
// are only replaced, each value is patched where it is; otherwise the
// members are written again between the braces, unchanged ones verbatim.
func (e *editor) flushInline() {
	kv, in := e.inlineSection, &e.inline
	if kv == nil || (len(in.dels) == 0 && len(in.replaced) == 0 && len(in.added) == 0) {
		return
	}
	simple := len(in.dels) == 0 && len(in.added) == 0
	if simple {
		count := map[string]int{}
		for _, m := range kv.members {
			count[m.key[0]]++
		}
		for _, m := range kv.members {
			if _, ok := in.replaced[m.key[0]]; ok && (len(m.key) != 1 || count[m.key[0]] != 1) {
				simple = false
			}
		}
	}
	if simple {
		for _, m := range kv.members {
			if t, ok := in.replaced[m.key[0]]; ok {
				e.replace(m.vstart, m.vend, RenderValue(t))
			}
		}
		return
	}
	var parts []string
	done := map[string]bool{}
	for _, m := range kv.members {
		name := m.key[0]
		switch {
		case in.dels[name] || done[name]:
		case in.replaced[name] != nil:
			parts = append(parts, RenderKey(name)+" = "+RenderValue(in.replaced[name]))
			done[name] = true
		default:
			if _, ok := in.replaced[name]; ok { // replaced by an empty table
				parts = append(parts, RenderKey(name)+" = {}")
				done[name] = true
				continue
			}
			parts = append(parts, string(e.src[m.start:m.end]))
		}
	}
	for _, a := range in.added {
		parts = append(parts, RenderKey(a.Name)+" = "+RenderValue(a.Value))
	}
	text := "{}"
	if len(parts) > 0 {
		text = "{ " + strings.Join(parts, ", ") + " }"
	}
	e.replace(kv.open, kv.closeOff+1, text)
}
