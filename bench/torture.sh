#!/usr/bin/env bash
# The fleet torture run: worker JVMs issue IDs through one coordinator under a seeded schedule of
# faults, and a checker reads every ID (snowid-torture; docs/operations.md "Testing", RELIABILITY.md).
#
#   bench/torture.sh --coordinator URI --seconds N --seed S [options]     (--help lists them all)
#
# Defaults: file:, 60 s, a random seed (printed). Exit code 0 only when duplicates, order
# violations and IDs under node values not held are all 0; 1 otherwise; 2 for bad options.
# Partitions need root (network namespaces, iptables); clock steps need libfaketime
# (apt-get install faketime). The harness starts its own registry instance every time (a lease
# directory, redis-server, PostgreSQL, MariaDB, ZooKeeper or etcd data directories), never a
# shared server; zookeeper:// needs Debian zookeeper, etcd:// etcd-server (and etcd-client for
# registry-rollback).
#
# Builds snowid-torture/target/torture.jar when it is missing or older than a source. Whatever
# happens to the harness, this script ends the processes it started and removes the network
# namespaces it made (the run directory's `pids` and `network` files).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

jar=snowid-torture/target/torture.jar
if [[ ! -f "$jar" ]] || [[ -n "$(find pom.xml */pom.xml */src/main -newer "$jar" -print -quit)" ]]; then
  echo "== building $jar" >&2
  ./mvnw -B -q -pl snowid-torture -am package -DskipTests >&2
fi

for a in "$@"; do
  if [[ "$a" == "--help" || "$a" == "-h" ]]; then
    exec java -jar "$jar" --help
  fi
done

dir=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ "${args[$i]}" == "--dir" && $((i + 1)) -lt ${#args[@]} ]]; then
    dir="${args[$((i + 1))]}"
  fi
done
if [[ -z "$dir" ]]; then
  dir="/tmp/snowid-torture/$(date -u +%Y%m%d-%H%M%S)-$$"
  args+=(--dir "$dir")
fi
mkdir -p "$dir"

cleanup() {
  if [[ -f "$dir/pids" ]]; then
    while read -r pid; do
      if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        kill -CONT "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
      fi
    done <"$dir/pids"
  fi
  if [[ -f "$dir/network" ]]; then
    while read -r kind name; do
      case "$kind" in
        netns) ip netns del "$name" 2>/dev/null || true ;;
        link) ip link del "$name" 2>/dev/null || true ;;
      esac
    done <"$dir/network"
  fi
  rmdir "$dir" 2>/dev/null || true # a run that never started (bad options) leaves nothing
}
trap cleanup EXIT

java -Xmx2g -jar "$jar" "${args[@]}"
