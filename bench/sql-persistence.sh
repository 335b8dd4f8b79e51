#!/usr/bin/env bash
# What PostgreSQL's synchronous commit costs a lease call (BENCHMARKS.md, "SQL leases"):
# JdbcLeaseLatency against the shared PostgreSQL (127.0.0.1:5432, database test), with the
# session's synchronous_commit on (the default) and off. Usage: [SAMPLES=N] bench/sql-persistence.sh
# (from the repository's root; builds the test classes of snowid-jdbc first)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl snowid-jdbc -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=/tmp/snowid-jdbc.cp -Dmdep.includeScope=test -Dspotless.check.skip=true
CP=snowid-jdbc/target/test-classes:snowid-jdbc/target/classes:$(cat /tmp/snowid-jdbc.cp)
for mode in on off; do
  echo "== synchronous_commit=$mode, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u)"
  java -cp "$CP" io.snowid.jdbc.JdbcLeaseLatency \
    "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&options=-c%20synchronous_commit%3D$mode" \
    "${SAMPLES:-5000}" 20 2>/dev/null
done
