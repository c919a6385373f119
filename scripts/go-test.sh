#!/usr/bin/env bash
# go test ./... with the packages' tests run one at a time (as `go test -p 1` did: they share one
# Postgres, one Redis and one machine's timing), but their test binaries built all at once:
# `-p 1` also serialised every compile and link, which was most of the step on a fresh clone.
#   scripts/go-test.sh -race                  every package, built with -race
#   scripts/go-test.sh -race -- ./api ./phone  only these packages
# Output as go test's package-list mode: "ok <package> <time>" for a pass, the whole output of a
# package that fails; exits non-zero when any package fails or does not build.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

flags=() patterns=()
while [ $# -gt 0 ]; do
	if [ "$1" = -- ]; then
		shift
		patterns=("$@")
		break
	fi
	flags+=("$1")
	shift
done
[ ${#patterns[@]} -gt 0 ] || patterns=(./...)

bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT

# Packages with tests, as "<import path> <folder>". A test binary is named after the last element
# of the import path; two packages of the same last element (the root package and
# cmd/perfilseguro) cannot share one -o folder, so those are built each into a folder of its own.
mapfile -t pkgs < <(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{.Dir}}{{end}}' "${patterns[@]}" | grep .)
declare -A count
for p in "${pkgs[@]}"; do
	base=${p%% *}
	base=${base##*/}
	count[$base]=$((${count[$base]:-0} + 1))
done
shared=() own=()
for p in "${pkgs[@]}"; do
	base=${p%% *}
	base=${base##*/}
	if [ "${count[$base]}" -eq 1 ]; then shared+=("${p%% *}"); else own+=("${p%% *}"); fi
done

# A package's t.Parallel tests mostly wait (on a worker's job, Postgres, Redis, a poll), so more of
# them at once than go test's default (GOMAXPROCS, 2 here) fills the wait: api took 116 s at 8
# where it took 402 s at 2, with the same tests passing.
parallel=${GO_TEST_PARALLEL:-8}

status=0
log "build ${#pkgs[@]} test binaries (${flags[*]})"
[ ${#shared[@]} -eq 0 ] || go test "${flags[@]}" -c -o "$bins/" "${shared[@]}" || status=1
for ip in "${own[@]}"; do
	mkdir -p "$bins/${ip//\//_}"
	go test "${flags[@]}" -c -o "$bins/${ip//\//_}/" "$ip" || status=1
done
[ "$status" -eq 0 ] || { log "a package did not build"; exit 1; }

for p in "${pkgs[@]}"; do
	ip=${p%% *} dir=${p#* }
	base=${ip##*/}
	bin=$bins/$base.test
	[ "${count[$base]}" -eq 1 ] || bin=$bins/${ip//\//_}/$base.test
	# A package whose tests are all in files for other platforms has no binary.
	[ -x "$bin" ] || continue
	out=$(mktemp)
	start=$(date +%s%N)
	(cd "$dir" && "$bin" -test.paniconexit0 -test.timeout=15m -test.parallel="$parallel") >"$out" 2>&1
	code=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	took=$(printf '%d.%03ds' $((ms / 1000)) $((ms % 1000)))
	if [ "$code" -eq 0 ]; then
		printf 'ok  \t%s\t%s\n' "$ip" "$took"
	else
		cat "$out"
		printf 'FAIL\t%s\t%s\n' "$ip" "$took"
		status=1
	fi
	rm -f "$out"
done
exit "$status"
