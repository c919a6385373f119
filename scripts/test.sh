#!/usr/bin/env bash
# Everything `make test` does, in order, with a summary at the end:
# tools and services, build (web + binary), go vet, the alerting rules (promtool),
# go test (real Postgres and Redis), the short fuzz and scale runs, vitest, then
# Playwright against the freshly built binary.
# Exits non-zero when any step fails; later steps still run where they can,
# so one run reports every failure.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

export TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
export TEST_REDIS_ADDR=${TEST_REDIS_ADDR:-127.0.0.1:6379}
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# Playwright's server (e2e/playwright.config.ts reads the same variables);
# override them to run next to another `make test` on the same machine.
export E2E_PORT=${E2E_PORT:-8089} E2E_DATABASE=${E2E_DATABASE:-perfilseguro_e2e} E2E_REDIS_DB=${E2E_REDIS_DB:-5}
# The specs run in E2E_SHARDS shards at once, each against its own server (below: e2e_shard_env).
# Most of a spec's time is waiting (a worker's job, a poll, a second server starting), so two
# shards on two cores took 4.5 min where one took 13-14 in CI.
E2E_SHARDS=${E2E_SHARDS:-2}
[[ $E2E_DATABASE =~ ^[a-z_][a-z0-9_]*$ && $E2E_REDIS_DB =~ ^[0-9]+$ && $E2E_PORT =~ ^[0-9]+$ && $E2E_SHARDS =~ ^[1-9]$ ]] ||
	die "E2E_DATABASE must be a lowercase identifier, E2E_REDIS_DB, E2E_PORT and E2E_SHARDS (1-9) numbers"
# A shard's server and the second servers its specs start use Redis DBs E2E_REDIS_DB + 5×shard … +4.
[ $((E2E_REDIS_DB + 5 * E2E_SHARDS - 1)) -le 15 ] ||
	die "E2E_REDIS_DB=$E2E_REDIS_DB with $E2E_SHARDS shards needs Redis DBs past 15: lower one of them"

# e2e_shard_env prints shard k's (0-based) server variables: its own port (second servers and the
# demo partner take the next 10), database and Redis DBs.
e2e_shard_env() {
	local k=$1 db=$E2E_DATABASE
	[ "$k" -eq 0 ] || db=${E2E_DATABASE}_$k
	printf 'E2E_PORT=%s E2E_DATABASE=%s E2E_REDIS_DB=%s' $((E2E_PORT + 100 * k)) "$db" $((E2E_REDIS_DB + 5 * k))
}

results=()
failed=0
go_test_log=$(mktemp)
trap 'rm -f "$go_test_log"' EXIT

# step runs one named command, prints a banner and records how it went.
step() {
	local name=$1 start status
	shift
	printf '\n==> %s: %s\n' "$name" "$*"
	start=$SECONDS
	"$@"
	status=$?
	if [ "$status" -eq 0 ]; then
		results+=("PASS  $name ($((SECONDS - start))s)")
	else
		results+=("FAIL  $name (exit $status, $((SECONDS - start))s)")
		failed=1
	fi
	return "$status"
}

# skip records a step that could not run because an earlier one failed.
skip() { results+=("SKIP  $1 ($2)"); }

summary() {
	# CI keeps only the head and tail of the output: repeat what failed in go test at the end.
	if [ -s "$go_test_log" ] && grep -qE '^(FAIL|--- FAIL|WARNING: DATA RACE|panic:)' "$go_test_log"; then
		printf '\n==> what failed in go-test (the whole output is above)\n'
		grep -E '^(FAIL\s|--- FAIL|\s+--- FAIL|panic:|\s+testing.go:[0-9]+: race detected)|_test\.go:[0-9]+:' "$go_test_log" | head -n 60
		grep -m1 -A40 '^WARNING: DATA RACE' "$go_test_log"
	fi
	printf '\n==> Summary\n'
	printf '  %s\n' "${results[@]}"
	if [ "$failed" -eq 0 ]; then printf 'make test: all steps passed\n'; else printf 'make test: FAILED\n'; fi
}

# Reset each shard's e2e database and Redis DB so every Playwright run starts empty.
reset_e2e() {
	local k
	for ((k = 0; k < E2E_SHARDS; k++)); do
		(
			export $(e2e_shard_env "$k")
			psql -h 127.0.0.1 -U postgres -d postgres -w -X -q -v ON_ERROR_STOP=1 \
				-c "DROP DATABASE IF EXISTS $E2E_DATABASE WITH (FORCE)" \
				-c "CREATE DATABASE $E2E_DATABASE" &&
				[ "$(redis_cmd "SELECT $E2E_REDIS_DB" FLUSHDB | tail -1)" = OK ]
		) || return 1
	done
}

