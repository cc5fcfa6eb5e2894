// Package registry publishes servers as a static MCP registry: the v0.1
// read API of the official registry as plain files that any static web
// host serves, and a server for them (Serve) for local use and tests.
// Each server becomes a server.json document that the resolver (and any
// registry client) turns back into the same command: npx, uvx, docker and
// dnx commands as packages, hosted servers as remotes, ${VAR} references
// as {VAR} inputs.
package registry

import (
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/resolve"
)

// SchemaURL is the server.json schema the documents declare.
const SchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

var (
	namespaceRE = lazyre.New(`^[a-zA-Z0-9.-]+$`)
	nameChar    = lazyre.New(`[^a-zA-Z0-9._-]`)
)

// Name is the registry name of a server: NAMESPACE/name, with characters
// the registry's pattern does not take replaced.
func Name(namespace, server string) string {
	return namespace + "/" + strings.Trim(nameChar.Get().ReplaceAllString(server, "-"), "-.")
}

// CheckNamespace says what is wrong with a namespace ("" when nothing).
func CheckNamespace(ns string) string {
	if !namespaceRE.Get().MatchString(ns) || !strings.Contains(ns, ".") {
		return fmt.Sprintf("namespace %q: use a reverse-DNS name you own, such as com.example or io.github.acme", ns)
	}
	return ""
}

// ServerJSON describes srv as a server.json document named name at
// version. A server the registry cannot describe (a program that is no
// package) is an error saying so.
func ServerJSON(srv canonical.Server, name, version string) (*resolve.ServerJSON, error) {
	sj := &resolve.ServerJSON{Schema: SchemaURL, Name: name, Version: version,
		Description: describe(srv)}
	if srv.Transport.IsRemote() {
		t, err := remote(srv)
		if err != nil {
			return nil, err
		}
		sj.Remotes = []resolve.Transport{t}
		return sj, nil
	}
	p, err := pkg(srv)
	if err != nil {
		return nil, err
	}
	p.Transport = resolve.Transport{Type: "stdio"}
	p.EnvironmentVariables = envInputs(srv.Env)
	sj.Packages = []resolve.Package{p}
	return sj, nil
}

func describe(s canonical.Server) string {
	d := s.Name + " MCP server"
	if s.Transport.IsRemote() {
		d += " at " + hostOf(s.URL)
	}
	if len(d) > 100 {
		d = d[:100]
	}
	return d
}

func hostOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexByte(u, '/'); i >= 0 {
		u = u[:i]
	}
	return u
}

func remote(s canonical.Server) (resolve.Transport, error) {
	typ := "streamable-http"
	if s.Transport == canonical.SSE {
		typ = "sse"
	}
	vars := map[string]resolve.InputDef{}
	t := resolve.Transport{Type: typ, URL: template(s.URL, vars)}
	for _, k := range mapkeys.Sorted(s.Headers) {
		hv := map[string]resolve.InputDef{}
		in := resolve.KeyValueInput{Name: k, InputDef: resolve.InputDef{Value: template(s.Headers[k], hv)}}
		if len(hv) > 0 {
			in.Variables = hv
			in.IsRequired = true
			for _, v := range hv {
				in.IsSecret = in.IsSecret || v.IsSecret
			}
			in.IsSecret = in.IsSecret || secrets.SecretName(k) || strings.EqualFold(k, "Authorization")
		}
		t.Headers = append(t.Headers, in)
	}
	if len(vars) > 0 {
		t.Variables = vars
	}
	return t, nil
}

// template spells a canonical value as a server.json template: ${VAR}
// becomes {VAR}, described in vars.
func template(v string, vars map[string]resolve.InputDef) string {
	var b strings.Builder
	for _, seg := range canonical.Parse(v, canonical.DialectCanonical) {
		if seg.Kind != canonical.EnvRef {
			b.WriteString(seg.Text)
			continue
		}
		b.WriteString("{" + seg.Name + "}")
		in := resolve.InputDef{IsRequired: !seg.HasDefault, IsSecret: secrets.SecretName(seg.Name)}
		if seg.HasDefault {
			in.Default = seg.Default
		}
		vars[seg.Name] = in
	}
	return b.String()
}

