package resolve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// maxBody bounds what is read from one answer: READMEs and server.json
// files are small, and a tree listing of a huge monorepo is a few MB.
const maxBody = 16 << 20

// fetcher does every HTTP request of one resolution: GET only, through the
// cache, with the GitHub token sent to GitHub hosts and nowhere else.
type fetcher struct {
	client  *http.Client
	cache   *cache
	refresh bool
	token   string
	// tokenPrefixes are the GitHub base URLs: the token goes to them only.
	tokenPrefixes []string
	userAgent     string
	requests      atomic.Int64 // network requests made (cache hits excluded)
}

type response struct {
	status int
	body   []byte
	cached bool
}

// get fetches u. 200 and 404 are answers (the caller decides what a 404
// means); a rate limit, another status or a network failure is an error.
func (f *fetcher) get(ctx context.Context, u, accept string) (response, error) {
	authed := false
	for _, p := range f.tokenPrefixes {
		authed = authed || (f.token != "" && strings.HasPrefix(u, p))
	}
	// Answers with and without the token differ (a private repository is
	// a 404 without it): they are cached apart.
	key := accept + " " + u
	if authed {
		key += " (token)"
	}
	if !f.refresh {
		if e, ok := f.cache.get(key); ok {
			return response{status: e.Status, body: e.Body, cached: true}, nil
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return response{}, fmt.Errorf("bad URL %q: %v; check --github-api, --github-raw and --registry", u, err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	req.Header.Set("User-Agent", f.userAgent)
	if authed {
		req.Header.Set("Authorization", "Bearer "+f.token)
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	}
	f.requests.Add(1)
	resp, err := f.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return response{}, ctx.Err()
		}
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) && ue.Unwrap() != nil {
			err = ue.Unwrap()
		}
		return response{}, fmt.Errorf("GET %s: %v; check your network (or the base URL flags)", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return response{}, fmt.Errorf("GET %s: reading the answer: %v", u, err)
	}
	if len(body) > maxBody {
		return response{}, fmt.Errorf("GET %s: the answer is larger than %d MB", u, maxBody>>20)
	}
	switch {
	case resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNotFound:
		f.cache.put(key, resp.StatusCode, body)
		return response{status: resp.StatusCode, body: body}, nil
	case isRateLimited(resp):
		return response{}, &RateLimitError{URL: u, Reset: rateLimitReset(resp.Header), Authenticated: authed}
	}
	return response{}, &HTTPError{URL: u, Status: resp.StatusCode, Message: errorMessage(body)}
}

// getJSON fetches u and decodes a 200 answer into v. It reports whether
// the answer was a 200 (false for 404).
func (f *fetcher) getJSON(ctx context.Context, u string, v any) (bool, error) {
	resp, err := f.get(ctx, u, "application/json")
	if err != nil {
		return false, err
	}
	if resp.status == http.StatusNotFound {
		return false, nil
	}
	if err := json.Unmarshal(resp.body, v); err != nil {
		return false, fmt.Errorf("GET %s: the answer is not the expected JSON: %v", u, err)
	}
	return true, nil
}

func isRateLimited(resp *http.Response) bool {
	if resp.StatusCode == http.StatusTooManyRequests {
		return true
	}
	if resp.StatusCode != http.StatusForbidden {
		return false
	}
	return resp.Header.Get("X-RateLimit-Remaining") == "0" || resp.Header.Get("Retry-After") != ""
}

func rateLimitReset(h http.Header) time.Time {
	if v := h.Get("X-RateLimit-Reset"); v != "" {
		if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
			return time.Unix(secs, 0)
		}
	}
	if v := h.Get("Retry-After"); v != "" {
		if secs, err := strconv.Atoi(v); err == nil {
			return time.Now().Add(time.Duration(secs) * time.Second)
		}
		if t, err := http.ParseTime(v); err == nil {
			return t
		}
	}
	return time.Time{}
}

// errorMessage pulls the human message out of a GitHub ({"message"}) or
// registry ({"error"} / {"detail"}) error body.
func errorMessage(body []byte) string {
	var m struct {
		Message string `json:"message"`
		Error   string `json:"error"`
		Detail  string `json:"detail"`
		Title   string `json:"title"`
	}
	if json.Unmarshal(body, &m) == nil {
		for _, s := range []string{m.Message, m.Error, m.Detail, m.Title} {
			if s != "" {
				return s
			}
		}
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
