// Package tomledit edits one section of a TOML file (Codex's mcp_servers)
// while keeping every other byte: comments, key order, blank lines, quoting,
// CRLF line endings, a final newline or its absence, a byte-order mark.
//
// A file is decoded twice. BurntSushi/toml decodes values and reports syntax
// errors with line and column; the go-toml/v2 `unstable` parser is used only
// to find where each table header and key/value sits, so that edits are
// splices of the affected bytes instead of a re-serialisation of the file.
//
// Edits are key by key: an entry whose value did not change is not touched;
// inside a changed entry, only keys whose value changed are rewritten (in
// place, keeping the comment at the end of their line) and keys that
// disappeared are removed. Every result is decoded again and compared with
// what was asked for, and with everything outside the section before the
// edit; when the two differ the edit is refused rather than written.
package tomledit
