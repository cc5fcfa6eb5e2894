package handoff

import "testing"

func TestTakeOnce(t *testing.T) {
	s := New[string](2)
	s.Offer([]byte("abc"), "parsed abc")
	if _, ok := s.Take([]byte("abd")); ok {
		t.Fatal("took the value of other bytes of the same length")
	}
	if v, ok := s.Take([]byte("abc")); !ok || v != "parsed abc" {
		t.Fatalf("Take = %q, %v", v, ok)
	}
	if _, ok := s.Take([]byte("abc")); ok {
		t.Fatal("the same value was taken twice")
	}
}

// Bytes changed in place after the offer are not the bytes it was made from.
func TestChangedBytes(t *testing.T) {
	s := New[int](2)
	src := []byte("abc")
	s.Offer(src, 1)
	src[1] = 'X'
	if _, ok := s.Take(src); ok {
		t.Fatal("took a value made from what the bytes held before they changed")
	}
}

// Only the newest values are held; a value never taken goes.
func TestHoldsFew(t *testing.T) {
	s := New[int](2)
	for i := range 6 {
		s.Offer([]byte{byte(i)}, i)
	}
	if s.Len() != 2 {
		t.Fatalf("%d values held, at most 2", s.Len())
	}
	if _, ok := s.Take([]byte{0}); ok {
		t.Fatal("the oldest value is still held")
	}
	if v, ok := s.Take([]byte{5}); !ok || v != 5 {
		t.Fatalf("the newest value: %d, %v", v, ok)
	}
}