build() { npm run build:web && go build -o bin/perfilseguro ./cmd/perfilseguro && go build -o bin/casalista ./examples/casalista; }

# Playwright, its shards at once (each shard's output printed whole when all have ended), with
# the tests that passed only on their retry (CI allows one) named in the summary.
e2e_run() {
	local k status=0 outs=() pids=()
	(cd e2e && npx tsc -p .) || return 1
	for ((k = 0; k < E2E_SHARDS; k++)); do
		outs+=("$(mktemp)")
		(cd e2e && env $(e2e_shard_env "$k") npx playwright test --shard=$((k + 1))/"$E2E_SHARDS") >"${outs[k]}" 2>&1 &
		pids+=($!)
	done
	for ((k = 0; k < E2E_SHARDS; k++)); do
		wait "${pids[k]}" || status=1
		printf '\n==> playwright shard %d/%d (%s)\n' $((k + 1)) "$E2E_SHARDS" "$(e2e_shard_env "$k")"
		cat "${outs[k]}"
		if grep -qE '^ +[0-9]+ flaky$' "${outs[k]}"; then
			results+=("NOTE  playwright: passed on a retry: $(sed -n '/^ *[0-9]* flaky$/,/^ *[0-9]* passed/p' "${outs[k]}" | grep '›' | sed 's/^ *//; s/ *─*$//' | paste -sd ';' -)")
		fi
		rm -f "${outs[k]}"
	done
	return "$status"
}

# Without tools or services nothing else can run.
if ! step tools scripts/ensure-tools.sh --test ||
	! step services scripts/ensure-services.sh perfilseguro_test "$E2E_DATABASE"; then
	summary
	exit 1
fi

# Build first: go vet and go test compile the embedded web/dist, and Playwright runs the binary.
step build build
built=$?
step go-vet go vet ./...
# The alerting rules are valid and each alert fires (and stays quiet) as its unit tests say.
step alerts bash -c 'promtool check rules deploy/prometheus/alerts.yml && promtool test rules deploy/prometheus/alerts_test.yml deploy/prometheus/alerts_days_test.yml'
# The web app's generated API types must match the API's OpenAPI document.
step api-types scripts/api-types.sh --check
# Each package's tests one at a time (shared Postgres, Redis and timing), the binaries built at once.
step go-test bash -c 'scripts/go-test.sh -race 2>&1 | tee "$0"; exit "${PIPESTATUS[0]}"' "$go_test_log"
# Every fuzz target for a short run (make fuzz runs them longer).
step fuzz-short env FUZZTIME=${FUZZTIME:-3s} scripts/fuzz.sh
# The scale rig's short form: Sentinel and Cluster failover and a rolling restart under load, and
# one Postgres scenario (the leader's host lost under sign-ins, sign-ups and payments; postgres-kill's
# requests in flight at the kill wait 4-5 s for the postmaster's restart, at the edge of the rig's
# 5 s bound: docs/operations.md, "Postgres in the rig").
step scale-short env SCALE_SECONDS="${SCALE_SHORT_SECONDS:-20}" \
	SCALE_SCENARIOS="${SCALE_SHORT_SCENARIOS:-sentinel,cluster,rolling-restart,postgres-host}" \
	go test -count=1 -timeout 25m -v ./scale
step vitest npm run test:web
# The JavaScript SDK's API types are generated from the Go SDK's trimmed document (below): current?
step sdk-js bash -c 'npm run typecheck -w sdk/js && npm run test:sdk && tmp=$(mktemp --suffix .ts) &&
	npm run --silent generate -w sdk/js -- sdk/go/openapi.json "$tmp" >/dev/null && diff -u sdk/js/src/openapi.ts "$tmp" && rm -f "$tmp"'
# The Go SDK is a module of its own (sdk/go): its tests, and its trimmed OpenAPI document must be
# the server's partner operations as they are now (regenerate with `go generate .` in sdk/go).
step sdk-go bash -c 'cd sdk/go && go vet ./... && go test -count=1 ./... && tmp=$(mktemp) &&
	(cd ../.. && go run ./cmd/perfilseguro openapi) | go run ./internal/cmd/trimspec -out "$tmp" &&
	diff -u openapi.json "$tmp" && rm -f "$tmp"'
if [ "$built" -ne 0 ]; then
	skip playwright "build failed"
elif ! step reset-e2e reset_e2e; then
	skip playwright "reset-e2e failed"
elif ! step playwright e2e_run; then
	for log in e2e/server*.log; do
		[ -f "$log" ] || continue
		printf '\n==> last lines of %s (a perfilseguro dev process of the run)\n' "$log"
		tail -n 40 "$log"
	done
fi

summary
exit "$failed"
