#!/usr/bin/env bash
# Run every Go fuzz target (func FuzzXxx in *_test.go) for FUZZTIME each
# (default 10s). Go fuzzes one target of one package per run, so each package's
# instrumented test binary is built once (`go test -c -fuzz`) and run once per
# target from the package's folder, as `go test -fuzz` would (a failing input is
# written to its testdata/fuzz, the corpus cache is Go's own).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

fuzztime=${FUZZTIME:-10s}
cachedir=$(go env GOCACHE)/fuzz
bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT

# fuzz runs one target of a built binary; prints its output and fails on a finding.
fuzz() {
	local pkg=$1 bin=$2 target=$3
	(cd "$pkg" && "$bin" -test.run='^$' -test.fuzz="^${target}\$" -test.fuzztime="$fuzztime" \
		-test.fuzzcachedir="$cachedir")
}

targets=$(grep -rEo --include='*_test.go' --exclude-dir=node_modules '^func Fuzz[A-Za-z0-9_]*' . |
	sed -E 's#^\./##; s#:func #:#' | sort)
[ -n "$targets" ] || { log "no fuzz targets yet (write func FuzzXxx(f *testing.F) in a _test.go file)"; exit 0; }

built=
while IFS=: read -r file target; do
	pkg=./$(dirname "$file")
	bin=$bins/$(echo "$pkg" | tr '/.' '__').test
	if [[ " $built " != *" $pkg "* ]]; then
		log "build the fuzzing test binary of $pkg"
		go test -c -fuzz=. -o "$bin" "$pkg"
		built="$built $pkg"
	fi
	log "fuzz $pkg $target for $fuzztime"
	out=$(mktemp)
	if ! fuzz "$pkg" "$bin" "$target" 2>&1 | tee "$out"; then
		# Go's fuzzer sometimes ends a time-limited run with a bare "context deadline exceeded" and
		# no failing input (its own deadline, on a busy machine): run that target once more. A real
		# finding writes a failing input and fails at once.
		if grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written' "$out"; then
			log "fuzz $pkg $target: the fuzzer's own deadline, not a finding; once more"
			fuzz "$pkg" "$bin" "$target"
		else
			rm -f "$out"
			exit 1
		fi
	fi
	rm -f "$out"
done <<<"$targets"
