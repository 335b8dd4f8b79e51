#!/usr/bin/env bash
# ensure_services: makes sure PostgreSQL, MariaDB and Redis answer on 127.0.0.1 before the build,
# and that the fault tests' tools (faketime, iptables, MariaDB's server and mariadb-dump for the
# private servers) are installed.
#
#   PostgreSQL 127.0.0.1:5432  user postgres (trust), database test
#   MariaDB    127.0.0.1:3306  user root (no password), database test
#   Redis      127.0.0.1:6379
#   ZooKeeper  127.0.0.1:2181  Debian zookeeperd (3.8), no auth
#   etcd       127.0.0.1:2379  Debian etcd-server (3.4), v3 API, no auth
#
# For each service: if it answers, say so. If not, install what is missing (apt-get), start it,
# and wait up to SERVICES_WAIT_SECONDS (default 30) for it to answer; then create the database
# `test` if it is missing. Prints one line per service. A service that still does not answer
# fails the run when CI=true (one ERROR line naming it, non-zero status); otherwise a WARNING.
#
# Sourced by .ci/run (which calls ensure_services); also runnable on its own:
#   bash .ci/services.sh            CI=true bash .ci/services.sh

SERVICES_WAIT_SECONDS="${SERVICES_WAIT_SECONDS:-30}"
SERVICES_LOG_DIR="${SERVICES_LOG_DIR:-${TMPDIR:-/tmp}/snowid-ci-services}"

# ---------------------------------------------------------------------------------------------
# helpers

_svc_have() {
  command -v "$1" >/dev/null 2>&1
}

# Runs a command with its output appended to the service's log file; returns its status.
_svc_logged() {
  local log="$1"
  shift
  echo "+ $*" >>"$log"
  "$@" >>"$log" 2>&1
}

# apt-get install, as root or through sudo; apt-get update once per run.
_svc_apt_install() {
  local log="$1"
  shift
  local -a sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    if _svc_have sudo; then
      sudo=(sudo -n)
    else
      echo "cannot install $*: not root and no sudo" >>"$log"
      return 1
    fi
  fi
  if ! _svc_have apt-get; then
    echo "cannot install $*: no apt-get" >>"$log"
    return 1
  fi
  echo "== services: installing $* (apt-get; log $log)"
  if [[ -z "${_SVC_APT_UPDATED:-}" ]]; then
    _svc_logged "$log" "${sudo[@]}" apt-get update || return 1
    _SVC_APT_UPDATED=1
  fi
  _svc_logged "$log" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "$@"
}

