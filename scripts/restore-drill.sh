#!/usr/bin/env bash
# Restore drill: proves that a pgBackRest backup of Perfil Seguro's database, plus the WAL
# archived after it, brings the database back to a chosen point in time (PITR).
#
# On a private PostgreSQL cluster in a temporary directory (a free port, its own socket
# directory, its own pgBackRest configuration, repository, logs and locks; nothing shared with
# the machine's Postgres or another drill) it:
#   1. migrates the schema with the real binary and loads a sample (100,000 people, their
#      consents, public lookups, payments and audit events);
#   2. creates the stanza, checks archiving and takes a timed full backup;
#   3. writes more after the backup (1,000 people and their rows, level changes), records row
#      counts of every table and checksums, and marks the point with pg_create_restore_point;
#   4. writes past the point (rows the restore must NOT bring back) and archives it all;
#   5. kills the cluster (immediate stop) and deletes its data directory;
#   6. restores to the restore point, starts, waits for recovery to end and promote;
#   7. compares every count and checksum, and exits non-zero on any difference.
#
# Usage: scripts/restore-drill.sh   (as root or not; apt installs pgbackrest when missing)
# Environment: DRILL_USERS (default 100000), DRILL_KEEP=1 keeps the temporary directory.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

USERS=${DRILL_USERS:-100000}
STANZA=perfilseguro
DB=perfilseguro

# --- tools ------------------------------------------------------------------------------------

command -v go >/dev/null 2>&1 || die "Go is needed to build cmd/perfilseguro (version in go.mod)"
pg_bin() {
	local d
	for d in /usr/lib/postgresql/15/bin $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -rV); do
		[ -x "$d/initdb" ] && [ -x "$d/psql" ] && {
			echo "$d"
			return 0
		}
	done
	return 1
}
PGBIN=$(pg_bin) || {
	apt_install postgresql
	PGBIN=$(pg_bin) || die "no PostgreSQL server binaries under /usr/lib/postgresql after installing postgresql"
}
command -v pgbackrest >/dev/null 2>&1 || apt_install pgbackrest
PGBACKREST=$(command -v pgbackrest)

ROOT=""
[ "$(id -u)" -eq 0 ] && ROOT=1
if [ -n "$ROOT" ]; then
	id postgres >/dev/null 2>&1 || die "user postgres not found (it comes with the postgresql package)"
fi

