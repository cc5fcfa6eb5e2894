package probe

import (
	"net/url"
	"slices"
	"strings"
	"sync"
)

// minSecretLen is the shortest value the scrubber hides. Shorter values
// ("1", "on", "dev") cannot be told apart from ordinary words in a message,
// and hiding them would garble every message; they are not credentials.
const minSecretLen = 4

// redacted replaces every secret in output.
const redacted = "***"

// scrubber removes secret values from text that leaves the package. It is
// filled before a server is started, from every value that came from the
// environment or was configured as an env or header value, and applied to
// every message, stderr line and target string.
type scrubber struct {
	mu       sync.Mutex
	secrets  []string
	replacer *strings.Replacer
}

// add records a secret, with the encodings under which it may show up in an
// error message (URL query and path escaping).
func (s *scrubber) add(v string) {
	if len(v) < minSecretLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, form := range []string{v, url.QueryEscape(v), url.PathEscape(v)} {
		if !slices.Contains(s.secrets, form) {
			s.secrets = append(s.secrets, form)
		}
	}
	s.replacer = nil
}

// addHeader records a header value, and for "Scheme credential" values
// (Bearer, Basic, Token, ...) the credential on its own, which servers and
// libraries sometimes echo without the scheme.
func (s *scrubber) addHeader(v string) {
	s.add(v)
	if scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok && len(scheme) < 16 {
		s.add(strings.TrimSpace(cred))
	}
}

// addURL records the credentials a URL carries: a user-info password and
// every query value.
func (s *scrubber) addURL(raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	if p, ok := u.User.Password(); ok {
		s.add(p)
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			s.add(v)
		}
	}
}

// scrub returns text with every secret replaced by ***.
func (s *scrubber) scrub(text string) string {
	if text == "" {
		return text
	}
	s.mu.Lock()
	if s.replacer == nil {
		// Longest first, so that a secret containing another is hidden whole.
		sorted := slices.Clone(s.secrets)
		slices.SortFunc(sorted, func(a, b string) int { return len(b) - len(a) })
		pairs := make([]string, 0, 2*len(sorted))
		for _, sec := range sorted {
			pairs = append(pairs, sec, redacted)
		}
		s.replacer = strings.NewReplacer(pairs...)
	}
	r := s.replacer
	s.mu.Unlock()
	return r.Replace(text)
}

func (s *scrubber) scrubAll(lines []string) []string {
	for i := range lines {
		lines[i] = s.scrub(lines[i])
	}
	return lines
}
