package engine

import (
	"os"

	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/safefile"
)

// ClientInfo is a client mcpsync knows and its files on this machine.
type ClientInfo struct {
	ID           string               `json:"id"`
	Name         string               `json:"name"`
	Origin       formats.Origin       `json:"origin"`
	Capabilities formats.Capabilities `json:"capabilities"`
	Locations    []ClientFile         `json:"locations"`
}

// ClientFile is one file of a client: whether it exists, how many servers
// it holds, or why it cannot be read.
type ClientFile struct {
	formats.Location
	Exists  bool   `json:"exists"`
	Servers *int   `json:"servers,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Clients reads every location of every client (without writing).
func (e *Engine) Clients(goos, home string) []ClientInfo {
	if goos == "" {
		goos = e.GOOS
	}
	reg, env := e.Registry(), e.FormatsEnv(goos, home, nil)
	// Every client is shown: their specs are parsed side by side first
	// instead of one after the other as each is reached.
	formats.Prepare(reg.All())
	var out []ClientInfo
	for _, ad := range reg.All() {
		c := ClientInfo{ID: ad.ID(), Name: ad.DisplayName(), Origin: reg.Origin(ad.ID()), Capabilities: ad.Capabilities()}
		for _, loc := range formats.Locate(ad, env) {
			l := ClientFile{Location: loc}
			if env.Exists != nil && !env.Exists(loc.Path) {
				// another machine's paths, only shown
			} else if data, _, err := safefile.ReadFile(loc.Path, loc.Root); err == nil {
				l.Exists = true
				set, ds := ad.Decode(loc, data)
				if errs := ds.WithFile(loc.Path).Errors(); len(errs) > 0 {
					l.Error = errs[0].Error()
				} else {
					n := set.Len()
					l.Servers = &n
				}
			} else if !os.IsNotExist(err) {
				l.Exists = true
				l.Error = err.Error()
			}
			c.Locations = append(c.Locations, l)
		}
		out = append(out, c)
	}
	return out
}
