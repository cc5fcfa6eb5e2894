package formats

import "strings"

// extraEffects are the client-only keys (kept verbatim in Server.Extra for
// the client whose file had them) that change what the server does or how
// it is reached, by what they change. A server exported to another client
// loses them, and the user is told (see ExtraEffect). Keys that only touch
// their client's own UI or approvals (description, icons, alwaysAllow,
// autoApprove, trust, notes) are not here: losing them changes nothing the
// server does, and other clients are not told.
var extraEffects = map[string]string{
	"headershelper":        "its auth headers (a command that prints them)",
	"auth":                 "its authentication",
	"oauth":                "its authentication",
	"authprovidertype":     "its authentication",
	"bearer_token_env_var": "its authentication",
	"cwd":                  "the folder it starts in",
	"workingdirectory":     "the folder it starts in",
	"envfile":              "environment variables read from a file",
	"env_file":             "environment variables read from a file",
	"env":                  "its environment variables",
	"headers":              "its HTTP headers",
	"timeout":              "its timeouts",
	"timeout_ms":           "its timeouts",
	"startup_timeout_sec":  "its timeouts",
	"startup_timeout_ms":   "its timeouts",
	"tool_timeout_sec":     "its timeouts",
	"inittimeout":          "its timeouts",
	"retry_attempts":       "how often it is retried",
	"tools":                "which of its tools are offered",
	"includetools":         "which of its tools are offered",
	"excludetools":         "which of its tools are offered",
	"enabled_tools":        "which of its tools are offered",
	"disabled_tools":       "which of its tools are offered",
	"allowedtools":         "which of its tools are offered",
	"disabledtools":        "which of its tools are offered",
	"sandbox":              "the sandbox it runs in",
}

// ExtraEffect says what a client-only key kept in Extra changes about the
// server ("its auth headers (a command that prints them)"), or "" for a
// key that touches only its own client's UI.
func ExtraEffect(key string) string { return extraEffects[strings.ToLower(key)] }
