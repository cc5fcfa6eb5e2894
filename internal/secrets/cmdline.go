package secrets

import "strings"

// valueFlags are the flags whose every value is secret by where it stands,
// whatever it looks like: a header's value, an environment variable's.
var valueFlags = map[string]string{"--header": ":", "-H": ":", "--env": "=", "-e": "="}

// MaskCommandLine is a command line as backups, the state lock and
// restore --list record it, shell-quoted: the value of every --header and
// --env masked (the name kept, and the references in it), and every other
// secret-looking value too. After "--" the words are the server's own
// command line, masked only where they look secret.
func MaskCommandLine(args []string) string {
	quoted := make([]string, len(args))
	sep, command := "", false
	for i, arg := range args {
		switch {
		case command:
			// the server's own command line: its flags are not ours
		case arg == "--":
			sep, command = "", true
		case sep != "":
			arg, sep = maskFlagValue(arg, sep), ""
		default:
			flag, value, inline := strings.Cut(arg, "=")
			if s, ok := valueFlags[flag]; ok {
				if inline {
					arg = flag + "=" + maskFlagValue(value, s)
				} else {
					sep = s
				}
			}
		}
		if arg == "" || strings.ContainsAny(arg, " \t'\"") {
			arg = "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
		}
		quoted[i] = arg
	}
	return MaskLine(strings.Join(quoted, " "))
}

// maskFlagValue masks the value of "NAME: value" or "NAME=value".
func maskFlagValue(arg, sep string) string {
	name, value, ok := strings.Cut(arg, sep)
	if !ok {
		return MaskLiterals(arg)
	}
	lead := value[:len(value)-len(strings.TrimLeft(value, " "))]
	if value = strings.TrimLeft(value, " "); value == "" {
		return arg
	}
	return name + sep + lead + MaskLiterals(value)
}
