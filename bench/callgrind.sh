#!/usr/bin/env bash
# callgrind.sh: instructions per operation of one Go benchmark, counted by
# valgrind's callgrind, which a shared, noisy machine does not disturb.
# The figures in bench/HISTORY.md are this script's.
#
#   bench/callgrind.sh <package dir> '<benchmark regexp>'
#   bench/callgrind.sh graphql 'BenchmarkGetPods100Mixed$'
#
# It runs the benchmark twice (200 and 400 iterations, GOGC=off, one
# thread, no async preemption) and prints (I400 - I200) / 200: the set-up
# cancels out. Needs valgrind (apt-get install valgrind).
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 <package dir> '<benchmark regexp>'" >&2
	exit 2
fi
pkg=${1%/}
re=$2
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && CGO_ENABLED=0 go test -c -o "$tmp/bench.test" "./$pkg")
count() {
	(cd "$root/$pkg" && GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 \
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1.out" \
		"$tmp/bench.test" -test.run '^$' -test.bench "$re" -test.benchtime="$1x" \
		>/dev/null 2>"$tmp/cg.$1.err")
	grep -a 'Collected' "$tmp/cg.$1.err" | awk '{print $4}'
}
a=$(count 200)
b=$(count 400)
echo "$pkg $re: $(( (b - a) / 200 )) instructions per operation"
