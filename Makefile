# Perfil Seguro. Run `make` to list the targets.
# The heavy lifting lives in scripts/ so each step can also run on its own.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

BIN := bin/perfilseguro

# Go tests and benchmarks run against the real local Postgres and Redis.
export TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
export TEST_REDIS_ADDR ?= 127.0.0.1:6379
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: help build run test bench bench-verify bench-consultations bench-sessions bench-passes bench-screening bench-overload bench-overload-split scale restore-drill fuzz audit clean

help: ## List the targets
	@echo 'Perfil Seguro. Usage: make <target>'
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  make %-6s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build the web app, then bin/perfilseguro (it embeds web/dist) and the demo partner bin/casalista
	npm run build:web
	go build -o $(BIN) ./cmd/perfilseguro
	go build -o bin/casalista ./examples/casalista

run: ## Install what is missing, start Postgres/Redis, migrate, serve http://localhost:8080 and the demo partner on http://127.0.0.1:8081
	scripts/ensure-tools.sh
	scripts/ensure-services.sh perfilseguro
	$(MAKE) --no-print-directory build
	scripts/run.sh

test: ## go vet, go test (real Postgres/Redis), vitest, Playwright; prints a summary
	@scripts/test.sh

bench: ## Run the Go benchmarks (once each) and the web-quality checks; append the results to BENCHMARKS.md
	scripts/bench.sh
	$(MAKE) --no-print-directory bench-verify
	$(MAKE) --no-print-directory bench-consultations
	$(MAKE) --no-print-directory bench-sessions
	$(MAKE) --no-print-directory bench-passes
	$(MAKE) --no-print-directory bench-overload
	scripts/web-quality.sh

bench-verify: ## wrk against the real `perfilseguro api` and a bare net/http baseline, alternating; append to BENCHMARKS.md
	scripts/ensure-tools.sh --bench
	scripts/ensure-services.sh perfilseguro_test
	BENCH_VERIFY=1 go test -count=1 -run '^TestVerifyFromOutside$$' -timeout 30m -v ./bench/verify

bench-consultations: ## wrk against GET /api/users/{id}/consultations of the real `perfilseguro api` (a month of lookups of people checked thousands of times) and a bare baseline; append to BENCHMARKS.md
	scripts/ensure-tools.sh --bench
	scripts/ensure-services.sh perfilseguro_test
	BENCH_CONSULTATIONS=1 go test -count=1 -run '^TestConsultationsFromOutside$$' -timeout 20m -v ./bench/verify

bench-sessions: ## wrk against GET /api/partner/v1/verification-sessions/{id} with a secret key (the real `perfilseguro api`) and the bare one-query server; append to BENCHMARKS.md
	scripts/ensure-tools.sh --bench
	scripts/ensure-services.sh perfilseguro_test
	BENCH_SESSIONS=1 go test -count=1 -run '^TestPartnerSessionsFromOutside$$' -timeout 20m -v ./bench/verify

bench-overload: ## Sign-ups past capacity: open loop at 0.5×–4× the measured capacity, as the Procfile runs the binary, as `make run` does and with Postgres 5 ms away, with and without admission control; append to BENCHMARKS.md
	scripts/ensure-services.sh perfilseguro_test
	BENCH_OVERLOAD=1 go test -count=1 -run '^TestOverload$$' -timeout 60m -v ./bench/load

bench-overload-split: ## bench-overload with the load generator alone on the last core and the server (API, worker, Postgres, Redis) on the others
	scripts/ensure-services.sh perfilseguro_test
	scripts/bench-overload-split.sh

bench-passes: ## Load-test GET /api/verify against a baseline and time pass builds; append to BENCHMARKS.md
	BENCH_PASSES=1 go test -count=1 -run '^TestVerifyLoad$$' -timeout 20m -v ./bench/passes

bench-screening: ## Screen people against a generated list of 100,000 entries (index memory, one screening's p50/p99, re-screening 100,000 people), then re-screen 100,000 files in the real worker while wrk measures the API's public lookup p99 with and without it; append to BENCHMARKS.md
	scripts/ensure-tools.sh --bench
	scripts/ensure-services.sh perfilseguro_test
	BENCH_SCREENING=1 go test -count=1 -run '^(TestScreeningBenchmark|TestRescreenBesideTheAPI)$$' -timeout 60m -v ./bench/screening

scale: ## Failover under load: Redis (sentinel, cluster, rolling-restart; 200 sign-ins/s) and a Patroni Postgres cluster (postgres-kill, postgres-host, postgres-switchover, postgres-sync-cost; 200 sign-ins/s, one in ten a sign-up, and payments). SCALE_SCENARIOS=a,b picks some (default all), SCALE_SECONDS each (default 60); append to BENCHMARKS.md
	scripts/ensure-tools.sh --test
	scripts/ensure-services.sh perfilseguro_test
	SCALE_SECONDS=$${SCALE_SECONDS:-60} SCALE_SCENARIOS="$(SCALE_SCENARIOS)" SCALE_RECORD=1 go test -count=1 -timeout 60m -v ./scale

restore-drill: ## pgBackRest restore drill: full backup, more writes, lose the cluster, restore to a point in time, compare counts and checksums
	scripts/restore-drill.sh

fuzz: ## Run every Go fuzz target for FUZZTIME each (default 10s)
	scripts/fuzz.sh

audit: ## govulncheck and npm audit --omit=dev (need their advisory databases online)
	scripts/audit.sh

clean: ## Remove build output and test artifacts
	rm -rf bin e2e/test-results e2e/playwright-report e2e/screenshots e2e/server.log e2e/server-*.log
	git clean -fdXq -- web/dist
