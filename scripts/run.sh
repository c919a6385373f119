#!/usr/bin/env bash
# What `make run` does after building: the product (`perfilseguro dev`: API + worker + scheduler
# on http://localhost:8080) and, beside it on a second origin, the demo partner's site
# "CasaLista (demo)" (examples/casalista on http://127.0.0.1:8081) that uses the drop-in.
# TRACES=1 also starts the local trace viewer (`perfilseguro traces`, http://127.0.0.1:4318/) and
# sends it every trace, unless OTEL_EXPORTER_OTLP_ENDPOINT already names a collector.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

demo_addr=${CASALISTA_ADDR:-127.0.0.1:8081}
./bin/perfilseguro migrate
scripts/demo-partner.sh "http://$demo_addr"
set -a
# shellcheck source=/dev/null
source .dev/casalista.env
set +a
CASALISTA_ADDR=$demo_addr PERFILSEGURO_URL=${PUBLIC_BASE_URL:-http://localhost:8080} ./bin/casalista &
demo=$!
viewer=
trap 'kill $demo $viewer 2>/dev/null || true' EXIT
if [ "${TRACES:-}" = 1 ] && [ -z "${OTEL_EXPORTER_OTLP_ENDPOINT:-}" ]; then
	./bin/perfilseguro traces -addr 127.0.0.1:4318 &
	viewer=$!
	export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318
	log "Trazas: http://127.0.0.1:4318/"
fi
log "CasaLista (demo): http://$demo_addr"
./bin/perfilseguro dev
