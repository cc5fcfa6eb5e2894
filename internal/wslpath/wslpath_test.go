package wslpath

import "testing"

func TestMap(t *testing.T) {
	for _, tc := range []struct {
		in, out     string
		unreachable bool
	}{
		{"/mnt/c/Users/me/proj", `C:\Users\me\proj`, false},
		{"/mnt/d", `D:\`, false},
		{"--root=/mnt/c/data", `--root=C:\data`, false},
		{"DIR=/mnt/e/x y", `DIR=E:\x y`, false},
		{"/home/me/proj", "/home/me/proj", true},
		{"--db=/var/lib/x.db", "--db=/var/lib/x.db", true},
		{"/tmp", "/tmp", true},
		{"/c", "/c", false}, // cmd's flag, not a path
		{"/mnt/cdrom/x", "/mnt/cdrom/x", true},
		{"https://example.com/home/x", "https://example.com/home/x", false},
		{"-y", "-y", false},
		{"@scope/pkg", "@scope/pkg", false},
		{"a/b=/home/x", "a/b=/home/x", false}, // not NAME=: a relative path holding '='
		{"/mnt/a/x=y", `A:\x=y`, false},       // an = inside the path is part of it
	} {
		out, unreachable := Map(tc.in)
		if out != tc.out || unreachable != tc.unreachable {
			t.Errorf("Map(%q) = %q, %v; want %q, %v", tc.in, out, unreachable, tc.out, tc.unreachable)
		}
	}
}
