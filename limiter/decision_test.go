package limiter

import (
	"math"
	"testing"
	"time"
)

// ResetSeconds rounds up, is at least 1, and never wraps around (found by
// proxy's FuzzRateLimitHeaders: Reset near the maximum gave t=1).
func TestResetSeconds(t *testing.T) {
	for _, tc := range []struct {
		reset time.Duration
		want  int
	}{
		{0, 1}, {-time.Hour, 1}, {time.Nanosecond, 1}, {time.Second, 1}, {time.Second + 1, 2},
		{59*time.Second + 500*time.Millisecond, 60}, {time.Minute, 60},
		{math.MaxInt64, int(math.MaxInt64/int64(time.Second)) + 1},
	} {
		if got := (Decision{Reset: tc.reset}).ResetSeconds(); got != tc.want {
			t.Errorf("ResetSeconds(%v) = %d, want %d", tc.reset, got, tc.want)
		}
	}
}
