package usage

import (
	"sort"
	"time"
)

// DefaultHistoryDays is how many UTC days of daily counts are kept per key
// id and operation (config usage_history_days).
const DefaultHistoryDays = 90

// Day is a UTC day: the days since 1970-01-01.
type Day int64

// DayOf returns the UTC day of t.
func DayOf(t time.Time) Day {
	s := t.Unix()
	d := s / 86400
	if s < 0 && s%86400 != 0 {
		d--
	}
	return Day(d)
}

// Time returns the day's first instant, UTC.
func (d Day) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String is the day as YYYY-MM-DD.
func (d Day) String() string { return d.Time().Format(time.DateOnly) }

// MarshalText writes the day as YYYY-MM-DD (JSON reports).
func (d Day) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a YYYY-MM-DD day.
func (d *Day) UnmarshalText(b []byte) error {
	t, err := time.Parse(time.DateOnly, string(b))
	if err != nil {
		return err
	}
	*d = DayOf(t)
	return nil
}

// DayCount is the number of calls made on one UTC day.
type DayCount struct {
	Day   Day   `json:"day"`
	Count int64 `json:"count"`
}

// addDay counts n calls on day d into days (sorted by day, ascending). The
// common case, today's day already last, is one comparison.
func addDay(days []DayCount, d Day, n int64) []DayCount {
	if l := len(days); l > 0 && days[l-1].Day == d {
		days[l-1].Count += n
		return days
	}
	i := sort.Search(len(days), func(i int) bool { return days[i].Day >= d })
	if i < len(days) && days[i].Day == d {
		days[i].Count += n
		return days
	}
	days = append(days, DayCount{})
	copy(days[i+1:], days[i:])
	days[i] = DayCount{Day: d, Count: n}
	return days
}

// mergeDays returns a with the counts of b added; a's array is not shared
// with b.
func mergeDays(a, b []DayCount) []DayCount {
	if len(b) == 0 {
		return a
	}
	out := make([]DayCount, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i].Day < b[j].Day):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j].Day < a[i].Day:
			out = append(out, b[j])
			j++
		default:
			out = append(out, DayCount{Day: a[i].Day, Count: a[i].Count + b[j].Count})
			i++
			j++
		}
	}
	return out
}

// pruneDays drops the days before from (days is sorted); it may reuse
// days' array.
func pruneDays(days []DayCount, from Day) []DayCount {
	i := sort.Search(len(days), func(i int) bool { return days[i].Day >= from })
	if i == 0 {
		return days
	}
	if i == len(days) {
		return nil
	}
	return append([]DayCount(nil), days[i:]...)
}

// firstKeptDay is the oldest day a window of n days ending on today keeps.
func firstKeptDay(today Day, n int) Day { return today - Day(n) + 1 }
