package secrets

import (
	"strings"
	"testing"
)

func TestMaskCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		hide string
	}{
		{[]string{"add", "api", "--header", "Authorization: Bearer abc123def456"}, "'Authorization: ", "abc123def456"},
		{[]string{"add", "api", "--env=TOKEN=hunter2hunter2"}, "--env=TOKEN=", "hunter2hunter2"},
		{[]string{"add", "api", "-e", "KEY=${env:KEY}"}, "KEY=${env:KEY}", ""},
		{[]string{"add", "x", "--", "srv", "--env", "plain"}, "-- srv --env plain", ""},
		{[]string{"add", "x", "--", "srv", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"}, "-- srv", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"},
	} {
		got := MaskCommandLine(tc.args)
		if !strings.Contains(got, tc.want) {
			t.Errorf("MaskCommandLine(%q) = %q; want it to contain %q", tc.args, got, tc.want)
		}
		if tc.hide != "" && strings.Contains(got, tc.hide) {
			t.Errorf("MaskCommandLine(%q) = %q shows %q", tc.args, got, tc.hide)
		}
	}
}
