// Package yamledit edits one section of a YAML file (Continue's mcpServers
// list, Goose's extensions map) while keeping every other byte: comments,
// key order, quoting, blank lines, indentation, CRLF line endings.
//
// go.yaml.in/yaml/v3 parses the file into nodes that carry line and column;
// the extent of a block entry is then read from the lines themselves (an
// entry runs while lines are indented deeper than its key or dash). Edits
// splice those byte ranges: an unchanged entry is not touched; inside a
// changed one only the keys whose value changed are rewritten (a scalar in
// place, keeping the comment after it), keys that went are removed and new
// ones appended in the file's own indentation. New text is rendered by
// yaml.v3 with the indentation and sequence style detected in the file.
//
// Every result is parsed again and compared with what was asked for and,
// outside the section, with the file before the edit; when they differ the
// edit is refused rather than written.
package yamledit
