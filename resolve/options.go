package resolve

import (
	"net/http"
	"strings"
	"time"
)

// Default base URLs. Each can be replaced (flags --github-api,
// --github-raw, --registry; environment MCPSYNC_GITHUB_API,
// MCPSYNC_GITHUB_RAW, MCPSYNC_REGISTRY) to use a mirror, a sub-registry,
// GitHub Enterprise, or a local fake in tests.
const (
	DefaultGitHubAPI = "https://api.github.com"
	DefaultGitHubRaw = "https://raw.githubusercontent.com"
	DefaultRegistry  = "https://registry.modelcontextprotocol.io"
)

// Environment variables that set the base URLs.
const (
	EnvGitHubAPI = "MCPSYNC_GITHUB_API"
	EnvGitHubRaw = "MCPSYNC_GITHUB_RAW"
	EnvRegistry  = "MCPSYNC_REGISTRY"
)

// Options steer one resolution.
type Options struct {
	GitHubAPI string // default DefaultGitHubAPI
	GitHubRaw string // default DefaultGitHubRaw
	Registry  string // default DefaultRegistry
	// Token is sent to the GitHub hosts (API and raw) only, never to the
	// registry or anywhere else.
	Token string
	// HTTPClient makes every request; nil uses a client with a 30 s timeout.
	HTTPClient *http.Client
	// CacheDir keeps answers between runs ("" disables the cache); TTL is
	// how long they are reused (0 means DefaultTTL).
	CacheDir string
	TTL      time.Duration
	// Refresh ignores cached answers (they are still replaced by the new ones).
	Refresh bool
	// Remote prefers the hosted endpoint over a package to run locally.
	Remote bool
	// Pick chooses among several servers (a monorepo) or several ways to
	// run one: a candidate ID, a server name, a subfolder, or a runner
	// (npx, uvx, docker, dnx, go, binary, remote).
	Pick string
	// Name is the key to store the server under; "" derives it from the
	// repository, package or registry name (ShortName).
	Name string
	// Plugins run, in order, when every built-in step found nothing.
	Plugins []Plugin
	// Inputs are values the user gave (--input K=V), keyed by input name
	// or label. Non-secret values are written into the entry; secrets
	// stay ${NAME} references.
	Inputs map[string]string
	// UserAgent is sent with every request.
	UserAgent string
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

func (o *Options) withDefaults() {
	o.GitHubAPI = trimBase(o.GitHubAPI, DefaultGitHubAPI)
	o.GitHubRaw = trimBase(o.GitHubRaw, DefaultGitHubRaw)
	o.Registry = trimBase(o.Registry, DefaultRegistry)
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.UserAgent == "" {
		o.UserAgent = "mcpsync-resolver"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

func trimBase(s, def string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		s = def
	}
	return strings.TrimSuffix(s, "/")
}

func (o *Options) fetcher() *fetcher {
	return &fetcher{
		client:        o.HTTPClient,
		cache:         &cache{dir: o.CacheDir, ttl: o.TTL, now: o.Now},
		refresh:       o.Refresh,
		token:         o.Token,
		tokenPrefixes: []string{o.GitHubAPI + "/", o.GitHubRaw + "/"},
		userAgent:     o.UserAgent,
	}
}
