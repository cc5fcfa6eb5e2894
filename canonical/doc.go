// Package canonical is the model every client file converts to and from: a
// Server, a Set of servers, placeholder references (${VAR}) and Diagnostics
// that point at file:line:col.
//
// It imports the standard library only, so every other package can depend on
// it without pulling in a parser.
//
// # Secrets are references
//
// A secret is never a value in the model: it is a reference such as
// ${GITHUB_TOKEN} or ${PORT:-8080}. Adapters translate references to and from
// each client's spelling (see Dialect); nothing here expands a reference except
// Template.Expand, which only the probe uses to start a server.
package canonical
