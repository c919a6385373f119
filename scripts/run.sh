#!/usr/bin/env bash
# What `make run` does after building: the product (`perfilseguro dev`: API + worker + scheduler
# on http://localhost:8080) and, beside it on a second origin, the demo partner's site
# "CasaLista (demo)" (examples/casalista on http://127.0.0.1:8081) that uses the drop-in.
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
trap 'kill $demo 2>/dev/null || true' EXIT
log "CasaLista (demo): http://$demo_addr"
./bin/perfilseguro dev
