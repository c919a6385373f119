#!/usr/bin/env bash
# The web app's API types come from the API's own OpenAPI document (issue 20):
#   scripts/api-types.sh           regenerate web/src/lib/api-schema.d.ts
#   scripts/api-types.sh --check   fail when the committed file is stale (make test runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

out=web/src/lib/api-schema.d.ts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./cmd/perfilseguro openapi >"$tmp/openapi.json"
node_modules/.bin/openapi-typescript "$tmp/openapi.json" -o "$tmp/api-schema.d.ts" >/dev/null
case "${1:-}" in
--check)
	if ! diff -u "$out" "$tmp/api-schema.d.ts" >"$tmp/diff"; then
		head -40 "$tmp/diff"
		die "$out is stale: run scripts/api-types.sh and commit it"
	fi
	log "$out matches the API's OpenAPI document"
	;;
"")
	cp "$tmp/api-schema.d.ts" "$out"
	log "wrote $out"
	;;
*) die "usage: $0 [--check]" ;;
esac
