#!/usr/bin/env bash
# make bench-overload with the load generator on a core of its own: the last core runs only the
# generator; the API, the worker, Postgres, Redis and the test process share the others. On two
# cores that is one core for the server, like a server whose clients are elsewhere, as in
# production. Pins the running Postgres and Redis processes (new Postgres backends inherit the
# postmaster's core) and puts them back on every core when it ends, whatever the outcome.
#   scripts/bench-overload-split.sh                          all three setups
#   OVERLOAD_SETUPS=procfile scripts/bench-overload-split.sh  one (the bench's other settings apply too)
# Needs the right to change those processes' affinity (root, or the same user) and 2 cores or more.
set -euo pipefail
cd "$(dirname "$0")/.."

cores=$(nproc --all)
if [ "$cores" -lt 2 ]; then
	echo "bench-overload-split: needs 2 cores or more, this machine has $cores" >&2
	exit 1
fi
generator=$((cores - 1))
server="0-$((cores - 2))"
everything="0-$((cores - 1))"

services() { pgrep -x postgres || true; pgrep -x redis-server || true; }
# pin CPUS: every Postgres and Redis process onto CPUS; fails if any one could not be moved (set -e
# does not apply inside the `if` below, so the status is kept by hand)
pin() {
	local status=0
	for pid in $(services | sort -u); do
		taskset -a -p -c "$1" "$pid" >/dev/null || status=1
	done
	return $status
}
trap 'pin "$everything"' EXIT
if ! pin "$server"; then
	echo "bench-overload-split: could not pin Postgres and Redis to cores $server (run as root or as their user)" >&2
	exit 1
fi
echo "bench-overload-split: server (API, worker, Postgres, Redis, test) on cores $server, generator on core $generator"
OVERLOAD_GENERATOR_CPUS=$generator BENCH_OVERLOAD=1 taskset -c "$server" \
	go test -count=1 -run '^TestOverload$' -timeout 60m -v ./bench/load
