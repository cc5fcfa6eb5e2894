package engine

import (
	"os"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/parallel"
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
	// Each file is read and decoded side by side with the others, through
	// the decode memo (a file unchanged since the last run is read from the
	// parse cache): one after the other and each decoded again, five
	// project files of 10,000 servers took a quarter of a second.
	decodes := e.decodes(nil)
	all := reg.All()
	var out []ClientInfo
	type job struct{ client, loc int }
	var jobs []job
	for _, ad := range all {
		c := ClientInfo{ID: ad.ID(), Name: ad.DisplayName(), Origin: reg.Origin(ad.ID()), Capabilities: ad.Capabilities()}
		for _, loc := range formats.Locate(ad, env) {
			c.Locations = append(c.Locations, ClientFile{Location: loc})
			jobs = append(jobs, job{len(out), len(c.Locations) - 1})
		}
		out = append(out, c)
	}
	parallel.Each(len(jobs), func(i int) {
		ad, l := all[jobs[i].client], &out[jobs[i].client].Locations[jobs[i].loc]
		l.read(ad, env, decodes)
	})
	return out
}

// read fills in whether the file exists and what it holds.
func (l *ClientFile) read(ad formats.Adapter, env formats.Env, decodes *emitters.DecodeMemo) {
	loc := l.Location
	if env.Exists != nil && !env.Exists(loc.Path) {
		return // another machine's paths, only shown
	}
	data, _, err := safefile.ReadFile(loc.Path, loc.Root)
	switch {
	case err == nil:
		l.Exists = true
		set, ds := decodes.Decode(ad, loc, data)
		if errs := ds.WithFile(loc.Path).Errors(); len(errs) > 0 {
			l.Error = errs[0].Error()
		} else {
			n := set.Len()
			l.Servers = &n
		}
	case !os.IsNotExist(err):
		l.Exists = true
		l.Error = err.Error()
	}
}
