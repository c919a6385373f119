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
	go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
done < <(grep -rEo --include='*_test.go' --exclude-dir=node_modules '^func Fuzz[A-Za-z0-9_]*' . |
	sed -E 's#^\./##; s#:func #:#' | sort)
[ "$found" -eq 1 ] || log "no fuzz targets yet (write func FuzzXxx(f *testing.F) in a _test.go file)"
