package sources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/paste"
	"github.com/mcpsync/mcpsync/store"
)

// Limits on what a source may hold; a checkout bigger than this is not a
// list of MCP servers.
const (
	maxFileSize = 1 << 20
	maxFiles    = 1000
)

// Read reads the servers a source's checkout offers under rel (the source's
// path): the mcpsync.hcl there (only server blocks), or else every *.json
// file there, one server each, named by the file name (github.json is the
// server "github"). rel may also name one .hcl or .json file. Symbolic
// links are refused, so that a source cannot make mcpsync read a file
// outside its checkout.
//
// The servers keep the names the source gives them; every problem, and
// every value the no-secrets rule refuses (see checkServer), is an error
// with file:line:col.
func Read(root, rel string) (canonical.Set, canonical.Diagnostics) {
	at := canonical.Pos{File: root}
	if why := checkRelPath(rel); why != "" {
		d := canonical.Errorf("path %q %s", rel, why)
		d.Detail = `give a directory (or a file) inside the repository, such as "mcp/"`
		return canonical.Set{}, canonical.Diagnostics{d.At(at)}
	}
	full, err := insideNoLinks(root, rel)
	if err != nil {
		d := canonical.Errorf("%v", err)
		d.Detail = "check the source's path against the repository's files"
		return canonical.Set{}, canonical.Diagnostics{d.At(at)}
	}
	fi, err := os.Lstat(full)
	if err != nil {
		d := canonical.Errorf("the repository has no %s", displayRel(rel))
		d.Detail = "check the source's path: it names a directory (or one file) of the repository"
		return canonical.Set{}, canonical.Diagnostics{d.At(at)}
	}
	if !fi.IsDir() {
		return readFiles([]string{full})
	}
	hcl := filepath.Join(full, store.FileName)
	if _, err := os.Lstat(hcl); err == nil {
		return readFiles([]string{hcl})
	}
	entries, err := os.ReadDir(full)
	if err != nil {
		d := canonical.Errorf("cannot list %s: %v", displayRel(rel), err)
		return canonical.Set{}, canonical.Diagnostics{d.At(canonical.Pos{File: full})}
	}
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			files = append(files, filepath.Join(full, e.Name()))
		}
	}
	if len(files) == 0 {
		d := canonical.Errorf("%s holds no %s and no JSON server file", displayRel(rel), store.FileName)
		d.Detail = "a source holds an mcpsync.hcl with server blocks, or one NAME.json file per server"
		return canonical.Set{}, canonical.Diagnostics{d.At(canonical.Pos{File: full})}
	}
	if len(files) > maxFiles {
		d := canonical.Errorf("%s holds %d JSON files; a source may hold at most %d servers", displayRel(rel), len(files), maxFiles)
		return canonical.Set{}, canonical.Diagnostics{d.At(canonical.Pos{File: full})}
	}
	sort.Strings(files)
	return readFiles(files)
}

func displayRel(rel string) string {
	if rel == "" || rel == "." {
		return "repository root"
	}
	return rel
}