# Polls the probe function once a second until it succeeds or SERVICES_WAIT_SECONDS pass.
_svc_wait() {
  local probe="$1"
  local deadline=$((SECONDS + SERVICES_WAIT_SECONDS))
  while ((SECONDS < deadline)); do
    if "$probe"; then
      return 0
    fi
    sleep 1
  done
  "$probe"
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL

_pg_answers() {
  pg_isready -q -h 127.0.0.1 -p 5432 -t 3 >/dev/null 2>&1
}

_pg_psql() { # database sql
  PGCONNECT_TIMEOUT=5 psql -h 127.0.0.1 -p 5432 -U postgres -d "$1" -X -q -At \
    -v ON_ERROR_STOP=1 -c "$2"
}

_pg_server_installed() {
  _svc_have pg_ctlcluster && [[ -n "$(ls /etc/postgresql 2>/dev/null)" ]]
}

_pg_start() {
  local log="$1"
  if ! _pg_server_installed; then
    _svc_apt_install "$log" postgresql || return 1
  fi
  _svc_logged "$log" pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
}

_pg_database() {
  local log="$1"
  if _pg_psql test 'select 1' >>"$log" 2>&1; then
    echo "present"
  elif _svc_logged "$log" _pg_psql postgres 'create database test' \
    || { _svc_have runuser && id postgres >/dev/null 2>&1 \
      && _svc_logged "$log" runuser -u postgres -- psql -X -q -c 'create database test'; }; then
    echo "created"
  else
    return 1
  fi
}

# ---------------------------------------------------------------------------------------------
# MariaDB

_maria_sql() { # sql [database]
  mariadb -h 127.0.0.1 -P 3306 -uroot --connect-timeout=3 -N -B -e "$1" ${2:+"$2"}
}

_maria_answers() {
  _maria_sql 'select 1' >/dev/null 2>&1
}

_maria_start() {
  local log="$1"
  if [[ ! -x /usr/sbin/mariadbd ]]; then
    _svc_apt_install "$log" mariadb-server || return 1
  fi
  if id mysql >/dev/null 2>&1; then
    install -d -o mysql -g mysql /run/mysqld >>"$log" 2>&1 || true
  fi
  _svc_logged "$log" start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
}

_maria_database() {
  local log="$1"
  if _maria_sql 'select 1' test >>"$log" 2>&1; then
    echo "present"
  elif _svc_logged "$log" _maria_sql 'create database if not exists test' \
    || _svc_logged "$log" mariadb -uroot -e 'create database if not exists test'; then
    echo "created"
  else
    return 1
  fi
}

# ---------------------------------------------------------------------------------------------
# Redis

_redis_answers() {
  [[ "$(timeout 5 redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" == "PONG" ]]
}

_redis_start() {
  local log="$1"
  if ! _svc_have redis-server; then
    _svc_apt_install "$log" redis-server || return 1
  fi
  mkdir -p /var/lib/redis /var/log/redis >>"$log" 2>&1 || true
  _svc_logged "$log" redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 \
    --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
}

# ---------------------------------------------------------------------------------------------
# ZooKeeper (Debian zookeeperd: its zoo.cfg, client port 2181, tickTime 2000 so sessions of 4-40 s)

ZK_HOME="${ZK_HOME:-/usr/share/zookeeper}"

_zk_answers() { # the four-letter word srvr (whitelisted by default) over bash's /dev/tcp
  timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/2181 && printf srvr >&3 && cat <&3' 2>/dev/null \
    | grep -q '^Zookeeper version'
}

_zk_start() {
  local log="$1"
  if [[ ! -x "$ZK_HOME/bin/zkServer.sh" ]]; then
    _svc_apt_install "$log" zookeeperd || return 1
  fi
  mkdir -p /var/log/zookeeper >>"$log" 2>&1 || true
  _svc_logged "$log" env ZOOCFGDIR=/etc/zookeeper/conf "$ZK_HOME/bin/zkServer.sh" start
}

# ---------------------------------------------------------------------------------------------
# etcd (Debian etcd-server; one member, data in /var/lib/etcd/snowid-ci)

_etcd_answers() {
  curl -sf --max-time 3 http://127.0.0.1:2379/health 2>/dev/null | grep -q '"health": *"true"'
}

_etcd_start() {
  local log="$1"
  if [[ ! -x /usr/bin/etcd ]]; then
    _svc_apt_install "$log" etcd-server || return 1
  fi
  mkdir -p /var/lib/etcd >>"$log" 2>&1 || true
  echo "+ etcd (background, output in $SERVICES_LOG_DIR/etcd-server.log)" >>"$log"
  setsid nohup /usr/bin/etcd --name snowid-ci --data-dir /var/lib/etcd/snowid-ci \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
    --initial-cluster snowid-ci=http://127.0.0.1:2380 \
    >>"$SERVICES_LOG_DIR/etcd-server.log" 2>&1 </dev/null &
}

# ---------------------------------------------------------------------------------------------

# One service: name, address, client command, client package, probe, starter, database creator
# (or "-"). Prints one line; returns non-zero if the service does not answer (or has no database).
_svc_ensure() {
  local name="$1" address="$2" client="$3" client_pkg="$4" probe="$5" start="$6" database="$7"
  local log="$SERVICES_LOG_DIR/$name.log"
  local how="" db="" problem=""
  : >"$log"

  if ! _svc_have "$client"; then
    _svc_apt_install "$log" "$client_pkg" || true
  fi
  if ! _svc_have "$client"; then
    problem="client $client is missing and could not be installed"
  elif "$probe"; then
    how="already running"
  else
    local started=$SECONDS
    if ! "$start" "$log"; then
      problem="did not answer, and starting it failed"
    elif _svc_wait "$probe"; then
      how="was not answering: started it, answered after $((SECONDS - started)) s"
    else
      problem="did not answer; started it, but it still does not answer after ${SERVICES_WAIT_SECONDS} s"
    fi
  fi
  if [[ -z "$problem" && "$database" != "-" ]]; then
    if db="$("$database" "$log")"; then
      how="$how; database test $db"
    else
      problem="answers, but database test is missing and could not be created"
    fi
  fi

  if [[ -z "$problem" ]]; then
    echo "== services: $name answered on $address ($how)"
    return 0
  fi
  if [[ "${CI:-}" == "true" ]]; then
    echo "== services: ERROR: $name on $address $problem (log: $log)" >&2
  else
    echo "== services: WARNING: $name on $address $problem (log: $log); continuing since CI is not true" >&2
  fi
  sed 's/^/   | /' "$log" | tail -n 15 >&2
  return 1
}

ensure_services() {
  mkdir -p "$SERVICES_LOG_DIR"
  local failed=0
  _svc_ensure PostgreSQL 127.0.0.1:5432 pg_isready postgresql-client \
    _pg_answers _pg_start _pg_database || failed=1
  _svc_ensure MariaDB 127.0.0.1:3306 mariadb mariadb-client \
    _maria_answers _maria_start _maria_database || failed=1
  _svc_ensure Redis 127.0.0.1:6379 redis-cli redis-tools \
    _redis_answers _redis_start - || failed=1
  _svc_ensure ZooKeeper 127.0.0.1:2181 bash bash \
    _zk_answers _zk_start - || failed=1
  _svc_ensure etcd 127.0.0.1:2379 curl curl \
    _etcd_answers _etcd_start - || failed=1
  _tools_ensure || failed=1
  if [[ "$failed" -ne 0 && "${CI:-}" == "true" ]]; then
    return 1
  fi
  return 0
}

# ---------------------------------------------------------------------------------------------
# Tools the fault tests use: libfaketime (a child JVM's wall clock stepped at run time), iptables
# (a simulated host's link cut), and MariaDB's server and dump tool for the private MariaDB servers
# some tests start (PrivateMariaDb, the torture harness: mariadb-install-db, mariadbd, mariadb-dump),
# needed also where the shared server on 3306 answers and so was not installed above
# (mariadb-server-core has the server without a service that starts on installation), and etcdctl
# for the torture harness's etcd snapshots (registry-rollback), and SPIN with gcc for the lease
# model's check (model/check.sh). Installed
# when missing; with CI=true one that is still missing fails the run, as a service does (the tests
# that need them fail too, never skip).

_tool_have() {
  _svc_have "$1" || [[ -x "/usr/sbin/$1" ]]
}

_tools_ensure() {
  local log="$SERVICES_LOG_DIR/tools.log"
  local -a tools=(faketime:faketime iptables:iptables mariadbd:mariadb-server-core
    mariadb-install-db:mariadb-server-core mariadb-dump:mariadb-client etcdctl:etcd-client
    spin:spin gcc:gcc)
  local -a missing=()
  local entry
  for entry in "${tools[@]}"; do
    if ! _tool_have "${entry%%:*}" && [[ " ${missing[*]} " != *" ${entry#*:} "* ]]; then
      missing+=("${entry#*:}")
    fi
  done
  if ((${#missing[@]} > 0)); then
    _svc_apt_install "$log" "${missing[@]}" || true
  fi
  local bad=0
  local tool
  for entry in "${tools[@]}"; do
    tool="${entry%%:*}"
    if _tool_have "$tool"; then
      echo "== tools: $tool at $(command -v "$tool" || echo "/usr/sbin/$tool")"
    elif [[ "${CI:-}" == "true" ]]; then
      echo "== tools: ERROR: $tool is missing and could not be installed (log $log)" >&2
      bad=1
    else
      echo "== tools: WARNING: $tool is missing (log $log); the fault tests that need it fail" >&2
    fi
  done
  return "$bad"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  ensure_services
fi
