// Package reconcile is two-way sync: a three-way merge, per server, between
// what mcpsync last synced (the base), the store, and every client file of
// a scope. A server added, changed, disabled or removed on one side goes to
// the store and to every other client the store's rules allow it for; the
// same server changed differently on two sides is a conflict, reported with
// every version and left alone on every side until 'mcpsync resolve'
// settles it. The other servers still sync.
//
// # Sides
//
// The store, and one section per client of the scope whose file exists and
// holds something (or whose client the user named: its file is created).
// A missing or empty client file is not read as "every server removed": it
// takes no part, so an uninstalled editor or a file caught half-written
// never empties the others. Likewise a missing or empty store is filled
// again from the others (to remove every server, leave a comment in it, or
// use 'mcpsync remove').
//
// # What counts as a change
//
// A client's entry is compared with what that client held at its last
// sync (the sync's own record, or what an export wrote there, whichever is
// newer), never with the store's definition, so fields the client cannot
// express (a cwd for Claude Code, a default in ${VAR:-x} for Qwen, the
// client-specific keys of other clients) never look like edits. An edit is
// taken field by field onto the base: the fields the client cannot
// express keep the base's value.
//
// A client entry that mcpsync has never synced is compared with the base
// as that client would hold it (the base encoded into an empty file and
// read back). Equal, it is in step; different, it is the client's own
// version and a conflict, never silently taken over or overwritten.
//
// A reference that a client replaced by its literal value (Gemini CLI and
// Qwen Code save the expanded values of every other server when they add
// one) is not an edit: the value is usually a secret. It is reported,
// masked, and neither copied elsewhere nor overwritten in that client.
//
// Rewrites that do not change what a client holds (OpenCode adding
// "$schema", Claude Code dropping unknown top-level keys, "env": {}) are
// not changes, so there is no ping-pong between mcpsync and a client.
//
// # Removals
//
// A server removed on one side and unchanged elsewhere is removed from the
// store and from every client file where mcpsync wrote it. An entry
// mcpsync did not write stays (and is named in the outcome); a sync
// remembers it so that it does not bring the server back. Removed on one
// side and edited on another is a conflict.
//
// # No base yet
//
// A server never synced goes everywhere when every side that holds it
// agrees (each as it can express it); otherwise it is a conflict.
//
// # Team sources
//
// Servers of the store's team sources (Options.Desired) take no part in the
// merge: only the source changes them (pull, approve). Clients get the
// approved version as export writes it; the store never gets them, and
// their absence from it is not a removal; a client's edit of one, its own
// entry of that name, or an entry of a server still pending approval is
// reported and left alone; resolve --take refuses them. The base records
// the source, so that a server that leaves its source (or whose source
// leaves the store, even leaving the store empty) is removed like any
// server removed from the store.
//
// # Writing
//
// Plan returns an emitters.Plan that also edits the store: it prints as
// the same git-style diff as export, and emitters.Apply writes it all or
// nothing, with the drift check and backups. After a successful apply,
// Result.Record updates the state (bases, each client's record, removals
// and open conflicts).
package reconcile
