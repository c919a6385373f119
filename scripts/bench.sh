#!/usr/bin/env bash
# Run every Go benchmark (once each for now; set BENCHTIME for more) against the
# real local services, then append the results to BENCHMARKS.md with the date,
# commit and CPU so runs can be compared.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

scripts/ensure-services.sh perfilseguro_test
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -run '^$' -bench . -benchmem -benchtime "${BENCHTIME:-1x}" ./... | tee "$out"

if ! grep -q '^Benchmark' "$out"; then
	log "no benchmarks yet; BENCHMARKS.md unchanged"
	exit 0
fi
{
	printf '\n## %s, commit %s\n\n' "$(date -u +%Y-%m-%d)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	printf '%s\n\n```\n' "$(grep -m1 '^cpu:' "$out" || echo 'cpu: unknown')"
	grep -E '^(Benchmark|pkg:)' "$out"
	printf '```\n'
} >>BENCHMARKS.md
log "results appended to BENCHMARKS.md"
