package paste

import "bytes"

// syntax is what a paste is written in, judged from its first significant bytes.
type syntax int

const (
	synEmpty    syntax = iota
	synJSON            // an object or an array, JSON or JSONC
	synFragment        // `"name": {…}` members without the outer braces
	synTOML            // a Codex config.toml or a piece of it
	synYAML            // `key: value`, `- item` or `---`: Continue's and Goose's files
)

// detect looks past a byte-order mark, blank space and comments at the first
// significant byte and returns the syntax and that byte's offset.
func detect(data []byte) (syntax, int) {
	i := skipInsignificant(data, 0)
	if i >= len(data) {
		return synEmpty, i
	}
	switch c := data[i]; {
	case c == '{':
		return synJSON, i
	case c == '[':
		j := skipSpace(data, i+1)
		if j < len(data) && (data[j] == '{' || data[j] == ']') {
			return synJSON, i
		}
		return synTOML, i // [mcp_servers.x], [[array]], ["quoted"]
	case c == '"':
		j := skipSpace(data, endOfString(data, i))
		if j < len(data) && (data[j] == '=' || data[j] == '.') {
			return synTOML, i // "quoted key" = value
		}
		return synFragment, i
	case c == '\'':
		return synTOML, i
	case c == '-' && (i+1 == len(data) || data[i+1] == ' ' || data[i+1] == '\n' || bytes.HasPrefix(data[i:], []byte("---"))):
		return synYAML, i // a list item, or a document start
	case isBareKeyByte(c):
		j := i
		for j < len(data) && (isBareKeyByte(data[j]) || data[j] == '.' || data[j] == ' ' || data[j] == '\t') {
			j++
		}
		if j < len(data) && data[j] == '=' {
			return synTOML, i
		}
		if j < len(data) && data[j] == ':' {
			return synYAML, i
		}
	}
	return synJSON, i // whatever it is, the JSON reader says where it goes wrong
}

var bom = []byte("\xef\xbb\xbf")

// skipInsignificant skips a BOM, white space and //, /* */ and # comments.
func skipInsignificant(data []byte, i int) int {
	if i == 0 && bytes.HasPrefix(data, bom) {
		i = len(bom)
	}
	for {
		i = skipSpace(data, i)
		switch {
		case i >= len(data):
			return i
		case data[i] == '#' || bytes.HasPrefix(data[i:], []byte("//")):
			nl := bytes.IndexByte(data[i:], '\n')
			if nl < 0 {
				return len(data)
			}
			i += nl + 1
		case bytes.HasPrefix(data[i:], []byte("/*")):
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return i // unterminated: let the parser report it
			}
			i += 2 + end + 2
		default:
			return i
		}
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// endOfString returns the offset after the double-quoted string at data[i].
func endOfString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		case '\n':
			return j
		}
	}
	return len(data)
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// maxDepth bounds how deeply arrays and objects may nest. The parsers
// recurse, and no MCP configuration comes near this.
const maxDepth = 256

// tooDeep returns the offset where brackets nest deeper than maxDepth, or
// -1. Brackets inside double-quoted strings do not count.
func tooDeep(data []byte) int {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = endOfString(data, i) - 1
		case '{', '[':
			if depth++; depth > maxDepth {
				return i
			}
		case '}', ']':
			depth--
		}
	}
	return -1
}
