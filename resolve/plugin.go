package resolve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// DefaultPluginTimeout bounds one plugin run when its block sets none. An
// LLM agent reading a repository needs tens of seconds.
const DefaultPluginTimeout = 2 * time.Minute

// Plugin is an external resolver: a command that reads a request as JSON
// on stdin and writes one answer as JSON on stdout (see the package
// documentation for the contract). Plugins come from the store's
// resolver "NAME" { command = [...] timeout = "90s" } blocks.
type Plugin struct {
	Name    string
	Command []string
	Timeout time.Duration
	// Env is added to the plugin's environment ("K=V"); the process
	// environment is inherited.
	Env []string
	Dir string
}

// PluginRequest is what a plugin reads on stdin.
type PluginRequest struct {
	Version  int    `json:"version"` // 1
	Input    string `json:"input"`   // what the user typed
	Parsed   Input  `json:"parsed"`
	Evidence []Step `json:"evidence"` // what the built-in steps saw
	// Contract restates what the answer must look like, so that an LLM
	// plugin can forward the request as its prompt.
	Contract string `json:"contract"`
}

// PluginAnswer is what a plugin writes on stdout: a server, or an error.
type PluginAnswer struct {
	Server *PluginServer `json:"server,omitempty"`
	// Error says why the plugin found nothing; Evidence says what it looked at.
	Error    string          `json:"error,omitempty"`
	Evidence json.RawMessage `json:"evidence,omitempty"` // a string or a list of strings
	Inputs   []RequiredInput `json:"inputs,omitempty"`
}

// PluginServer is a server entry in the common mcpServers spelling.
type PluginServer struct {
	Name    string            `json:"name,omitempty"`
	Type    string            `json:"type,omitempty"` // stdio, http, sse
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

const pluginContract = `Answer one JSON object on stdout, nothing else: ` +
	`{"server": {"command": "npx", "args": ["-y", "pkg"], "env": {"API_KEY": "${API_KEY}"}}} for a local server, ` +
	`{"server": {"type": "http", "url": "https://host/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}} for a hosted one, ` +
	`or {"error": "why nothing was found", "evidence": ["what was looked at"]}. ` +
	`Secrets and values the user must supply are ${NAME} references, never real values.`

// runPlugin runs one plugin with its deadline and reads its answer.
func runPlugin(ctx context.Context, p Plugin, req PluginRequest) (*PluginAnswer, error) {
	if len(p.Command) == 0 || strings.TrimSpace(p.Command[0]) == "" {
		return nil, &PluginError{Plugin: p.Name, Err: errors.New("its command is empty; set command = [\"program\", \"arg\", ...] in the resolver block")}
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultPluginTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	in, err := json.Marshal(req)
	if err != nil {
		return nil, &PluginError{Plugin: p.Name, Err: err}
	}
	cmd := exec.CommandContext(ctx, p.Command[0], p.Command[1:]...)
	cmd.Stdin = bytes.NewReader(in)
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stdout = &limitedWriter{w: &stdout, n: 1 << 20}
	cmd.Stderr = stderr
	cmd.Dir = p.Dir
	if len(p.Env) > 0 {
		cmd.Env = append(cmd.Environ(), p.Env...)
	}
	killGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return nil, &PluginError{Plugin: p.Name, Stderr: stderr.String(),
			Err: fmt.Errorf("no answer within %s; it was stopped (raise timeout = \"…\" in its resolver block if it needs longer)", timeout)}
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("it exited with status %d after %s", ee.ExitCode(), time.Since(start).Round(time.Millisecond))
		} else if errors.Is(err, exec.ErrNotFound) {
			err = fmt.Errorf("command %q not found; check command = [...] in its resolver block", p.Command[0])
		}
		return nil, &PluginError{Plugin: p.Name, Err: err, Stderr: stderr.String()}
	}
	ans, err := parsePluginAnswer(stdout.Bytes())
	if err != nil {
		return nil, &PluginError{Plugin: p.Name, Err: err, Stderr: stderr.String()}
	}
	return ans, nil
}

// parsePluginAnswer reads a plugin's stdout. The answer may be surrounded
// by other text (an LLM's preamble, a Markdown fence): the last JSON
// object in it is the answer.
func parsePluginAnswer(out []byte) (*PluginAnswer, error) {
	text := bytes.TrimSpace(out)
	if len(text) == 0 {
		return nil, errors.New("it answered nothing; it must print one JSON object on stdout")
	}
	obj, ok := lastJSONObject(text)
	if !ok {
		return nil, fmt.Errorf("its answer is not JSON (%q); it must print one JSON object on stdout", clip(string(text), 80))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(obj, &raw); err != nil {
		return nil, fmt.Errorf("its answer is not a JSON object: %v", err)
	}
	var ans PluginAnswer
	if _, ok := raw["server"]; !ok {
		if _, hasCmd := raw["command"]; hasCmd {
			raw = map[string]json.RawMessage{"server": obj} // a bare server entry
		} else if _, hasURL := raw["url"]; hasURL {
			raw = map[string]json.RawMessage{"server": obj}
		}
		obj, _ = json.Marshal(raw)
	}
	if err := json.Unmarshal(obj, &ans); err != nil {
		return nil, fmt.Errorf("its answer does not follow the contract: %v", err)
	}
	if ans.Server == nil && ans.Error == "" {
		return nil, errors.New(`its answer has neither "server" nor "error"`)
	}
	if ans.Server != nil && ans.Server.Command == "" && ans.Server.URL == "" {
		return nil, errors.New(`its server has neither "command" nor "url"`)
	}
	return &ans, nil
}

// lastJSONObject finds the last balanced {...} in text that is valid JSON.
func lastJSONObject(text []byte) ([]byte, bool) {
	if json.Valid(text) && text[0] == '{' {
		return text, true
	}
	for end := bytes.LastIndexByte(text, '}'); end >= 0; end = bytes.LastIndexByte(text[:end], '}') {
		depth := 0
		for start := end; start >= 0; start-- {
			switch text[start] {
			case '}':
				depth++
			case '{':
				depth--
				if depth == 0 && json.Valid(text[start:end+1]) {
					return text[start : end+1], true
				}
			}
		}
	}
	return nil, false
}

// evidenceLines reads the answer's evidence: a string or a list of strings.
func (a *PluginAnswer) evidenceLines() []string {
	if len(a.Evidence) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(a.Evidence, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(a.Evidence, &many) == nil {
		return many
	}
	return []string{string(a.Evidence)}
}

// server converts a plugin's answer into a canonical server.
func (s *PluginServer) server(name string) (canonical.Server, error) {
	srv := canonical.Server{Name: name, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers}
	switch strings.ToLower(s.Type) {
	case "", "stdio", "local":
	case "http", "streamable-http", "streamablehttp", "remote":
		srv.Transport = canonical.HTTP
	case "sse":
		srv.Transport = canonical.SSE
	default:
		return srv, fmt.Errorf("its server has transport type %q; use stdio, http or sse", s.Type)
	}
	srv.Normalize()
	if ds := srv.Validate(); ds.HasErrors() {
		return srv, fmt.Errorf("its server is not usable: %s", ds.Errors()[0].Summary)
	}
	return srv, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.buf) }

// limitedWriter stops keeping output after n bytes (a runaway plugin).
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		if len(p) > room {
			l.w.Write(p[:room])
		} else {
			l.w.Write(p)
		}
	}
	return len(p), nil
}
