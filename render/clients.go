package render

import (
	"fmt"
	"io"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
)

// Clients writes the table of clients and their files; root is this
// project, whose local section is "this project".
func Clients(w io.Writer, list []engine.ClientInfo, root string, o Paths) {
	tw := NewTable(w, o.Color)
	fmt.Fprintln(tw, Style(o.Color).Paint(Bold, "CLIENT\tNAME\tSCOPE\tFILE\tSTATUS"))
	for _, c := range list {
		name := c.Name
		if !c.Origin.Builtin {
			name += " (plugin " + o.show(c.Origin.File) + ")"
		}
		for i, l := range c.Locations {
			id, shown := c.ID, name
			if i > 0 {
				id, shown = "", ""
			}
			file := o.show(l.Path)
			if l.Project != "" && l.Scope == canonical.ScopeLocal {
				project := o.show(l.Project)
				if l.Project == root {
					project = "this project"
				}
				file += " [" + project + "]"
			}
			status := Style(o.Color).Paint(Dim, "missing")
			switch {
			case l.Error != "":
				status = Style(o.Color).Paint(Red, "unreadable: "+l.Error)
			case l.Servers != nil:
				status = fmt.Sprintf("%d server(s)", *l.Servers)
			}
			if l.ReadOnly {
				status += ", read-only"
			}
			if l.Note != "" {
				status += " (" + l.Note + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", id, shown, l.Scope, file, status)
		}
		if len(c.Locations) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\tno file on this OS\n", c.ID, name)
		}
	}
	tw.Flush()
}
