#!/usr/bin/env bash
# What a SQL database's durable commit costs a lease call (BENCHMARKS.md, "SQL leases"):
# JdbcLeaseLatency against the shared PostgreSQL (127.0.0.1:5432, database test) with the
# session's synchronous_commit on (the default) and off, and against the shared MariaDB
# (127.0.0.1:3306, database test) with innodb_flush_log_at_trx_commit 1 (the default) and 2 (a
# global setting: put back to what it was when the script ends). Usage:
# [SAMPLES=N] [DATABASES="postgresql mariadb"] bench/sql-persistence.sh (from the repository's
# root; builds the test classes of snowid-jdbc first)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl snowid-jdbc -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=/tmp/snowid-jdbc.cp -Dmdep.includeScope=test -Dspotless.check.skip=true
CP=snowid-jdbc/target/test-classes:snowid-jdbc/target/classes:$(cat /tmp/snowid-jdbc.cp)
latency() {
  java -cp "$CP" io.snowid.jdbc.JdbcLeaseLatency "$1" "${SAMPLES:-5000}" 20 2>/dev/null
}
for db in ${DATABASES:-postgresql mariadb}; do
  case "$db" in
    postgresql)
      for mode in on off; do
        echo "== PostgreSQL synchronous_commit=$mode, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u)"
        latency "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&options=-c%20synchronous_commit%3D$mode"
      done
      ;;
    mariadb)
      was=$(mariadb -h 127.0.0.1 -u root -N -e 'SELECT @@GLOBAL.innodb_flush_log_at_trx_commit')
      trap 'mariadb -h 127.0.0.1 -u root -e "SET GLOBAL innodb_flush_log_at_trx_commit = $was"' EXIT
      for mode in 1 2; do
        mariadb -h 127.0.0.1 -u root -e "SET GLOBAL innodb_flush_log_at_trx_commit = $mode"
        echo "== MariaDB innodb_flush_log_at_trx_commit=$mode, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u)"
        latency "jdbc:mariadb://127.0.0.1:3306/test?user=root"
      done
      ;;
    *) echo "unknown database $db (postgresql, mariadb)" >&2; exit 2 ;;
  esac
done
