package translate

import "testing"

func TestV2Path(t *testing.T) {
	for _, tc := range []struct {
		format string
		ids    []string
		want   string
	}{
		{"/v2/pods", nil, "/v2/pods"},
		{"/v2/pods/%s", []string{"abc123"}, "/v2/pods/abc123"},
		{"/v2/pods/%s/stop", []string{"a b?c#d%e"}, "/v2/pods/a%20b%3Fc%23d%25e/stop"},
		{"/v2/x/%s/y/%s", []string{"1", "é"}, "/v2/x/1/y/%C3%A9"},
		{"/v2/x/%s/%s", []string{"only"}, "/v2/x/only/%s"},
		{"/v2/100%", nil, "/v2/100%"},
	} {
		if got := V2Path(tc.format, tc.ids...); got != tc.want {
			t.Errorf("V2Path(%q, %q) = %q, want %q", tc.format, tc.ids, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = V2Path("/v2/pods/%s", "pod00000benchx") }); n != 1 {
		t.Errorf("V2Path of a plain id: %v allocations, want 1", n)
	}
}
