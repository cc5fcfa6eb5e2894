package probe

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"
)

// Limits of the stderr tail kept per server: enough to show why a server
// died, small enough that a chatty server cannot grow the probe's memory.
const (
	tailLines   = 10
	tailLineMax = 300
)

// tailWriter keeps the last lines written to it. It is the stderr of a
// stdio server, written from os/exec's copying goroutine while the probe
// reads it, hence the lock. Memory is bounded: at most tailLines complete
// lines of at most tailLineMax bytes, plus one partial line of the same bound.
type tailWriter struct {
	mu      sync.Mutex
	lines   []string // ring, oldest first once full
	next    int      // ring position of the next line once full
	partial []byte   // the current unfinished line, truncated to tailLineMax
	cut     bool     // partial has been truncated
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := tailLineMax - len(w.partial); room > 0 {
			if len(chunk) > room {
				w.partial = append(w.partial, chunk[:room]...)
				w.cut = true
			} else {
				w.partial = append(w.partial, chunk...)
			}
		} else if len(chunk) > 0 {
			w.cut = true
		}
		if i < 0 {
			break
		}
		w.push(w.finish())
		p = p[i+1:]
	}
	return n, nil
}

// finish turns the partial line into a display line and resets it.
func (w *tailWriter) finish() string {
	line := displayLine(w.partial, w.cut)
	w.partial, w.cut = w.partial[:0], false
	return line
}

// displayLine renders a kept line: no trailing CR, and when it was cut, no
// half UTF-8 sequence at the end and an ellipsis instead.
func displayLine(b []byte, cut bool) string {
	line := strings.TrimRight(string(b), "\r")
	if cut {
		for i := 0; i < utf8.UTFMax-1 && len(line) > 0; i++ {
			if r, size := utf8.DecodeLastRuneInString(line); r != utf8.RuneError || size != 1 {
				break
			}
			line = line[:len(line)-1]
		}
		line += "…"
	}
	return line
}

func (w *tailWriter) push(line string) {
	if len(w.lines) < tailLines {
		w.lines = append(w.lines, line)
		return
	}
	w.lines[w.next] = line
	w.next = (w.next + 1) % tailLines
}

// Lines returns the kept lines, oldest first, including an unfinished last
// line, without leading and trailing blank lines.
func (w *tailWriter) Lines() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.lines)+1)
	out = append(out, w.lines[w.next:]...)
	out = append(out, w.lines[:w.next]...)
	if len(w.partial) > 0 || w.cut {
		out = append(out, displayLine(w.partial, w.cut))
		if len(out) > tailLines {
			out = out[1:]
		}
	}
	for len(out) > 0 && strings.TrimSpace(out[0]) == "" {
		out = out[1:]
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
