#!/usr/bin/env bash
# Time to the first ID, per backend, on a fresh namespace and on a restart of the same instance:
# `./snowid generate -n 1` timed from the command's start (so it includes the JVM's start), and the
# wait it announced on stderr. Needs the local PostgreSQL, MariaDB and Redis (.ci/services.sh).
# Usage: bench/first-id.sh [ROUNDS]   (default 3; prints a Markdown table for BENCHMARKS.md)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${1:-3}"
./snowid generate -n 1 --node static:worker=1,datacenter=1 >/dev/null # build once, untimed

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# one run: prints "SECONDS<TAB>ANNOUNCED WAIT or -"
run() {
  local start end err
  start=$(date +%s.%N)
  err="$(./snowid generate -n 1 --node "$1" 2>&1 >/dev/null)"
  end=$(date +%s.%N)
  local wait
  wait="$(sed -n 's/^snowid: waiting \([0-9.]*s\):.*/\1/p' <<<"$err")"
  printf '%.2f\t%s\n' "$(echo "$end - $start" | bc)" "${wait:--}"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "| backend | fresh: first ID after (announced wait) | restart: first ID after |"
echo "|---|---|---|"
for backend in file redis postgres mariadb; do
  fresh=() restart=() waits=()
  for ((i = 0; i < rounds; i++)); do
    ns="firstid$(date +%s%N)"
    case $backend in
      file) node="file:$work/$ns" ;;
      redis) node="redis://127.0.0.1:6379?prefix=$ns" ;;
      postgres) node="jdbc:postgresql://127.0.0.1:5432/test?user=postgres&create=true&namespace=$ns" ;;
      mariadb) node="jdbc:mariadb://127.0.0.1:3306/test?user=root&create=true&namespace=$ns" ;;
    esac
    IFS=$'\t' read -r t w < <(run "$node")
    fresh+=("$t") waits+=("$w")
    IFS=$'\t' read -r t _ < <(run "$node")
    restart+=("$t")
  done
  printf '| %s | %s s (%s) | %s s |\n' "$backend" \
    "$(printf '%s\n' "${fresh[@]}" | median)" "${waits[0]}" \
    "$(printf '%s\n' "${restart[@]}" | median)"
done
