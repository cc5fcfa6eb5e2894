package secrets

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// Realistic-looking tokens, made up for the tests (random characters in
// each provider's format).
const (
	ghToken     = "ghp_R8kq2Lm9Xv4TzW7bN1cP5sD3fG6hJ0aQeY2u"
	openaiKey   = "sk-proj-Zq8Rt3Wm5Kp1Xv9Ls2Dn7Bc4Fh6Jg0Ty"
	anthropic   = "sk-ant-api03-Hx7Kq2Vn9Lm4Rt8Wz1Pc5Sb3Dg6Fj0A"
	slackBot    = "xoxb-2384729384-9823749823-Kq2Vn9Lm4Rt8Wz1Pc5Sb3Dg6"
	awsKeyID    = "AKIAJ7Q2K9X4M3N8P5R6"
	googleKey   = "AIzaSyD8k2Lm9Xv4TzW7bN1cP5sD3fG6hJ0aQeY"
	gitlabToken = "glpat-Xk2Lm9Vn4Tz7Wb1Pc5Sd"
	stripeKey   = "sk_live_51Hx7Kq2Vn9Lm4Rt8Wz1Pc5Sb"
	npmToken    = "npm_Kq2Vn9Lm4Rt8Wz1Pc5Sb3Dg6Fj0AHx7Kq2Vn"
	hfToken     = "hf_Kq2Vn9Lm4Rt8Wz1Pc5Sb3Dg6Fj0AHx7Kq"
	linearKey   = "lin_api_Kq2Vn9Lm4Rt8Wz1Pc5Sb3Dg6Fj0AHx7Kq2Vn"
	jwt         = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	randomValue = "Zk3q9XvB2mLp7RtW4nYc8HsD6fGj"
)

func TestScanFindsKnownTokens(t *testing.T) {
	for _, tc := range []struct {
		value, label, envVar string
		kind                 Kind
	}{
		{ghToken, "GitHub token", "GITHUB_TOKEN", KindKnownToken},
		{"github_pat_11ABCDEFG0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", "GitHub fine-grained token", "GITHUB_TOKEN", KindKnownToken},
		{openaiKey, "OpenAI API key", "OPENAI_API_KEY", KindKnownToken},
		{anthropic, "Anthropic API key", "ANTHROPIC_API_KEY", KindKnownToken},
		{slackBot, "Slack bot token", "SLACK_BOT_TOKEN", KindKnownToken},
		{awsKeyID, "AWS access key id", "AWS_ACCESS_KEY_ID", KindKnownToken},
		{googleKey, "Google API key", "GOOGLE_API_KEY", KindKnownToken},
		{gitlabToken, "GitLab token", "GITLAB_TOKEN", KindKnownToken},
		{stripeKey, "Stripe key", "STRIPE_SECRET_KEY", KindKnownToken},
		{npmToken, "npm token", "NPM_TOKEN", KindKnownToken},
		{hfToken, "Hugging Face token", "HF_TOKEN", KindKnownToken},
		{linearKey, "Linear API key", "LINEAR_API_KEY", KindKnownToken},
		{jwt, "JWT", "", KindJWT},
	} {
		fs := Scan(Field{Place: InArg}, "--x "+tc.value+" y")
		if len(fs) != 1 || fs[0].Kind != tc.kind || fs[0].Label != tc.label || fs[0].EnvVar != tc.envVar || fs[0].Value != tc.value {
			t.Errorf("%s: got %+v", tc.label, fs)
		}
	}
}

func TestScanRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		field Field
		value string
		want  []string // the secrets found, in order
	}{
		{"bearer header", Field{InHeader, "Authorization"}, "Bearer Zk3q9XvB2mLp7RtW", []string{"Zk3q9XvB2mLp7RtW"}},
		{"bearer reference", Field{InHeader, "Authorization"}, "Bearer ${LINEAR_API_KEY}", nil},
		{"bearer built from a reference", Field{InHeader, "Authorization"}, "Bearer acct-2024+${TOKEN}", nil},
		{"bearer holding a token is one secret", Field{InHeader, "Authorization"}, "Bearer acct-2024+" + ghToken, []string{"acct-2024+" + ghToken}},
		{"bearer that is a token stays the token", Field{InHeader, "Authorization"}, "Bearer " + ghToken, []string{ghToken}},
		{"header named", Field{InHeader, "X-Api-Key"}, "abcd1234efgh", []string{"abcd1234efgh"}},
		{"env named", Field{InEnv, "API_KEY"}, "sk-live-123456", []string{"sk-live-123456"}},
		{"env password short", Field{InEnv, "DB_PASSWORD"}, "pgpass", []string{"pgpass"}},
		{"env password placeholder", Field{InEnv, "DB_PASSWORD"}, "<password>", nil},
		{"env token word", Field{InEnv, "GITHUB_TOKEN"}, "optional", nil},
		{"env token placeholder", Field{InEnv, "GITHUB_TOKEN"}, "YOUR_NEW_TOKEN_HERE", nil},
		{"env named after a variable", Field{InEnv, "API_KEY"}, "PERPLEXITY_API_KEY", nil},
		{"bearer variable name", Field{InArg, ""}, "Bearer GITHUB_TOKEN", nil},
		{"bearer upper-case credential", Field{InHeader, "Authorization"}, "Bearer ZK3Q9XVB2MLP7RTW", []string{"ZK3Q9XVB2MLP7RTW"}},
		{"provider placeholder", Field{InEnv, "GITHUB_TOKEN"}, "ghp_your_github_personal_access_token", nil},
		{"slack placeholder", Field{InEnv, "SLACK_BOT_TOKEN"}, "xoxb-your-slack-bot-token", nil},
		{"token count", Field{InEnv, "DEFAULT_MINIMUM_TOKENS"}, "6000", nil},
		{"token dir", Field{InEnv, "TOKEN_INDEX_DIR"}, "/Users/me/Work Projects/token-index", nil},
		{"token file", Field{InEnv, "GOOGLE_TOKEN_FILE"}, "/home/me/token.json", nil},
		{"env var name", Field{InOther, "bearer_token_env_var"}, "MY_TOKEN", nil},
		{"references", Field{InEnv, "GITHUB_TOKEN"}, "${GITHUB_TOKEN}", nil},
		{"env-colon", Field{InEnv, "GITHUB_TOKEN"}, "${env:GITHUB_TOKEN}", nil},
		{"brace-env", Field{InEnv, "GITHUB_TOKEN"}, "{env:GITHUB_TOKEN}", nil},
		{"bare dollar", Field{InEnv, "GITHUB_TOKEN"}, "$GITHUB_TOKEN", nil},
		{"input", Field{InEnv, "GITHUB_TOKEN"}, "${input:github-pat}", nil},
		{"continue", Field{InEnv, "GITHUB_TOKEN"}, "${{ secrets.GITHUB_TOKEN }}", nil},
		{"neutral name random", Field{InEnv, "PROJECT"}, randomValue, []string{randomValue}},
		{"neutral name word", Field{InEnv, "MODE"}, "production-readonly", nil},
		{"uuid is an id", Field{InEnv, "WORKSPACE"}, "3f1c2b9e-8a7d-4c6b-9e5f-1a2b3c4d5e6f", nil},
		{"uuid named", Field{InEnv, "API_KEY"}, "3f1c2b9e-8a7d-4c6b-9e5f-1a2b3c4d5e6f", []string{"3f1c2b9e-8a7d-4c6b-9e5f-1a2b3c4d5e6f"}},
		{"package", Field{InArg, ""}, "@modelcontextprotocol/server-github@2025.4.8", nil},
		{"path", Field{InArg, ""}, "/Users/me/dev/mcp-servers/build/index.js", nil},
		{"docker image", Field{InArg, ""}, "ghcr.io/github/github-mcp-server:v0.31.0", nil},
		{"version", Field{InArg, ""}, "v20250408.1234567", nil},
		{"url plain", Field{InURL, ""}, "https://mcp.linear.app/mcp", nil},
		{"url password", Field{InURL, ""}, "https://me:s3cr3tPass@db.example.com/x", []string{"s3cr3tPass"}},
		{"url query", Field{InURL, ""}, "https://mcp.example.com/sse?api_key=Zk3q9XvB2m&profile=work", []string{"Zk3q9XvB2m"}},
		{"url query reference", Field{InURL, ""}, "https://mcp.example.com/sse?key=${KEY}", nil},
		{"url query holding a url with a password", Field{InURL, ""}, "https://h/sse?token=https://u:s3cr3tPass@x", []string{"https://u:s3cr3tPass@x"}},
		{"url query running into a reference", Field{InURL, ""}, "https://h/sse?key=Zk3q9XvB2m${SUFFIX}", nil},
		{"url password alone stays the finding", Field{InEnv, "DATABASE_URL"}, "postgres://me:s3cr3tPass@db/x", []string{"s3cr3tPass"}},
		{"url query after an ampersand in the user info", Field{InURL, ""}, "https://me:p&w=1@h/sse?api_key=Zk3q9XvB2m", []string{"p&w=1", "Zk3q9XvB2m"}},
		{"url query placeholder", Field{InURL, ""}, "https://mcp.alphavantage.co/mcp?apikey=YOUR_API_KEY", nil},
		{"url path secret", Field{InURL, ""}, "https://mcp.zapier.com/api/mcp/s/" + randomValue + "/mcp", []string{randomValue}},
		{"arg after flag", Field{InArg, "--api-key"}, "abcd1234efgh", []string{"abcd1234efgh"}},
		{"arg assign", Field{InArg, ""}, "--api-key=abcd1234efgh", []string{"abcd1234efgh"}},
		{"arg env assign", Field{InArg, ""}, "API_KEY=abcd1234efgh", []string{"abcd1234efgh"}},
		{"arg header", Field{InArg, ""}, "Authorization: Bearer Zk3q9XvB2mLp7RtW", []string{"Zk3q9XvB2mLp7RtW"}},
		{"arg harmless flag value", Field{InArg, "--port"}, "8080", nil},
		{"hex digest", Field{InArg, ""}, "0123456789abcdef0123456789abcdef", []string{"0123456789abcdef0123456789abcdef"}},
		{"short hex", Field{InArg, ""}, "deadbeef1234", nil},
		{"hashes by name", Field{InEnv, "TRUSTED_CLIENT_SHA256S"}, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", nil},
		{"two tokens", Field{InArg, ""}, ghToken + "," + openaiKey, []string{ghToken, openaiKey}},
		{"token inside a word is still random", Field{InArg, ""}, "xghp_R8kq2Lm9Xv4TzW7bN1cP5sD3fG6hJ0aQeY2u", []string{"xghp_R8kq2Lm9Xv4TzW7bN1cP5sD3fG6hJ0aQeY2u"}},
	} {
		var got []string
		for _, f := range Scan(tc.field, tc.value) {
			if tc.value[f.Start:f.End] != f.Value {
				t.Errorf("%s: offsets %d:%d do not hold %q", tc.name, f.Start, f.End, f.Value)
			}
			got = append(got, f.Value)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: Scan(%q) = %q, want %q", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		ghToken:                    "ghp_***",
		anthropic:                  "sk-ant-***",
		openaiKey:                  "sk-proj-***",
		"sk-live-123456":           "sk-***",
		"Bearer abcdefghijk":       "Bearer abc***",
		"Bearer " + jwt:            "Bearer eyJ***",
		"hunter2hunter2":           "hun***",
		"short":                    "***",
		"héllo wörld":              "hél***",
		awsKeyID:                   "AKIA***",
		"ghp_":                     "***",
		"xoxb-2384729384-98237498": "xoxb-***",
	} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMaskLine(t *testing.T) {
	for in, want := range map[string]string{
		// the cases emitters.MaskSecrets always handled
		`+      "API_KEY": "sk-live-123456",`:        `+      "API_KEY": "sk-***",`,
		`  "Authorization": "Bearer abcdefghijk"`:    `  "Authorization": "Bearer abc***"`,
		`  "Authorization": "Bearer ${TOKEN}"`:       `  "Authorization": "Bearer ${TOKEN}"`,
		`  "GITHUB_TOKEN": "${env:GITHUB_TOKEN}"`:    `  "GITHUB_TOKEN": "${env:GITHUB_TOKEN}"`,
		`password = "hunter2hunter2"`:                `password = "hun***"`,
		`bearer_token_env_var = "MY_TOKEN"`:          `bearer_token_env_var = "MY_TOKEN"`,
		`CONTEXT7_API_KEY = "CONTEXT7_API_KEY"`:      `CONTEXT7_API_KEY = "CONTEXT7_API_KEY"`,
		`  "X-Api-Key": "Bearer GITHUB_TOKEN"`:       `  "X-Api-Key": "Bearer GITHUB_TOKEN"`,
		`  "command": "npx",`:                        `  "command": "npx",`,
		`  "x-api-key": "short"`:                     `  "x-api-key": "***"`,
		`  "OTHER": "value", "SECRET": "abcdefghij"`: `  "OTHER": "value", "SECRET": "abc***"`,
		`  "token": "{env:T}"`:                       `  "token": "{env:T}"`,
		// what it misses no more: args, YAML, HCL, tokens anywhere
		`    "args": ["-y", "server", "--api-key", "abcd1234efgh"]`:                      `    "args": ["-y", "server", "--api-key", "abc***"]`,
		`      "--token=abcd1234efgh",`:                                                  `      "--token=abc***",`,
		`      "API_KEY=abcd1234efgh",`:                                                  `      "API_KEY=abc***",`,
		`      GITHUB_TOKEN: ghp_R8kq2Lm9Xv4TzW7bN1cP5sD3fG6hJ0aQeY2u`:                   `      GITHUB_TOKEN: ghp_***`,
		`      api_key: hunter2hunter2 # mine`:                                           `      api_key: hun*** # mine`,
		`  headers = { Authorization = "Bearer ${env("LINEAR_API_KEY")}" }`:              `  headers = { Authorization = "Bearer ${env("LINEAR_API_KEY")}" }`,
		`  env     = { GITHUB_TOKEN = "ghp_literalsecret123" }`:                          `  env     = { GITHUB_TOKEN = "ghp_***" }`,
		`"https://user:s3cr3tPass@db.example.com/x"`:                                     `"https://user:s3c***@db.example.com/x"`,
		`url = "https://mcp.example.com/sse?api_key=Zk3q9XvB2m&x=1"`:                     `url = "https://mcp.example.com/sse?api_key=Zk3***&x=1"`,
		`"args": ["--header", "Authorization: Bearer Zk3q9XvB2mLp7RtW"]`:                 `"args": ["--header", "Authorization: Bearer Zk3***"]`,
		`note ` + ghToken + ` in prose`:                                                  `note ghp_*** in prose`,
		`  "PROJECT": "Zk3q9XvB2mLp7RtW4nYc8HsD6fGj"`:                                    `  "PROJECT": "Zk3***"`,
		`  "sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"`: `  "sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"`,
		`and set it with: export GITHUB_TOKEN=…`:                                         `and set it with: export GITHUB_TOKEN=…`,
		`  "api_key": "<your key>"`:                                                      `  "api_key": "<your key>"`,
		`  "Authorization": "Bearer undefined"`:                                          `  "Authorization": "Bearer und***"`,
	} {
		if got := MaskLine(in); got != want {
			t.Errorf("MaskLine(%s)\n got %s\nwant %s", in, got, want)
		}
		if again := MaskLine(MaskLine(in)); again != MaskLine(in) {
			t.Errorf("MaskLine is not idempotent on %s: %s", in, again)
		}
	}
}

func TestScrubberSeesAcrossLines(t *testing.T) {
	var s Scrubber
	s.Add("abcd1234efgh")
	s.Add("line-one-secret-x1\nline-two-secret-y2")
	s.Add("ab") // too short to hide
	text := "  \"--api-key\",\n  \"abcd1234efgh\"\n\"\"\"\nline-one-secret-x1\nline-two-secret-y2\n\"\"\"\nab cd\n"
	got := s.Text(text)
	for _, leak := range []string{"abcd1234efgh", "line-one-secret-x1", "line-two-secret-y2"} {
		if strings.Contains(got, leak) {
			t.Errorf("%q shown:\n%s", leak, got)
		}
	}
	if !strings.Contains(got, "ab cd") || strings.Count(got, "\n") != strings.Count(text, "\n") {
		t.Errorf("scrubbing changed more than the secrets:\n%s", got)
	}
}

func TestScanServerNamesVariables(t *testing.T) {
	srv := canonical.Server{
		Name: "linear", Transport: canonical.HTTP,
		URL:     "https://mcp.linear.app/mcp?token=Zk3q9XvB2mLp",
		Headers: map[string]string{"Authorization": "Bearer Zk3q9XvB2mLp7RtW", "X-Other": "plain"},
		Env:     map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": ghToken, "MODE": "fast"},
		Args:    []string{"--api-key", "abcd1234efgh", "API_TOKEN=wxyz5678ijkl", "--key=" + openaiKey},
	}
	got := map[string]string{}
	for _, f := range ScanServer(srv) {
		got[f.Field] = f.Var
		if strings.Contains(f.Describe(), f.Value) {
			t.Errorf("Describe shows the value: %s", f.Describe())
		}
	}
	want := map[string]string{
		"url":                              "LINEAR_TOKEN",
		"headers.Authorization":            "LINEAR_API_KEY",
		"env.GITHUB_PERSONAL_ACCESS_TOKEN": "GITHUB_PERSONAL_ACCESS_TOKEN",
		"args[1]":                          "LINEAR_API_KEY_2",

		"args[2]": "API_TOKEN",
		"args[3]": "OPENAI_API_KEY",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: var %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

func TestExtract(t *testing.T) {
	srv := canonical.Server{
		Name: "linear", Transport: canonical.HTTP, URL: "https://mcp.linear.app/mcp",
		Headers: map[string]string{"Authorization": "Bearer " + linearKey},
		Extra:   map[string]map[string]json.RawMessage{"cursor": {"apiKey": json.RawMessage(`"` + npmToken + `"`)}},
	}
	out, moved := Extract(srv, ScanServer(srv))
	if out.Headers["Authorization"] != "Bearer ${LINEAR_API_KEY}" {
		t.Errorf("header = %q", out.Headers["Authorization"])
	}
	if len(moved) != 1 || moved[0].Var != "LINEAR_API_KEY" || moved[0].Value != linearKey || moved[0].Masked() != "lin_api_***" {
		t.Errorf("moved = %+v", moved)
	}
	if string(out.Extra["cursor"]["apiKey"]) != `"`+npmToken+`"` {
		t.Errorf("a client-specific key was changed: %s", out.Extra["cursor"]["apiKey"])
	}
	if srv.Headers["Authorization"] != "Bearer "+linearKey {
		t.Error("Extract changed its argument")
	}
	// Nothing extractable is left behind.
	for _, f := range ScanServer(out) {
		if f.Extractable {
			t.Errorf("left after Extract: %+v", f)
		}
	}
}

func TestMaskServer(t *testing.T) {
	srv := canonical.Server{Name: "gh", Transport: canonical.Stdio, Command: "npx",
		Args:  []string{"-y", "server", "--token", "abcd1234efgh"},
		Env:   map[string]string{"GITHUB_TOKEN": ghToken, "REF": "${X}"},
		Extra: map[string]map[string]json.RawMessage{"c": {"apiKey": json.RawMessage(`{"k":"` + npmToken + `"}`)}}}
	m := MaskServer(srv)
	data, _ := json.Marshal(m)
	for _, leak := range []string{ghToken, "abcd1234efgh", npmToken} {
		if strings.Contains(string(data), leak) {
			t.Errorf("MaskServer shows %q: %s", leak, data)
		}
	}
	if m.Env["REF"] != "${X}" || m.Env["GITHUB_TOKEN"] != "ghp_***" || m.Args[3] != "abc***" {
		t.Errorf("masked %+v", m)
	}
	if srv.Env["GITHUB_TOKEN"] != ghToken {
		t.Error("MaskServer changed its argument")
	}
}

func TestHighEntropy(t *testing.T) {
	for _, s := range []string{randomValue, "0123456789abcdef0123456789abcdef", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9kq2"} {
		if !HighEntropy(s) {
			t.Errorf("%q is not high-entropy", s)
		}
	}
	for _, s := range []string{"modelcontextprotocol-server-github", "server-filesystem-2024-extended",
		"abcdefghijklmnopqrstuvwxyz", "github-mcp-server-v0.31.0", "3f1c2b9e-8a7d-4c6b-9e5f-1a2b3c4d5e6f",
		"mcp-server-20250408.tar.gz", "api2.staging.example-company.com", "aaaaaaaaaaaaaaaaaaaaaaaaaaaa1111"} {
		if HighEntropy(s) {
			t.Errorf("%q is high-entropy", s)
		}
	}
}

func TestVarName(t *testing.T) {
	for in, want := range map[string]string{"linear": "LINEAR", "x-api-key": "X_API_KEY", "my server.v2": "MY_SERVER_V2", "2fa": "_2FA", "--": ""} {
		if got := VarName(in); got != want {
			t.Errorf("VarName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScrubberAddsEachFormOnce: a secret added again (the same server read
// from several files) adds no form twice, and every form still masks.
func TestScrubberAddsEachFormOnce(t *testing.T) {
	var s Scrubber
	s.Add("p@ss word/42!")
	n := s.Len()
	if n < 3 {
		t.Fatalf("%d forms; want the text, its JSON, query and path forms", n)
	}
	s.Add("p@ss word/42!")
	if s.Len() != n {
		t.Fatalf("adding the secret again: %d forms, was %d", s.Len(), n)
	}
	for _, line := range []string{`"k": "p@ss word/42!"`, "https://x.example/?t=p%40ss+word%2F42%21", "https://x.example/p@ss%20word%2F42%21"} {
		if got := s.Line(line); strings.Contains(got, "42") {
			t.Errorf("%q masked as %q", line, got)
		}
	}
}
