#!/usr/bin/env bash
# Dependency audits: govulncheck for Go, npm audit for the shipped JavaScript.
# Both need their advisory databases (vuln.go.dev, the npm audit endpoint); where those
# cannot be reached the script says so and exits non-zero, and SECURITY.md records why.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
if ! command -v govulncheck >/dev/null; then
	go install golang.org/x/vuln/cmd/govulncheck@latest || { echo "audit: govulncheck could not be installed"; status=1; }
fi
if command -v govulncheck >/dev/null || [ -x "$(go env GOPATH)/bin/govulncheck" ]; then
	"$(command -v govulncheck || echo "$(go env GOPATH)/bin/govulncheck")" ./... || status=1
fi
npm audit --omit=dev || status=1
exit $status
