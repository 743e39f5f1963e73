package podjson

import (
	"net/netip"
	"testing"
)

// FuzzIsIPv4: isIPv4 (publicIP's check, once a port with a public
// mapping) says what netip.ParseAddr followed by Is4 says, on any string.
func FuzzIsIPv4(f *testing.F) {
	for _, s := range []string{"194.26.40.10", "0.0.0.0", "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3.04",
		"1.2.3", "1.2.3.4.5", ".1.2.3", "1.2.3.", "1..2.3", "::ffff:1.2.3.4", "::1", "1.2.3.4%eth0", "%1.2.3.4",
		"", "1.2.3.-4", "1.2.3.4 ", "1.2.3.1000", "0.0.0.00", "10.0.0.255", "a.b.c.d", "1:2.3.4.5",
		"1.2.3.0", "0.1.2.3", "00.1.2.3", "1.2.3.4.", "9.99.199.249", "1.2.3.250", "1.2.3.260", "1.2.3.2555"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := netip.ParseAddr(s)
		want := err == nil && a.Is4()
		if got := isIPv4(s); got != want {
			t.Fatalf("isIPv4(%q) = %v, netip %v", s, got, want)
		}
	})
}
