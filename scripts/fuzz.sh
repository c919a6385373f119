#!/usr/bin/env bash
# Run every Go fuzz target (func FuzzXxx in *_test.go) for FUZZTIME each
# (default 10s). Go fuzzes one target of one package per run, hence the loop.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

fuzztime=${FUZZTIME:-10s}
found=0
while IFS=: read -r file target; do
	found=1
	pkg=./$(dirname "$file")
	log "fuzz $pkg $target for $fuzztime"
	out=$(mktemp)
	if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tee "$out"; then
		# Go's fuzzer sometimes ends a time-limited run with a bare "context deadline exceeded" and
		# no failing input (its own deadline, on a busy machine): run that target once more. A real
		# finding writes a failing input and fails at once.
		if grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written' "$out"; then
			log "fuzz $pkg $target: the fuzzer's own deadline, not a finding; once more"
			go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
		else
			rm -f "$out"
			exit 1
		fi
	fi
	rm -f "$out"
done < <(grep -rEo --include='*_test.go' --exclude-dir=node_modules '^func Fuzz[A-Za-z0-9_]*' . |
	sed -E 's#^\./##; s#:func #:#' | sort)
[ "$found" -eq 1 ] || log "no fuzz targets yet (write func FuzzXxx(f *testing.F) in a _test.go file)"
