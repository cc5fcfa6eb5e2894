package probe

import (
	"fmt"
	"strings"
)

// ParseRequirement reads one --require-tools value, "NAME=tool1,tool2":
// the server NAME must offer tool1 and tool2. Spaces around names are
// ignored; empty tool names are an error, as is a missing NAME or "=".
func ParseRequirement(s string) (server string, tools []string, err error) {
	name, list, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", nil, fmt.Errorf("--require-tools %q: want NAME=tool1,tool2 (for example github=create_issue,search_code)", s)
	}
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			return "", nil, fmt.Errorf("--require-tools %q: empty tool name; list tools separated by single commas", s)
		}
		tools = append(tools, t)
	}
	return name, tools, nil
}

// ParseRequirements reads every --require-tools value (ParseRequirement)
// into one map: a server named twice requires the tools of both.
func ParseRequirements(specs []string) (map[string][]string, error) {
	require := map[string][]string{}
	for _, spec := range specs {
		name, tools, err := ParseRequirement(spec)
		if err != nil {
			return nil, err
		}
		require[name] = append(require[name], tools...)
	}
	return require, nil
}
