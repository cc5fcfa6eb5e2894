package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/internal/mcpfixture"
	"github.com/mcpsync/mcpsync/resolve/resolvetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// Every script runs against a local fake of GitHub and the MCP registry,
// never the real ones. A script describes them with files:
//
//	github/OWNER/REPO/...   a repository (its default branch is main)
//	github/OWNER/REPO.release  the tag of its latest release
//	github/RATELIMIT        every GitHub API call is refused as rate limited
//	registry/*.json         server.json documents published in the registry
//
// MCPSYNC_GITHUB_API, MCPSYNC_GITHUB_RAW and MCPSYNC_REGISTRY point at the
// fake, and $GITHUB is its web-style base (for messages). A script without
// those folders gets base URLs that refuse connections, so that no test can
// reach the network by accident.
func init() {
	testSetups = append(testSetups, setupFakeGitHub)
	// The resolver scripts' READMEs describe the fixture MCP server. The
	// probe's tests register the same command; whichever init runs last
	// wins, and both run mcpfixture.Main.
	if _, ok := testCommands["mcp-fixture"]; !ok {
		testCommands["mcp-fixture"] = func() { os.Exit(mcpfixture.Main(os.Args[1:])) }
	}
}

func setupFakeGitHub(env *testscript.Env) error {
	env.Setenv("GITHUB_TOKEN", "")
	env.Setenv("GH_TOKEN", "")
	ghDir := filepath.Join(env.WorkDir, "github")
	regDir := filepath.Join(env.WorkDir, "registry")
	_, ghErr := os.Stat(ghDir)
	_, regErr := os.Stat(regDir)
	if ghErr != nil && regErr != nil {
		for _, k := range []string{"MCPSYNC_GITHUB_API", "MCPSYNC_GITHUB_RAW", "MCPSYNC_REGISTRY"} {
			env.Setenv(k, "http://127.0.0.1:1/no-network-in-tests")
		}
		return nil
	}
	fake := resolvetest.New()
	env.Defer(fake.Close)
	owners, _ := os.ReadDir(ghDir)
	for _, o := range owners {
		if !o.IsDir() {
			if o.Name() == "RATELIMIT" {
				fake.RateLimit(time.Now().Add(42 * time.Minute))
			}
			continue
		}
		repos, err := os.ReadDir(filepath.Join(ghDir, o.Name()))
		if err != nil {
			return err
		}
		for _, r := range repos {
			if !r.IsDir() {
				continue
			}
			repo, err := resolvetest.RepoFromDir(o.Name(), r.Name(), filepath.Join(ghDir, o.Name(), r.Name()))
			if err != nil {
				return err
			}
			if tag, err := os.ReadFile(filepath.Join(ghDir, o.Name(), r.Name()+".release")); err == nil {
				repo.LatestRelease = strings.TrimSpace(string(tag))
			}
			fake.AddRepo(repo)
		}
	}
	entries, _ := os.ReadDir(regDir)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(regDir, e.Name()))
		if err != nil {
			return err
		}
		if err := fake.AddServer(data, ""); err != nil {
			return err
		}
	}
	for k, v := range fake.Env() {
		env.Setenv(k, v)
	}
	env.Setenv("GITHUB", fake.URL)
	return nil
}
