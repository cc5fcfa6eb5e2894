package engine

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/registry"
)

// RegistryBuildOptions say what a static registry publishes.
type RegistryBuildOptions struct {
	// Source limits it to one team source's approved servers.
	Source string
	// Namespace is the reverse-DNS prefix of every name (com.example).
	Namespace string
	// Version is every server's version (default 1.0.0).
	Version string
	// Now stamps publishedAt (default: now).
	Now time.Time
}

// RegistryBuild is a static registry laid out as files.
type RegistryBuild struct {
	Files map[string][]byte
	// Published are the registry names; Skipped says which servers a
	// registry cannot describe, and why.
	Published []string
	Skipped   []string
}

// BuildRegistry describes the servers as server.json documents named
// NAMESPACE/name (a team source's servers without the source's prefix)
// and lays them out as the v0.1 API's files.
func (e *Engine) BuildRegistry(o RegistryBuildOptions) (*RegistryBuild, error) {
	if why := registry.CheckNamespace(o.Namespace); why != "" {
		return nil, Usagef("%s", why)
	}
	if o.Version == "" {
		o.Version = "1.0.0"
	}
	if o.Now.IsZero() {
		o.Now = time.Now().UTC().Truncate(time.Second)
	}
	servers, fromSource, err := e.listedServers(o.Source)
	if err != nil {
		return nil, err
	}
	b := &RegistryBuild{}
	var rs []registry.ServerResponse
	seen := map[string]string{}
	for _, s := range servers {
		short := s.Name
		if src := fromSource[s.Name]; src != "" {
			short = strings.TrimPrefix(short, src+"-")
		}
		name := registry.Name(o.Namespace, short)
		if other, dup := seen[name]; dup {
			b.Skipped = append(b.Skipped, fmt.Sprintf("server %q: its registry name %s is %q's already", s.Name, name, other))
			continue
		}
		sj, err := registry.ServerJSON(s, name, o.Version)
		if err != nil {
			b.Skipped = append(b.Skipped, err.Error())
			continue
		}
		seen[name] = s.Name
		rs = append(rs, registry.Response(sj, o.Now))
		b.Published = append(b.Published, name)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("no server can be published: %s", strings.Join(b.Skipped, "; "))
	}
	sort.Strings(b.Published)
	b.Files = registry.Files(rs)
	return b, nil
}
