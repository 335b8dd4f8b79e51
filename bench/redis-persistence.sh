#!/usr/bin/env bash
# What Redis's persistence costs a lease call (BENCHMARKS.md, "Redis leases"): RedisLeaseLatency
# against three private servers, without AOF, with appendfsync everysec and with appendfsync
# always. Usage: [SAMPLES=N] bench/redis-persistence.sh   (from the repository's root; builds the
# test classes of snowid-redis first)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl snowid-redis -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=/tmp/snowid-redis.cp -Dmdep.includeScope=test -Dspotless.check.skip=true
CP=snowid-redis/target/test-classes:snowid-redis/target/classes:$(cat /tmp/snowid-redis.cp)
port=6391
for mode in off everysec always; do
  dir=$(mktemp -d /tmp/snowid-aof-$mode.XXXXXX)
  if [ "$mode" = off ]; then args=(--appendonly no); else args=(--appendonly yes --appendfsync "$mode"); fi
  redis-server --port "$port" --bind 127.0.0.1 --save '' "${args[@]}" --dir "$dir" \
    --daemonize yes --logfile "$dir/redis.log"
  until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
  echo "== appendfsync=$mode (port $port), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u)"
  java -cp "$CP" io.snowid.redis.RedisLeaseLatency "$port" "" "${SAMPLES:-5000}" 2>/dev/null
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$dir"
  port=$((port + 1))
done
