package resolve

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpsync/mcpsync/internal/atomicfile"
)

// DefaultTTL is how long a cached GitHub or registry answer is reused.
const DefaultTTL = time.Hour

// cache keeps HTTP answers on disk, one file per URL, so that resolving the
// same repository twice costs no request (GitHub allows 60 an hour without
// a token). Only answers that will not change soon are kept: 200 and 404.
type cache struct {
	dir string // "" disables the cache
	ttl time.Duration
	now func() time.Time
}

type cacheEntry struct {
	URL     string    `json:"url"`
	Status  int       `json:"status"`
	Fetched time.Time `json:"fetched"`
	Body    []byte    `json:"body"`
}

func (c *cache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:16])+".json")
}

// get returns a fresh cached answer for key.
func (c *cache) get(key string) (cacheEntry, bool) {
	if c == nil || c.dir == "" {
		return cacheEntry{}, false
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return cacheEntry{}, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.URL != key {
		return cacheEntry{}, false // corrupt or a hash collision: refetch
	}
	if c.now().Sub(e.Fetched) > c.ttl || e.Fetched.After(c.now().Add(time.Minute)) {
		return cacheEntry{}, false
	}
	return e, true
}

// put stores an answer. A cache that cannot be written is not an error:
// the next run fetches again.
func (c *cache) put(key string, status int, body []byte) {
	if c == nil || c.dir == "" {
		return
	}
	if os.MkdirAll(c.dir, 0o700) != nil {
		return
	}
	data, err := json.Marshal(cacheEntry{URL: key, Status: status, Fetched: c.now(), Body: body})
	if err != nil {
		return
	}
	_ = atomicfile.WriteFile(c.path(key), data, 0o600)
}