// checkRelPath returns why rel cannot be a path inside a repository, or "".
func checkRelPath(rel string) string {
	switch {
	case filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`):
		return "is absolute"
	case rel == ".." || strings.HasPrefix(filepath.ToSlash(filepath.Clean(rel)), "../"):
		return "leaves the repository"
	}
	return ""
}

// insideNoLinks joins rel to root and refuses any symbolic link on the way.
func insideNoLinks(root, rel string) (string, error) {
	cur := root
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/") {
		if part == "" || part == "." {
			continue
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return cur, nil // reported by the caller
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%s is a symbolic link; a source may not hold links", rel)
		}
	}
	return cur, nil
}

func readFiles(files []string) (canonical.Set, canonical.Diagnostics) {
	var set canonical.Set
	var ds canonical.Diagnostics
	for _, file := range files {
		data, err := readRegular(file)
		if err != nil {
			d := canonical.Errorf("%v", err)
			d.Detail = "a source holds regular files only (no links), each at most 1 MiB"
			ds = append(ds, d.At(canonical.Pos{File: file}))
			continue
		}
		var got canonical.Set
		var fds canonical.Diagnostics
		if strings.HasSuffix(file, ".json") {
			got, fds = ReadJSON(file, data)
		} else {
			got, fds = ReadHCL(file, data)
		}
		ds = append(ds, fds...)
		set.Servers = append(set.Servers, got.Servers...)
	}
	ds.Sort()
	if ds.HasErrors() {
		return canonical.Set{}, ds
	}
	return set, ds
}

func readRegular(file string) ([]byte, error) {
	fi, err := os.Lstat(file)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", filepath.Base(file), fi.Mode().Type())
	}
	if fi.Size() > maxFileSize {
		return nil, fmt.Errorf("%s is %d bytes, more than a server list needs", filepath.Base(file), fi.Size())
	}
	return os.ReadFile(file)
}

// ReadHCL reads a source's mcpsync.hcl: server blocks only (a source may
// not carry client rules, resolvers or further sources), names that every
// client accepts, and no secrets.
func ReadHCL(file string, data []byte) (canonical.Set, canonical.Diagnostics) {
	st, ds := store.Parse(file, data)
	if ds.HasErrors() {
		return canonical.Set{}, ds
	}
	only := func(kind, name string, at canonical.Pos) {
		d := canonical.Errorf("a source holds server blocks only, not %s %q", kind, name)
		d.Detail = "client rules, resolvers and sources belong in each developer's own store; remove this block from the source"
		ds = append(ds, d.At(at))
	}
	for _, name := range mapkeys.Sorted(st.Clients) {
		only("client", name, st.Clients[name].Pos)
	}
	for _, r := range st.Resolvers {
		only("resolver", r.Name, r.Pos)
	}
	for _, s := range st.Sources {
		only("source", s.Name, s.Pos)
	}
	ds = append(ds, checkSet(st.Servers, hclLocator(file, data), true)...)
	if ds.HasErrors() {
		return canonical.Set{}, ds
	}
	return st.Servers, ds
}

// ReadJSON reads one server from NAME.json: a server object in any
// client's spelling, such as {"type": "http", "url": …, "headers": {…}} or
// {"command": …, "args": […], "env": {…}}.
func ReadJSON(file string, data []byte) (canonical.Set, canonical.Diagnostics) {
	name := strings.TrimSuffix(filepath.Base(file), ".json")
	if why := checkServerName(name); why != "" {
		d := canonical.Errorf("the file name %q %s", filepath.Base(file), why)
		d.Detail = "the file name is the server's name; rename the file to letters, digits, - and _ followed by .json"
		return canonical.Set{}, canonical.Diagnostics{d.At(canonical.Pos{File: file, Line: 1, Column: 1})}
	}
	set, ds := paste.Parse(data, paste.Options{File: file, Name: name})
	if ds.HasErrors() {
		return canonical.Set{}, ds
	}
	ds = append(ds, checkSet(set, jsonLocator(file, data), false)...)
	if ds.HasErrors() {
		return canonical.Set{}, ds
	}
	return set, ds
}

// checkSet applies the naming and no-secrets rules to every server.
func checkSet(set canonical.Set, locate locator, hcl bool) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, srv := range set.Servers {
		if why := checkServerName(srv.Name); why != "" {
			d := canonical.Errorf("the server name %q %s", srv.Name, why)
			d.Detail = "clients such as Claude Code accept letters, digits, - and _ only; rename the server in the source"
			d.Server, d.Field = srv.Name, "name"
			ds = append(ds, d.At(srv.Origin))
		}
		for _, f := range checkServer(srv) {
			summary := f.reason // the detector's findings name their field
			switch {
			case f.field == "oauth.client_secret":
				summary = "oauth client_secret " + f.reason
			case f.variable != "":
				summary = f.field + " " + f.key + " " + f.reason
			}
			d := canonical.Errorf("%s", summary)
			d.Detail = f.hintFor(hcl)
			d.Server, d.Field = srv.Name, f.field
			ds = append(ds, d.At(locate(srv.Name, f)))
		}
	}
	return ds
}
