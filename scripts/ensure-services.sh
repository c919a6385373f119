#!/usr/bin/env bash
# Make sure Postgres (127.0.0.1:5432) and Redis (127.0.0.1:6379) run locally and
# that the databases named as arguments exist (default: perfilseguro).
# Idempotent: where both already run it only creates missing databases.
# On a fresh Debian machine (as root, or with passwordless sudo) it installs and
# starts them. Local development only: it sets Postgres to trust local TCP logins.
#
#   scripts/ensure-services.sh [database ...]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

PG_HOST=127.0.0.1 PG_PORT=5432 PG_USER=postgres
REDIS_HOST=127.0.0.1 REDIS_PORT=${REDIS_PORT:-6379} # the port is overridable to test the start path
WAIT_SECONDS=${WAIT_SECONDS:-60}
if [ "$#" -gt 0 ]; then databases=("$@"); else databases=(perfilseguro); fi

# psql_cmd runs one statement as postgres over TCP, never prompting for a password.
psql_cmd() {
	psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres -w -X -q -tA -v ON_ERROR_STOP=1 -c "$1"
}

# pg_cluster prints "<version> main" for the first local cluster, if there is one.
pg_cluster() {
	local version
	version=$(ls /etc/postgresql 2>/dev/null | sort -V | head -1)
	[ -n "$version" ] && echo "$version main"
}

# trust_local_tcp puts trust rules for 127.0.0.1 and ::1 first in pg_hba.conf
# (first match wins) and reloads the cluster, so user postgres needs no password.
trust_local_tcp() {
	local cluster hba
	cluster=$(pg_cluster) || die "Postgres rejects passwordless logins and no local cluster was found in /etc/postgresql"
	hba="/etc/postgresql/${cluster% *}/main/pg_hba.conf"
	if ! as_root grep -q '^host all all 127.0.0.1/32 trust # perfilseguro' "$hba"; then
		log "trusting local TCP logins in $hba (development only)"
		as_root sed -i '1i host all all 127.0.0.1/32 trust # perfilseguro dev\nhost all all ::1/128 trust # perfilseguro dev' "$hba"
	fi
	# shellcheck disable=SC2086 # "<version> main" is two arguments
	as_root pg_ctlcluster --skip-systemctl-redirect $cluster reload
}

ensure_postgres() {
	if ! port_open "$PG_HOST" "$PG_PORT"; then
		log "Postgres is not reachable on $PG_HOST:$PG_PORT; starting it"
		command -v pg_ctlcluster >/dev/null 2>&1 && [ -n "$(pg_cluster)" ] || apt_install postgresql
		local cluster
		cluster=$(pg_cluster) || die "no Postgres cluster in /etc/postgresql after installing postgresql"
		# Debian's package may have started the new cluster already.
		if ! port_open "$PG_HOST" "$PG_PORT"; then
			# shellcheck disable=SC2086
			as_root pg_ctlcluster --skip-systemctl-redirect $cluster start
		fi
	fi
	command -v psql >/dev/null 2>&1 || apt_install postgresql-client
	wait_until "$WAIT_SECONDS" "Postgres on $PG_HOST:$PG_PORT" pg_isready -q -h "$PG_HOST" -p "$PG_PORT"
	if ! psql_cmd 'SELECT 1' >/dev/null 2>&1; then
		trust_local_tcp
		wait_until "$WAIT_SECONDS" "Postgres login as $PG_USER without password" psql_cmd 'SELECT 1'
	fi
	log "Postgres ready on $PG_HOST:$PG_PORT"
}

redis_pong() { [ "$(redis_cmd PING 2>/dev/null)" = PONG ]; }

ensure_redis() {
	if ! port_open "$REDIS_HOST" "$REDIS_PORT"; then
		log "Redis is not reachable on $REDIS_HOST:$REDIS_PORT; starting it"
		command -v redis-server >/dev/null 2>&1 || apt_install redis-server
		# Debian's package may have started its own server on the same port already.
		if ! port_open "$REDIS_HOST" "$REDIS_PORT"; then
			redis-server --daemonize yes --bind "$REDIS_HOST" --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
		fi
	fi
	wait_until "$WAIT_SECONDS" "Redis on $REDIS_HOST:$REDIS_PORT" redis_pong
	log "Redis ready on $REDIS_HOST:$REDIS_PORT"
}

ensure_databases() {
	local db
	for db in "$@"; do
		[[ $db =~ ^[a-z_][a-z0-9_]*$ ]] || die "database name '$db' must be lowercase letters, digits and _"
		if [ "$(psql_cmd "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
			log "creating database $db"
			psql_cmd "CREATE DATABASE $db"
		fi
	done
}

ensure_postgres
ensure_redis
ensure_databases "${databases[@]}"
