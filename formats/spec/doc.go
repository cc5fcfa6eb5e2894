// Package spec describes a JSON-family client declaratively and turns the
// description into a formats.Adapter.
//
// Most clients are "a JSON object under a wrapper key, with slightly
// different field names". A spec says which: where the files are per OS and
// scope, the path to the server map, the spelling of every field, of every
// transport and of placeholders, and what a url without a type means. The
// built-in clients are specs embedded in the binary (builtin/*.hcl, printed
// by mcpsync clients --spec ID); a user adds a client by dropping the same
// kind of file into $XDG_CONFIG_HOME/mcpsync/clients.d. Go code is left for
// real quirks, through Hooks. The built-in specs are decoded ahead into
// builtin_gen.go (see generated.go): after changing one, run
// go test ./formats/spec -run TestBuiltinGenIsCurrent -update.
//
// # The format
//
// A file holds one or more client blocks. display_name, format, servers, a
// fields block, a location and a transport are required; the rest is optional.
//
//	client "my-editor" {                  # id: lowercase letters, digits, hyphens
//	  display_name     = "My Editor"
//	  format           = "jsonc"          # json (strict) | jsonc (comments, trailing commas)
//	                                      # | json-comments (comments, no trailing commas)
//	  placeholders     = "env-colon"      # what the client expands: none, dollar (${VAR},
//	                                      # ${VAR:-d}), shell ($VAR too), shell-no-default,
//	                                      # braced (${VAR} only),
//	                                      # env-colon (${env:VAR}), vscode (+ ${input:id}),
//	                                      # brace-env ({env:VAR}), continue
//	  servers          = ["mcpServers"]   # names from the top to the server map; one
//	                                      # name may hold dots: ["amp.mcpServers"]
//	  url_without_type = "auto"           # http | sse | auto (the client detects; read as
//	                                      # http) | invalid (the client skips the server)
//	  type_required    = false            # true: an entry without a type is skipped
//	  windows_cmd      = true             # write npx-style commands as cmd /c npx ... for
//	                                      # a Windows target (the client spawns without a shell)
//	  key_order        = ["type", "command", "args"]  # keys of a new entry, first
//	  aliases          = ["myed"]         # other names --to and --from accept
//	  also_read_by     = ["My Editor's web app"]  # others reading its files as it does
//	  precedence       = ["project", "user"]  # the client's documented winner when a
//	                                      # name is in several scopes, first wins
//	  precedence_note  = "My Editor's project file wins on a name clash"
//
//	  approved_references {               # the client expands only the variables
//	    path = "${home}/.my-editor/settings.json"  # listed in a setting of its own
//	    key  = "myEditor.approvedEnvVars" # flat dotted member or nested objects
//	    how  = "approve it in My Editor's settings"
//	  }                                   # export and doctor warn about the others
//
//	  command_values {                    # values the client runs as a shell command
//	    prefix  = "!"                     # for their value: "!op read ..."
//	    literal = "$!"                    # how a literal prefix is spelled
//	    fields  = ["env", "headers"]      # model fields: env, headers, oauth.clientSecret, ...
//	  }                                   # such entries are not imported
//
//	  server_names {                      # the only server names the client takes;
//	    pattern = "^[A-Za-z0-9_-]+$"      # others are not written, with a warning
//	    rule    = "letters, digits, _ and -"
//	  }
//
//	  replaced_remotely {                 # while key is at the top of a file, the client
//	    key = "cloudDevice"               # replaces its servers with ones from elsewhere
//	    why = "My Editor replaces its servers with your account's while \"cloudDevice\" is set"
//	  }                                   # sync leaves such a file out; export warns
//
//	  location "user" {                   # scope: user | project | local | managed
//	    os          = ["linux", "darwin"] # default: every OS
//	    path        = "${env("MY_EDITOR_HOME", "${home}/.my-editor")}/mcp.json"
//	    servers     = ["mcp", "servers"]  # this file's server map, when it differs
//	    format      = "jsonc"             # this file's syntax, when it differs
//	    read_only   = true                # read, never written (managed, legacy)
//	    alternative = true                # written instead of the scope's usual file
//	                                      # when only this one exists
//	    note        = "why it is read-only"
//	  }
//
//	  fields {                            # the client's key for each part; leave out
//	    type            = "type"          # what the client does not have
//	    command         = "command"
//	    command_array   = false           # true: command is [program, args...]
//	    args            = "args"
//	    env             = "env"
//	    cwd             = "cwd"
//	    url             = "url"
//	    url_aliases     = ["serverUrl"]   # also read as the url
//	    headers         = "headers"
//	    enabled         = "enabled"       # or disabled = "disabled"
//	    tools_allow     = "includeTools"
//	    tools_deny      = "excludeTools"
//	    startup_timeout = "startupTimeout"
//	    tool_timeout    = "timeout"
//	    timeout_unit    = "ms"            # ms | s
//	  }
//
//	  transport "stdio" {}                # the transports the client runs
//	  transport "http" {
//	    type          = "http"            # written in the type field ("" writes none)
//	    write_type    = true              # false: accepted but not written
//	    aliases       = ["streamable-http"]  # other spellings read as this transport
//	    url_key       = "httpUrl"         # the key of the url for this transport
//	    read_url_keys = ["httpUrl"]       # keys whose presence means this transport
//	  }
//	  transport "sse" { type = "sse" }
//
//	  oauth {                             # static OAuth client settings
//	    key              = "oauth"
//	    client_id        = "clientId"
//	    client_secret    = "clientSecret"
//	    scopes           = "scopes"
//	    scopes_as_string = false          # true: one space-separated string
//	    callback_port    = "callbackPort"
//	    redirect_uri     = "redirectUri"
//	    auth_server_metadata_url = "authServerMetadataUrl"
//	    resource         = "resource"
//	  }
//
//	  new_file {                          # a file mcpsync creates
//	    schema        = "https://..."     # written first as "$schema"
//	    final_newline = true
//	    indent        = "  "
//	  }
//	}
//
// Paths may use home, project (a location using it exists only inside a
// project), config_home ($XDG_CONFIG_HOME, else ~/.config), appdata
// (%APPDATA%, else ~/AppData/Roaming), os, and env("NAME", default).
// Capabilities are derived from the fields and transports, so they cannot
// contradict them. quirks = "name" asks for Go hooks, which only a built-in
// client can have.
//
// # What every spec-driven adapter does
//
// Decode maps each entry into a canonical.Server: known keys into the
// model, every other key into Extra[client id] verbatim; placeholders are read
// in the client's syntax (a spelling the client would not expand is still a
// reference, with a warning); an entry the client itself would skip is a
// warning at its line and column, is not imported, and is never touched by
// Encode unless the wanted set replaces it by name. Encode leaves an entry
// that already means the wanted server byte for byte, edits a changed one key
// by key, removes entries no longer wanted, appends new ones, and warns,
// naming server and field, for whatever the client cannot express.
package spec
