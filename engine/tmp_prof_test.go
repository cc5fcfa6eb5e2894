package engine_test

import "testing"

func BenchmarkTmpNoop(b *testing.B) {
	p := newProject(b, 10000)
	p.exportApply(fiveClients)
	timed(b, nil, func() { p.exportApply(fiveClients) })
}
