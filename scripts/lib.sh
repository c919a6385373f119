# Shared helpers for the scripts in this folder. Source it; do not run it.

# log prints a progress line on stderr so it never mixes with command output.
log() { printf '==> %s\n' "$*" >&2; }

# die prints an error and stops the calling script.
die() {
	printf 'ERROR: %s\n' "$*" >&2
	exit 1
}

# as_root runs a command as root: directly when we are root, through sudo otherwise.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@" || die "'$*' needs root and sudo asked for a password; run it as root once"
	else
		die "'$*' needs root; run this script as root or install sudo"
	fi
}

# apt_install installs Debian packages, running apt-get update once per script.
# The lock timeout lets it wait for another apt run instead of failing.
_apt_updated=""
apt_install() {
	command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install $* by hand"
	if [ -z "$_apt_updated" ]; then
		log "apt-get update"
		as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
		_apt_updated=1
	fi
	log "apt-get install $*"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y -qq --no-install-recommends "$@" >/dev/null
}

# port_open succeeds when something accepts TCP connections on host:port.
port_open() {
	timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null
}

# redis_cmd sends inline commands (one per argument) to Redis over one connection,
# so "SELECT 5" applies to the commands after it, and prints one reply per line.
# It uses redis-cli when present and falls back to bash's /dev/tcp otherwise.
redis_cmd() {
	local host=${REDIS_HOST:-127.0.0.1} port=${REDIS_PORT:-6379}
	if command -v redis-cli >/dev/null 2>&1; then
		printf '%s\n' "$@" | redis-cli -h "$host" -p "$port"
		return
	fi
	(
		exec 3<>"/dev/tcp/$host/$port" || exit 1
		for c in "$@"; do printf '%s\r\n' "$c" >&3; done
		for c in "$@"; do
			IFS= read -r -t 5 line <&3 || exit 1
			line=${line%$'\r'}
			printf '%s\n' "${line#[+:]}"
		done
	)
}

# wait_until retries a command once a second until it succeeds or the time runs out.
wait_until() {
	local seconds=$1 what=$2
	shift 2
	local i
	for ((i = 0; i < seconds; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
	done
	die "$what did not answer within ${seconds}s (tried: $*)"
}
