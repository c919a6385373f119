#!/usr/bin/env bash
# Makes sure the development database has the demo partner "CasaLista (demo)" (examples/casalista)
# and writes its test keys and webhook secret to .dev/casalista.env for the demo to read.
#   scripts/demo-partner.sh [ORIGIN]      ORIGIN defaults to http://127.0.0.1:8081
# The keys are made by `perfilseguro partner add` like any partner's and shown only then, so the
# file is the demo's only copy: when it is missing or its key no longer works, the old demo
# partner is switched off and a new one made. DATABASE_URL as for the other commands.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

origin=${1:-http://127.0.0.1:8081}
env_file=.dev/casalista.env
db=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/perfilseguro?sslmode=disable}
name='CasaLista (demo)'

key_works() {
	local key
	key=$(sed -n 's/^CASALISTA_SECRET_KEY=//p' "$env_file" 2>/dev/null)
	[ -n "$key" ] || return 1
	[ "$(psql "$db" -XAtq -v key="$key" -v origin="$origin" <<'SQL'
SELECT count(*) FROM partner_keys k JOIN api_keys a ON a.id = k.partner_id
WHERE k.token_hash = encode(sha256(convert_to(:'key', 'UTF8')), 'hex') AND k.revoked_at IS NULL
  AND a.is_active AND a.domain = :'origin';
SQL
)" = 1 ]
}

if key_works; then
	log "demo partner ready ($env_file)"
	exit 0
fi
psql "$db" -XAtq -v ON_ERROR_STOP=1 -v name="$name" >/dev/null <<'SQL'
UPDATE api_keys SET is_active = false WHERE partner_name = :'name';
SQL
out=$(./bin/perfilseguro partner add -name "$name" -domain "$origin" -webhook "$origin/webhooks/perfilseguro" \
	-created-by scripts/demo-partner.sh -notes 'Sitio de ejemplo (examples/casalista)')
pk=$(awk '/^publishable keys/ {p=1; next} p && $1 == "test" {print $2; exit}' <<<"$out")
sk=$(awk '/^secret keys/ {p=1; next} p && $1 == "test" {print $2; exit}' <<<"$out")
whsec=$(grep -o 'whsec_[0-9a-f]*' <<<"$out")
[ -n "$pk" ] && [ -n "$sk" ] && [ -n "$whsec" ] || die "could not read the demo partner's keys from: $out"
mkdir -p .dev
umask 077
cat >"$env_file" <<ENV
CASALISTA_PUBLISHABLE_KEY=$pk
CASALISTA_SECRET_KEY=$sk
CASALISTA_WEBHOOK_SECRET=$whsec
ENV
log "demo partner created: $name on $origin (keys in $env_file)"