# as_pg runs a command as the owner of the cluster: user postgres when we are root (initdb and
# the server refuse to run as root, see faults/postgres_test.go), ourselves otherwise.
as_pg() {
	if [ -n "$ROOT" ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# --- the temporary home of the drill -----------------------------------------------------------

TMP=$(mktemp -d "${TMPDIR:-/tmp}/restore-drill.XXXXXX")
DATA=$TMP/data   # the cluster's data directory (pg1-path)
RUN=$TMP/run     # its Unix socket directory (pg1-socket-path)
REPO=$TMP/repo   # the pgBackRest repository (repo1-path)
CONF=$TMP/pgbackrest.conf
PGLOG=$TMP/postgres.log
mkdir -p "$RUN" "$REPO" "$TMP/log" "$TMP/lock" "$TMP/bin" "$TMP/app"
if [ -n "$ROOT" ]; then chown -R postgres: "$TMP"; fi

cleanup() {
	local rc=$?
	if [ -f "$DATA/postmaster.pid" ]; then
		as_pg "$PGBIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	if [ "$rc" -ne 0 ]; then
		printf '\n--- last lines of %s ---\n' "$PGLOG" >&2
		tail -n 20 "$PGLOG" >&2 2>/dev/null || true
		printf -- '--- last lines of the pgBackRest logs ---\n' >&2
		tail -n 20 "$TMP"/log/*.log >&2 2>/dev/null || true
	fi
	if [ "${DRILL_KEEP:-}" = 1 ]; then
		log "kept $TMP"
	else
		rm -rf "$TMP"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port prints a TCP port nothing listens on, below the kernel's ephemeral range, so an
# outgoing connection of another program cannot take it while the cluster is down.
free_port() {
	local lo=32768 p _
	read -r lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
	[ "$lo" -gt 11000 ] || lo=61000
	for _ in $(seq 1 100); do
		p=$((10000 + RANDOM % (lo - 10000)))
		port_open 127.0.0.1 "$p" || {
			echo "$p"
			return 0
		}
	done
	die "no free port found"
}
PORT=$(free_port)

DSN="postgres://postgres@127.0.0.1:$PORT/$DB?sslmode=disable"

# Milliseconds since the epoch, and a duration in seconds with one decimal.
now_ms() {
	local t=${EPOCHREALTIME//[.,]/}
	echo $((t / 1000))
}
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f s", ms / 1000 }'; }

psql_db() { "$PGBIN/psql" -X -q -tA -v ON_ERROR_STOP=1 -h "$RUN" -p "$PORT" -U postgres -d "$DB" "$@"; }
pgbr() { as_pg "$PGBACKREST" --config="$CONF" --stanza="$STANZA" "$@"; }
pg_start() { as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$PGLOG" -o "-p $PORT" -w -t 600 start >/dev/null; }

# --- 0. the cluster and its pgBackRest configuration -------------------------------------------

log "cluster in $TMP on port $PORT ($PGBIN, $("$PGBACKREST" version))"
as_pg "$PGBIN/initdb" -D "$DATA" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null

# Appended to postgresql.conf, so the backup carries them and the restored cluster has them too.
cat >>"$DATA/postgresql.conf" <<EOF

# --- restore drill ---
listen_addresses = '127.0.0.1'
unix_socket_directories = '$RUN'
# replica: the WAL carries everything a restore (or a standby) needs to replay.
wal_level = replica
# Every finished 16 MB WAL segment is handed to archive_command; the segment is recycled only
# once the command succeeded, so no committed change can be missing from the archive.
archive_mode = on
# pgBackRest copies the segment into the repository (compressed, with a checksum). --config
# because this drill's configuration is not the machine's /etc/pgbackrest/pgbackrest.conf.
archive_command = '$PGBACKREST --config=$CONF --stanza=$STANZA archive-push %p'
EOF

cat >"$CONF" <<EOF
[global]
# Where backups and archived WAL live. Here a directory; in production object storage
# (repo1-type=s3 with repo1-s3-bucket, -endpoint, -region, keys from the environment).
repo1-path=$REPO
# Keep two full backups (and the differentials and WAL they need); an older one is expired
# after the next full backup completes, so a restore always has a fallback.
repo1-retention-full=2
# Zstandard (2.45 has it when built with libzstd, as Debian's is): compresses about as well as
# gzip at a fraction of the CPU. level 3 is its default.
compress-type=zst
compress-level=3
# Two processes copy and compress files in parallel during backup and restore (this machine
# has two cores; in production use about half the database host's cores).
process-max=2
# Ask Postgres for an immediate checkpoint when the backup starts instead of waiting for the
# next scheduled one (up to checkpoint_timeout, 5 minutes by default).
start-fast=y
# Logs and locks in the drill's directory, so nothing touches /var/log/pgbackrest or
# /tmp/pgbackrest and two drills do not lock each other out.
log-path=$TMP/log
lock-path=$TMP/lock
log-level-console=warn
log-level-file=detail

[$STANZA]
# The cluster to back up: its data directory, and how to reach it (port, socket directory,
# superuser) for pg_backup_start/stop and the checks.
pg1-path=$DATA
pg1-port=$PORT
pg1-socket-path=$RUN
pg1-user=postgres
EOF
if [ -n "$ROOT" ]; then chown postgres: "$CONF"; fi

pg_start
"$PGBIN/createdb" -h "$RUN" -p "$PORT" -U postgres "$DB"

# --- 1. schema and sample --------------------------------------------------------------------

log "go build ./cmd/perfilseguro"
nice -n 15 go build -o "$TMP/bin/perfilseguro" ./cmd/perfilseguro
log "perfilseguro migrate"
APP_ENV=test DATA_DIR="$TMP/app" DATABASE_URL="$DSN" "$TMP/bin/perfilseguro" migrate >"$TMP/migrate.log" 2>&1 ||
	die "migrate failed: $(tail -n 5 "$TMP/migrate.log")"

# add_people FIRST LAST NAME: people FIRST..LAST with a consent, public lookups (4 each),
# payments (3 in 10 paid a plan) and audit events, shaped like what the application writes.
add_people() {
	psql_db -v first="$1" -v last="$2" -v name="$3" <<'SQL'
BEGIN;
INSERT INTO users (nombre, email, phone_number, origen, vigencia, fecha_validacion, id_validado,
                   is_phone_verified, is_email_verified, biometric_verified, verification_level,
                   verification_score, created_at)
SELECT :'name' || ' ' || i || ' ' || (ARRAY['García','Hernández','López','Martínez','Pérez','Sánchez'])[1 + i % 6],
       'persona' || i || '@example.mx', '+5255' || lpad(i::text, 8, '0'),
       (ARRAY['CasaLista','VentaDirecta','Broker','Otro'])[1 + i % 4],
       (ARRAY[1,5,10])[1 + i % 3]::smallint,
       CASE WHEN i % 4 > 0 THEN now() - (i % 700) * interval '1 day' END,
       'PS-' || to_char(i / 1000000, 'FM0000') || '-' || to_char((i / 100) % 10000, 'FM0000') || '-' || to_char(i % 100, 'FM00'),
       true, i % 4 > 1, i % 4 > 1, (i % 4)::smallint,
       CASE WHEN i % 4 > 1 THEN 80 + (i % 2000) / 100.0 END,
       now() - (i % 900) * interval '1 day'
FROM generate_series(:first::bigint, :last::bigint) AS i;
INSERT INTO consents (user_id, notice_version, purpose, granted, ip_address, user_agent)
SELECT id, '2024-06', 'privacy_notice', true, '10.0.' || (id % 250) || '.' || (id % 200), 'Mozilla/5.0 (Linux; Android 14)'
FROM users WHERE id BETWEEN :first AND :last;
INSERT INTO verification_logs (user_id, id_validado, scanned_at, ip_address, user_agent, access_type, granted, request_id)
SELECT u.id, u.id_validado, now() - (g % 2000) * interval '1 hour', '189.203.' || (g % 250) || '.' || (g % 200),
       'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5)', (ARRAY['public_page','qr','partner_api'])[1 + g % 3], true,
       'req-' || u.id || '-' || g
FROM users u CROSS JOIN generate_series(1, 4) AS g WHERE u.id BETWEEN :first AND :last;
INSERT INTO payments (user_id, plan, years, amount_centavos, provider, status, idempotency_key,
                      checkout_session_id, payment_intent_id, payment_method, paid_at, consumed_at)
SELECT id, CASE WHEN id % 2 = 0 THEN 'one_year' ELSE 'five_years' END, CASE WHEN id % 2 = 0 THEN 1 ELSE 5 END,
       CASE WHEN id % 2 = 0 THEN 49900 ELSE 199900 END, 'stripe', 'paid', 'pay-' || id, 'cs_test_' || id,
       'pi_' || md5(id::text), CASE WHEN id % 5 = 0 THEN 'oxxo' ELSE 'card' END, now() - (id % 300) * interval '1 day', now()
FROM users WHERE id BETWEEN :first AND :last AND id % 10 < 3;
INSERT INTO audit_events (at, actor_kind, actor_id, actor_label, action, target_kind, target_id, ip, user_agent)
SELECT now() - (id % 500) * interval '1 hour', 'person', id, id_validado, 'profile.shared', 'profile', id_validado,
       '189.203.' || (id % 250) || '.' || (id % 200), 'Mozilla/5.0'
FROM users WHERE id BETWEEN :first AND :last;
COMMIT;
SQL
}

log "loading $USERS people and their rows"
t0=$(now_ms)
add_people 1 "$USERS" Persona
psql_db -c "VACUUM ANALYZE" >/dev/null
load_ms=$(($(now_ms) - t0))

# --- 2. stanza, check, full backup -----------------------------------------------------------

log "pgbackrest stanza-create, check"
pgbr stanza-create
pgbr check
log "pgbackrest backup --type=full"
t0=$(now_ms)
pgbr --type=full backup
backup_ms=$(($(now_ms) - t0))

# --- 3. writes after the backup, then the restore point --------------------------------------

after_first=$((USERS + 1)) after_last=$((USERS + 1000))
log "writing after the backup: people $after_first..$after_last, level changes"
add_people "$after_first" "$after_last" Persona
# Ten sampled people (ids 5050, 10100, …) pass the biometric check after the backup.
psql_db -c "UPDATE users SET verification_level = 3, biometric_verified = true, verification_score = 97.50,
	updated_at = now() WHERE id IN (SELECT g * 5050 FROM generate_series(1, 10) AS g)" >/dev/null

# Counts of every table, one "table count" line each (exact counts through query_to_xml).
COUNTS_SQL="SELECT table_name || ' ' || (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM public.%I', table_name), false, true, '')))[1]::text
FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
# The sample: 20 profiles spread over the ids (5050, 10100, …, 101000: the last one written
# after the backup, ten of them changed after it), as the public record shows them.
SAMPLE_SQL="SELECT md5(string_agg(concat_ws('|', id_validado, nombre, verification_level), E'\n' ORDER BY id_validado)), count(*)
FROM users WHERE id IN (SELECT g * 5050 FROM generate_series(1, 20) AS g)"
# And every column of every person, for good measure.
USERS_SQL="SELECT md5(string_agg(u::text, E'\n' ORDER BY u.id)) FROM users AS u"

counts_before=$(psql_db -c "$COUNTS_SQL")
sample_before=$(psql_db -c "$SAMPLE_SQL")
users_before=$(psql_db -c "$USERS_SQL")
db_size=$(psql_db -c "SELECT pg_size_pretty(pg_database_size('$DB'))")
target_lsn=$(psql_db -c "SELECT pg_create_restore_point('drill')")
log "restore point 'drill' at $target_lsn"
switch_lsn=$(psql_db -c "SELECT pg_switch_wal()")
segment=$(psql_db -c "SELECT pg_walfile_name('$switch_lsn')")

# --- 4. past the point: these must not come back ---------------------------------------------

past_first=$((USERS + 1001)) past_last=$((USERS + 1500))
log "writing past the restore point: people $past_first..$past_last, a level lowered"
add_people "$past_first" "$past_last" "Tras el punto"
psql_db -c "UPDATE users SET verification_level = 0, updated_at = now() WHERE id = 5050" >/dev/null
# check switches WAL once more and waits until that segment is archived: everything up to here
# (the restore point's segment first) is in the repository.
pgbr check
archived=$(psql_db -c "SELECT last_archived_wal FROM pg_stat_archiver")
[[ "$archived" > "$segment" || "$archived" == "$segment" ]] || die "segment $segment not archived (last: $archived)"
rows_at_end=$(psql_db -c "SELECT count(*) FROM users")

# --- 5. disaster -----------------------------------------------------------------------------

log "killing the cluster and deleting $DATA"
as_pg "$PGBIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null
rm -rf "$DATA"

# --- 6. restore to the point, recover, promote -----------------------------------------------

# As on a new machine: the old port may have been taken meanwhile, so pick one again.
PORT=$(free_port)
sed -i "s/^pg1-port=.*/pg1-port=$PORT/" "$CONF"

log "pgbackrest restore --type=name --target=drill --target-action=promote"
as_pg mkdir -m 700 "$DATA"
t0=$(now_ms)
pgbr --type=name --target=drill --target-action=promote restore
restore_ms=$(($(now_ms) - t0))

log "starting the restored cluster; waiting for recovery to end"
t0=$(now_ms)
pg_start
for _ in $(seq 1 600); do
	[ "$(psql_db -c 'SELECT pg_is_in_recovery()')" = f ] && break
	sleep 0.5
done
[ "$(psql_db -c 'SELECT pg_is_in_recovery()')" = f ] || die "recovery did not end within 300 s"
recovery_ms=$(($(now_ms) - t0))
stop_line=$(grep -m1 'recovery stopping' "$PGLOG" || echo 'LOG:  no recovery target reached')
timeline=$(psql_db -c "SELECT ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int")

# --- 7. compare ------------------------------------------------------------------------------

counts_after=$(psql_db -c "$COUNTS_SQL")
sample_after=$(psql_db -c "$SAMPLE_SQL")
users_after=$(psql_db -c "$USERS_SQL")
past_rows=$(psql_db -c "SELECT count(*) FROM users WHERE nombre LIKE 'Tras el punto%'")
# The restored cluster archives again (its new timeline) into the same repository.
pgbr check

info=$(pgbr info)
backup_line=$(grep -m1 'database size' <<<"$info" | sed 's/^ *//')
repo_line=$(grep -m1 'backup set size' <<<"$info" | sed 's/^ *//')
repo_backup=$(du -sh "$REPO/backup" | cut -f1)
repo_archive=$(du -sh "$REPO/archive" | cut -f1)

mismatch=0
printf '\nrestore drill (pgBackRest %s, PostgreSQL %s)\n' "$("$PGBACKREST" version | awk '{print $2}')" \
	"$(psql_db -c 'SHOW server_version')"
printf '  %-34s %s\n' \
	"database $DB size" "$db_size (at the restore point)" \
	"sample load ($USERS people + rows)" "$(secs "$load_ms")" \
	"full backup time" "$(secs "$backup_ms")" \
	"backup (pgbackrest info)" "$backup_line" \
	"" "$repo_line" \
	"repository on disk" "backup $repo_backup, WAL archive $repo_archive" \
	"restore time (pgbackrest restore)" "$(secs "$restore_ms")" \
	"recovery time (start to promoted)" "$(secs "$recovery_ms") — ${stop_line#*LOG:  }" \
	"timeline after promotion" "$timeline" \
	"users at the end, before the loss" "$rows_at_end (the last 500 were written past the point)"
printf '\n  %-28s %12s %12s\n' table "at target" restored
while read -r table n; do
	m=$(awk -v t="$table" '$1 == t { print $2 }' <<<"$counts_after")
	flag=""
	if [ "$n" != "$m" ]; then
		flag="  MISMATCH"
		mismatch=1
	fi
	[ "$n" = 0 ] && [ "$m" = 0 ] && continue
	printf '  %-28s %12s %12s%s\n' "$table" "$n" "${m:-missing}" "$flag"
done <<<"$counts_before"
[ "$(wc -l <<<"$counts_before")" = "$(wc -l <<<"$counts_after")" ] || mismatch=1
printf '  (tables with no rows on either side not shown; %s tables compared)\n\n' "$(wc -l <<<"$counts_before")"
printf '  %-34s %s\n' "sample of 20 profiles (md5|rows)" "before $sample_before, after $sample_after"
printf '  %-34s %s\n' "every column of every person" "before $users_before, after $users_after"
printf '  %-34s %s\n' "rows written past the point" "$past_rows restored (want 0)"
[ "$sample_before" = "$sample_after" ] || mismatch=1
[ "$users_before" = "$users_after" ] || mismatch=1
[ "$past_rows" = 0 ] || mismatch=1
if [ "$mismatch" -ne 0 ]; then
	printf '\nrestore drill: MISMATCH\n'
	exit 1
fi
printf '\nrestore drill: match\n'
