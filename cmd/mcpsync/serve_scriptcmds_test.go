package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The MCP Inspector's CLI mode (@modelcontextprotocol/inspector from npm) is
// the MCP client the serve scripts talk through: a client no one here
// wrote. It is installed once into the user's cache; without npm or the
// registry, [inspector] is false and the scripts skip.
const inspectorVersion = "0.21.0"

var inspectorOnce = sync.OnceValues(func() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "mcpsync-test", "npm-inspector")
	bin := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	pkg := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "package.json")
	if data, err := os.ReadFile(pkg); err == nil && bytes.Contains(data, []byte(`"version": "`+inspectorVersion+`"`)) {
		return bin, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error",
		"@modelcontextprotocol/inspector@"+inspectorVersion).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm install: %v: %s", err, out)
	}
	return bin, nil
})

func init() {
	// [inspector]: the MCP Inspector CLI is here (see inspectorOnce).
	scriptConds["inspector"] = func(string) (bool, error) {
		_, err := inspectorOnce()
		return err == nil, nil
	}

	// freeport VAR: sets $VAR to a TCP port free on 127.0.0.1.
	scriptCmds["freeport"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: freeport VAR")
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		ts.Setenv(args[0], strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
		ln.Close()
	}

	// waitport HOST:PORT: wait (up to 10s) until something listens there.
	scriptCmds["waitport"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: waitport HOST:PORT")
		}
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if c, err := net.Dial("tcp", args[0]); err == nil {
				c.Close()
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("nothing listens on %s after 10s", args[0])
			}
		}
	}

	// mcpcall [-http URL -token-file FILE] TOOL [NAME=VALUE...]
	// mcpcall [...] -list | -read URI
	//
	// calls a tool of mcpsync serve through the Inspector CLI (over stdio,
	// the Inspector starting 'mcpsync serve' itself, or over HTTP), prints
	// the structured result as indented JSON on stdout, and sets $PLAN_ID
	// to its plan_id. -list prints the tool names, -read a resource's
	// text. A tool error fails the command (! mcpcall expects one) and its
	// text is on stderr.
	scriptCmds["mcpcall"] = func(ts *testscript.TestScript, neg bool, args []string) {
		ins, err := inspectorOnce()
		if err != nil {
			ts.Fatalf("the MCP Inspector is not here (guard the script with [!inspector] skip): %v", err)
		}
		var url, tokenFile string
		for len(args) > 1 && (args[0] == "-http" || args[0] == "-token-file") {
			if args[0] == "-http" {
				url = args[1]
			} else {
				tokenFile = ts.MkAbs(args[1])
			}
			args = args[2:]
		}
		if len(args) == 0 {
			ts.Fatalf("usage: mcpcall [-http URL -token-file FILE] TOOL [NAME=VALUE...] | -list | -read URI")
		}
		cmdArgs := []string{"--cli"}
		if url != "" {
			cmdArgs = append(cmdArgs, url, "--transport", "http")
			if tokenFile != "" {
				tok, err := os.ReadFile(tokenFile)
				ts.Check(err)
				cmdArgs = append(cmdArgs, "--header", "Authorization: Bearer "+strings.TrimSpace(string(tok)))
			}
		} else {
			self, err := exec.LookPath("mcpsync")
			if p := ts.Getenv("PATH"); p != "" {
				for _, dir := range filepath.SplitList(p) {
					if fi, err2 := os.Stat(filepath.Join(dir, "mcpsync")); err2 == nil && !fi.IsDir() {
						self, err = filepath.Join(dir, "mcpsync"), nil
						break
					}
				}
			}
			ts.Check(err)
			for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "PATH"} {
				cmdArgs = append(cmdArgs, "-e", k+"="+ts.Getenv(k))
			}
			cmdArgs = append(cmdArgs, self, "serve")
		}
		mode := "call"
		switch args[0] {
		case "-list":
			mode = "list"
			cmdArgs = append(cmdArgs, "--method", "tools/list")
		case "-read":
			if len(args) != 2 {
				ts.Fatalf("usage: mcpcall -read URI")
			}
			mode = "read"
			cmdArgs = append(cmdArgs, "--method", "resources/read", "--uri", args[1])
		default:
			cmdArgs = append(cmdArgs, "--method", "tools/call", "--tool-name", args[0])
			for _, kv := range args[1:] {
				cmdArgs = append(cmdArgs, "--tool-arg", kv)
			}
		}
		cmd := exec.Command(ins, cmdArgs...)
		cmd.Dir = ts.Getenv("WORK")
		cmd.Env = append(os.Environ(), "HOME="+ts.Getenv("HOME"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if neg {
				fmt.Fprint(ts.Stderr(), stderr.String()+stdout.String())
				return
			}
			ts.Fatalf("inspector: %v\n%s%s", err, stderr.String(), stdout.String())
		}
		var out map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			ts.Fatalf("inspector printed no JSON: %v\n%s", err, stdout.String())
		}
		switch mode {
		case "list":
			tools, _ := out["tools"].([]any)
			for _, t := range tools {
				fmt.Fprintln(ts.Stdout(), t.(map[string]any)["name"])
			}
			return
		case "read":
			for _, c := range out["contents"].([]any) {
				fmt.Fprint(ts.Stdout(), c.(map[string]any)["text"])
			}
			return
		}
		if isErr, _ := out["isError"].(bool); isErr {
			for _, c := range out["content"].([]any) {
				fmt.Fprintln(ts.Stderr(), c.(map[string]any)["text"])
			}
			if !neg {
				ts.Fatalf("%s returned an error (above)", args[0])
			}
			return
		}
		if neg {
			ts.Fatalf("%s succeeded; want an error", args[0])
		}
		sc, _ := out["structuredContent"].(map[string]any)
		if id, ok := sc["plan_id"].(string); ok {
			ts.Setenv("PLAN_ID", id)
		}
		data, err := json.MarshalIndent(sc, "", "  ")
		ts.Check(err)
		fmt.Fprintln(ts.Stdout(), string(data))
	}
}
