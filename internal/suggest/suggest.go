// Package suggest finds the name a user probably meant when the one typed
// is unknown: the closest by edit distance, ignoring case.
package suggest

import "strings"

// Closest returns the candidate nearest to name (case aside), when its
// edit distance is below limit; else "". On a tie the first one wins.
func Closest(name string, candidates []string, limit int) string {
	best, bestD := "", limit
	name = strings.ToLower(name)
	for _, c := range candidates {
		if d := Distance(name, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, counted in bytes:
// the fewest insertions, deletions and substitutions that turn a into b.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