// envInputs describes a server's environment: a reference to a variable of
// the same name is an input the user gives (required, secret by its
// name); anything else is a fixed value, with {VAR} for its references.
func envInputs(env map[string]string) []resolve.KeyValueInput {
	var out []resolve.KeyValueInput
	for _, k := range mapkeys.Sorted(env) {
		v := env[k]
		t := canonical.Parse(v, canonical.DialectCanonical)
		if len(t) == 1 && t[0].Kind == canonical.EnvRef && t[0].Name == k {
			in := resolve.KeyValueInput{Name: k, InputDef: resolve.InputDef{IsRequired: !t[0].HasDefault,
				IsSecret: secrets.SecretName(k), Default: t[0].Default}}
			out = append(out, in)
			continue
		}
		vars := map[string]resolve.InputDef{}
		in := resolve.KeyValueInput{Name: k, InputDef: resolve.InputDef{Value: template(v, vars)}}
		if len(vars) > 0 {
			in.Variables = vars
		}
		out = append(out, in)
	}
	return out
}

// pkg reads the package a command runs: npx -y PKG[@V] ARGS, uvx
// PKG[==V] ARGS, docker run FLAGS IMAGE ARGS, dnx PKG[@V] --yes [-- ARGS].
func pkg(s canonical.Server) (resolve.Package, error) {
	args := s.Args
	fixed := func(list []string) []resolve.Argument {
		var out []resolve.Argument
		for _, a := range list {
			vars := map[string]resolve.InputDef{}
			arg := resolve.Argument{Type: "positional", InputDef: resolve.InputDef{Value: template(a, vars)}}
			if len(vars) > 0 {
				arg.Variables = vars
			}
			out = append(out, arg)
		}
		return out
	}
	base := strings.ToLower(s.Command)
	switch base {
	case "npx":
		i := 0
		for i < len(args) && (args[i] == "-y" || args[i] == "--yes") {
			i++
		}
		if i >= len(args) || strings.HasPrefix(args[i], "-") {
			return resolve.Package{}, cannot(s, "npx runs no plain package name")
		}
		id, ver := splitVersion(args[i], "@")
		return resolve.Package{RegistryType: "npm", Identifier: id, Version: ver, PackageArguments: fixed(args[i+1:])}, nil
	case "uvx":
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return resolve.Package{}, cannot(s, "uvx runs no plain package name")
		}
		id, ver := splitVersion(args[0], "==")
		return resolve.Package{RegistryType: "pypi", Identifier: id, Version: ver, PackageArguments: fixed(args[1:])}, nil
	case "dnx":
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return resolve.Package{}, cannot(s, "dnx runs no plain package name")
		}
		id, ver := splitVersion(args[0], "@")
		rest := args[1:]
		if len(rest) > 0 && rest[0] == "--yes" {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		return resolve.Package{RegistryType: "nuget", Identifier: id, Version: ver, PackageArguments: fixed(rest)}, nil
	case "docker":
		if len(args) == 0 || args[0] != "run" {
			return resolve.Package{}, cannot(s, "docker does not run an image here")
		}
		var runtime []string
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-i" || a == "--rm" || a == "-it" || a == "--interactive":
			case a == "-e" || a == "--env":
				if i+1 < len(args) {
					if _, ok := s.Env[strings.SplitN(args[i+1], "=", 2)[0]]; !ok {
						runtime = append(runtime, a, args[i+1])
					}
					i++
				}
			case strings.HasPrefix(a, "-"):
				runtime = append(runtime, a)
				if (a == "-v" || a == "--volume" || a == "--mount" || a == "-p" || a == "--network" || a == "-w" || a == "--user" || a == "-u") && i+1 < len(args) {
					runtime = append(runtime, args[i+1])
					i++
				}
			default:
				p := resolve.Package{RegistryType: "oci", Identifier: a, PackageArguments: fixed(args[i+1:])}
				if len(runtime) > 0 {
					p.RuntimeHint, p.RuntimeArguments = "docker", fixed(runtime)
				}
				return p, nil
			}
		}
		return resolve.Package{}, cannot(s, "docker run names no image")
	}
	return resolve.Package{}, cannot(s, s.Command+" is not a package runner (npx, uvx, docker, dnx)")
}

func cannot(s canonical.Server, why string) error {
	return fmt.Errorf("server %q cannot be published: %s; a registry describes packages (npm, PyPI, OCI, NuGet) and hosted servers", s.Name, why)
}

// splitVersion splits pkg@1.2.3 (or pkg==1.2.3): a scope's @ is no version.
func splitVersion(id, sep string) (string, string) {
	i := strings.LastIndex(id, sep)
	if i <= 0 || sep == "@" && strings.HasPrefix(id, "@") && strings.Count(id, "@") == 1 {
		return id, ""
	}
	return id[:i], id[i+len(sep):]
}
