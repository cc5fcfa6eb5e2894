package render

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/termsafe"
	"github.com/mcpsync/mcpsync/probe"
)

// stateLook is how a state is shown: a symbol and a colour.
var stateLook = map[probe.State]struct{ symbol, style string }{
	probe.Ready:    {"✓", Green},
	probe.Degraded: {"!", Yellow},
	probe.Failed:   {"✗", Red},
	probe.Skipped:  {"-", Dim},
}

// ProbeReport writes the table, then what went wrong with each server
// that is not ready, then a summary line.
func ProbeReport(w io.Writer, rep probe.Report, servers []canonical.Server, o Paths) {
	tw := NewTable(w, o.Color)
	fmt.Fprintln(tw, Style(o.Color).Paint(Bold, "  SERVER\tSTATE\tTRANSPORT\tPROTOCOL\tTOOLS\tLATENCY\tDETAIL"))
	for _, r := range rep.Results {
		look := stateLook[r.State]
		tools, latency := "-", "-"
		if r.State == probe.Ready || r.State == probe.Degraded {
			tools = fmt.Sprint(len(r.Tools))
		}
		if len(r.Attempts) > 0 {
			latency = formatLatency(r.Latency)
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\t%s\t%s\t%s\n", Style(o.Color).Paint(look.style, look.symbol), r.Server,
			Style(o.Color).Paint(look.style, string(r.State)), r.Transport, protocolLabel(r), tools, latency, probeDetail(r))
	}
	tw.Flush()

	for _, r := range rep.Results {
		if r.State != probe.Failed && r.State != probe.Degraded {
			continue
		}
		fmt.Fprintln(w)
		head := r.Server
		if i := slices.IndexFunc(servers, func(s canonical.Server) bool { return s.Name == r.Server }); i >= 0 && servers[i].Origin.File != "" {
			pos := servers[i].Origin
			pos.File = o.show(pos.File)
			head += " (" + pos.String() + ")"
		}
		fmt.Fprintf(w, "%s: %s\n", Style(o.Color).Paint(Bold, head), Style(o.Color).Paint(stateLook[r.State].style, string(r.Category)))
		if r.Target != "" {
			fmt.Fprintf(w, "  %s: %s\n", targetLabel(r.Transport), r.Target)
		}
		if r.Message != "" {
			fmt.Fprintf(w, "  %s\n", r.Message)
		}
		if len(r.Attempts) > 1 {
			fmt.Fprintf(w, "  tried %d times\n", len(r.Attempts))
		}
		for _, l := range r.StderrTail {
			fmt.Fprintf(w, "  %s %s\n", Style(o.Color).Paint(Dim, "stderr |"), l)
		}
		if r.Card != nil {
			fmt.Fprintf(w, "  server card: %s\n", termsafe.Escape(cardLine(*r.Card), false))
		}
		if r.Hint != "" {
			fmt.Fprintf(w, "  hint: %s\n", r.Hint)
		}
	}

	s := rep.Summary
	fmt.Fprintf(w, "\n%d server%s: %d ready, %d degraded, %d failed, %d skipped (%s)\n",
		s.Total, plural(s.Total), s.Ready, s.Degraded, s.Failed, s.Skipped, formatLatency(rep.Elapsed))
}

// protocolLabel is the MCP revision the server spoke: 2026-07-28+ is the
// stateless protocol (server/discover, no session), earlier ones the
// initialize handshake.
func protocolLabel(r probe.Result) string {
	switch {
	case r.Protocol == "":
		return "-"
	case r.Stateless:
		return r.Protocol + " stateless"
	}
	return r.Protocol
}

// cardLine says what a server's card says of it: who it is and which
// protocol revisions it speaks, which is what a failed connection cannot.
func cardLine(c probe.Card) string {
	s := c.Name
	if c.Version != "" {
		s += " " + c.Version
	}
	if len(c.ProtocolVersions) > 0 {
		s += ", speaks MCP " + strings.Join(c.ProtocolVersions, ", ")
	}
	return s + " (" + c.URL + ")"
}

func targetLabel(t canonical.Transport) string {
	if t.IsRemote() {
		return "url"
	}
	return "command"
}

// probeDetail is the table's last column: the tools of a ready server, or
// the category of a problem.
func probeDetail(r probe.Result) string {
	switch r.State {
	case probe.Ready:
		return clip(strings.Join(r.Tools, ", "), 60)
	case probe.Degraded:
		return "missing " + strings.Join(r.MissingTools, ", ")
	case probe.Skipped:
		return strings.ReplaceAll(string(r.Category), "_", " ")
	}
	d := string(r.Category)
	switch {
	case r.ExitCode != nil:
		d += fmt.Sprintf(" (exit code %d)", *r.ExitCode)
	case r.HTTPStatus != 0:
		d += fmt.Sprintf(" (HTTP %d)", r.HTTPStatus)
	case len(r.MissingEnv) > 0:
		d += " (" + strings.Join(r.MissingEnv, ", ") + ")"
	}
	return d
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// formatLatency rounds for people: 840ms, 1.2s, 2m3s.
func formatLatency(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
