#!/usr/bin/env bash
# Make sure the tools to build and run Perfil Seguro are present and the npm
# workspaces (web, e2e) are installed. Idempotent and quick when all is in place.
#
#   scripts/ensure-tools.sh          Go, Node/npm, node_modules
#   scripts/ensure-tools.sh --test   also Chromium (Playwright), php-cli with cURL, a C compiler (go test -race),
#                                    poppler-utils (pdftotext, pdftoppm: the expediente's PDF test),
#                                    redis-sentinel (the scale rig, whose short form runs in make test),
#                                    patroni, etcd-server, etcd-client, haproxy (its Postgres scenarios),
#                                    prometheus for its promtool (the alerting rules' checks and tests)
#   scripts/ensure-tools.sh --bench  also wrk and vegeta, the load generators of make bench-verify
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

for_tests=""
for_bench=""
case "${1:-}" in
--test) for_tests=1 ;;
--bench) for_bench=1 ;;
"") ;;
*) die "usage: $0 [--test|--bench]" ;;
esac

# Go cannot come from apt (Debian's is too old for go.mod), so only check for it.
command -v go >/dev/null 2>&1 ||
	die "Go is not installed or not on PATH; install Go $(sed -n 's/^go //p' go.mod) from https://go.dev/dl/ and retry"

# Node and npm: Debian's packages are enough to build the web app.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	apt_install nodejs npm
fi

# Test-only system packages, installed together in one apt run.
if [ -n "$for_tests" ]; then
	missing=()
	[ -x /usr/bin/chromium ] || missing+=(chromium)
	command -v php >/dev/null 2>&1 || missing+=(php-cli)
	# The PHP sample of /integration uses cURL, a separate Debian package.
	php -r 'exit(function_exists("curl_init") ? 0 : 1);' >/dev/null 2>&1 || missing+=(php-curl)
	command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
	# The expediente's PDF test reads its text with pdftotext and draws page 1 with pdftoppm.
	command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
	# The scale rig runs its own Redis primary, replica, sentinels and cluster nodes.
	command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
	command -v redis-sentinel >/dev/null 2>&1 || missing+=(redis-sentinel)
	if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
	# And its Postgres scenarios a Patroni cluster: three Postgres (the server packages are
	# already here for the local database), each run by patroni, three etcd members, HAProxy.
	daemons=()
	command -v patroni >/dev/null 2>&1 || daemons+=(patroni)
	command -v etcd >/dev/null 2>&1 || daemons+=(etcd-server)
	command -v etcdctl >/dev/null 2>&1 || daemons+=(etcd-client)
	[ -x /usr/sbin/haproxy ] || command -v haproxy >/dev/null 2>&1 || daemons+=(haproxy)
	# promtool checks and unit-tests deploy/prometheus/alerts.yml; Debian ships it in prometheus,
	# whose server would start as a service (on 9090) like etcd: installed with them, kept stopped.
	command -v promtool >/dev/null 2>&1 || daemons+=(prometheus)
	if [ "${#daemons[@]}" -gt 0 ]; then
		# Debian's etcd-server, haproxy and prometheus would start system services (etcd on
		# 2379/2380). The rig runs its own on free loopback ports and needs none: a policy-rc.d
		# answering 101 ("not allowed") keeps the maintainer scripts from starting them, unless one
		# is already there.
		if [ -e /usr/sbin/policy-rc.d ]; then
			apt_install "${daemons[@]}"
		else
			as_root sh -c "printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d"
			trap 'as_root rm -f /usr/sbin/policy-rc.d' EXIT
			apt_install "${daemons[@]}"
			as_root rm -f /usr/sbin/policy-rc.d
			trap - EXIT
		fi
	fi
fi

if [ -n "$for_bench" ] && ! command -v vegeta >/dev/null 2>&1 && [ ! -x "$(go env GOPATH)/bin/vegeta" ]; then
	# vegeta: the constant-rate (open-loop) generator of make bench-verify, from the module proxy
	go install github.com/tsenart/vegeta/v12@v12.13.0
fi
if [ -n "$for_bench" ] && ! command -v wrk >/dev/null 2>&1; then
	apt_install wrk
fi

# npm workspaces: install when node_modules is missing or older than the lock file
# or any workspace manifest. npm writes node_modules/.package-lock.json on install.
# Playwright drives the system Chromium, so never download its browsers.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
stamp=node_modules/.package-lock.json
stale=""
if [ ! -f "$stamp" ]; then
	stale=1
else
	for manifest in package.json package-lock.json web/package.json e2e/package.json; do
		if [ -f "$manifest" ] && [ "$manifest" -nt "$stamp" ]; then stale=1; fi
	done
fi
if [ -n "$stale" ]; then
	if [ -f package-lock.json ]; then
		log "npm ci"
		npm ci --no-audit --no-fund
	else
		log "npm install (no package-lock.json yet)"
		npm install --no-audit --no-fund
	fi
	touch "$stamp"
fi
log "tools ready: $(go version | cut -d' ' -f3), node $(node --version), npm $(npm --version 2>/dev/null)"
