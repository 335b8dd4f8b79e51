#!/usr/bin/env bash
# Time to the first ID, per backend: `./snowid generate -n 1` timed from the command's start (so
# it includes the JVM's start and the client's connection), with the wait it announced on stderr.
#   fresh:     a registry snowid has no state in (a new lease directory, Redis prefix, SQL table)
#   namespace: a new namespace in a registry in use
#   restart:   the same command again: its instance takes its released id back
# Needs the local PostgreSQL, MariaDB and Redis (.ci/services.sh). Default lease limits.
# Usage: bench/first-id.sh [ROUNDS]   (default 3; prints a Markdown table, medians)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${1:-3}"
./snowid generate -n 1 --node static:worker=1,datacenter=1 >/dev/null # build once, untimed

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# one run: prints "SECONDS<TAB>ANNOUNCED WAIT or -"
run() {
  local start end err wait
  start=$(date +%s.%N)
  err="$(./snowid generate -n 1 --node "$1" 2>&1 >/dev/null)"
  end=$(date +%s.%N)
  wait="$(sed -n 's/^snowid: waiting \([0-9.]*s\):.*/\1/p' <<<"$err")"
  printf '%.2f\t%s\n' "$(echo "$end - $start" | bc)" "${wait:--}"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# the node URI of backend $1 for registry $2 and namespace $3
uri() {
  case $1 in
    file) echo "file:$work/$2?namespace=$3" ;;
    redis) echo "redis://127.0.0.1:6379?prefix=$2&namespace=$3" ;;
    postgres) echo "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&table=$2&create=true&namespace=$3" ;;
    mariadb) echo "jdbc:mariadb://127.0.0.1:3306/test?user=root&table=$2&create=true&namespace=$3" ;;
  esac
}

echo "| backend | fresh registry (announced wait) | new namespace (announced wait) | restart |"
echo "|---|---|---|---|"
for backend in file redis postgres mariadb; do
  fresh=() ns=() restart=() fw="" nw=""
  for ((i = 0; i < rounds; i++)); do
    reg="firstid_$(date +%s%N)"
    IFS=$'\t' read -r t w < <(run "$(uri $backend "$reg" a)")
    fresh+=("$t") fw="$w"
    IFS=$'\t' read -r t w < <(run "$(uri $backend "$reg" b)")
    ns+=("$t") nw="$w"
    IFS=$'\t' read -r t _ < <(run "$(uri $backend "$reg" b)")
    restart+=("$t")
  done
  printf '| %s | %s s (%s) | %s s (%s) | %s s |\n' "$backend" \
    "$(printf '%s\n' "${fresh[@]}" | median)" "$fw" \
    "$(printf '%s\n' "${ns[@]}" | median)" "$nw" \
    "$(printf '%s\n' "${restart[@]}" | median)"
done
