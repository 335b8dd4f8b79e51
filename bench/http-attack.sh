#!/usr/bin/env bash
# `snowid serve` against hostile clients on loopback (bench/HttpAttack.java), with its default
# limits: how long GET /id takes after a pipelined-batch attack, and GET /health during a flood of
# idle connections and during a slowloris. Appends the figures to BENCHMARKS.md under
# "## HTTP under attack".
#
#   bench/http-attack.sh                       # all three attacks on this build
#   BASELINE_JAR=/path/to/older/snowid.jar bench/http-attack.sh
#                                              # the same against an older build first
#   NO_WRITE=1 bench/http-attack.sh            # print only
#   FLOOD=20000 FLOOD_CLIENTS=4 SLOW=2000 PROBES=40 bench/http-attack.sh
#
# The open-file limit is raised to the hard limit for the server and every client (ulimit -n); the
# flood is spread over FLOOD_CLIENTS processes so that none needs more descriptors than that.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${PORT:-18191}"
flood="${FLOOD:-20000}"
flood_clients="${FLOOD_CLIENTS:-4}"
slow="${SLOW:-2000}"
slow_interval_ms="${SLOW_INTERVAL_MS:-2000}"
pipe_connections="${PIPE_CONNECTIONS:-300}"
pipe_batches="${PIPE_BATCHES:-20}"
probes="${PROBES:-40}"
baseline_jar="${BASELINE_JAR:-}"

ulimit -n "$(ulimit -Hn)"
./snowid --version >/dev/null # builds snowid-cli/target/snowid.jar if needed
jar="$root/snowid-cli/target/snowid.jar"
tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# probe NAME URL: PROBES GETs on new connections, 250 ms apart, 5 s timeout each; writes
# "p50 max failures" (milliseconds) to $tmp/NAME.probe; a failure is no 2xx within 5 s
probe() {
  local out="$tmp/$1.times" failures=0 r
  : >"$out"
  for _ in $(seq 1 "$probes"); do
    r="$(curl -s -o /dev/null --max-time 5 -w '%{http_code} %{time_total}' "$2" 2>/dev/null || true)"
    if [[ "$r" == 2* ]]; then
      echo "${r#* }" >>"$out"
    else
      failures=$((failures + 1))
    fi
    sleep 0.25
  done
  sort -n "$out" | awk -v f="$failures" '{v[NR] = $1} END {
    if (NR == 0) { printf "- - %d\n", f; exit }
    printf "%.1f %.1f %d\n", v[int((NR + 1) / 2)] * 1000, v[NR] * 1000, f }' >"$tmp/$1.probe"
}
# metric NAME: its value in /metrics, or nothing (no such metric, or no answer within 5 s)
metric() {
  { curl -s --max-time 5 "http://127.0.0.1:$port/metrics" || true; } |
    awk -v m="$1" '$1 == m {print $2; exit}'
}

start_server() { # JAR LABEL
  java -jar "$1" serve --port "$port" --node "file:$tmp/leases-$2" >"$tmp/$2.log" 2>&1 &
  server_pid=$!
  pids+=("$server_pid")
  for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  cat "$tmp/$2.log" >&2
  exit 1
}
stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  sleep 2 # the port's connections drain
}

run_attacks() { # JAR LABEL
  local label="$2"
  # 1. pipelined batches from clients that then leave; /id probed right after they closed
  start_server "$1" "$label"
  java bench/HttpAttack.java pipeline 127.0.0.1 "$port" "$pipe_connections" "$pipe_batches" 3000 \
    >"$tmp/$label.pipeline.out"
  probe "$label-id" "http://127.0.0.1:$port/id"
  local reserved
  reserved="$(metric snowid_http_reserved_ahead)"
  echo "${reserved:-(no such gauge)}" >"$tmp/$label.reserved"
  stop_server
  # 2. a flood of idle connections from FLOOD_CLIENTS processes; /health probed during it
  start_server "$1" "$label"
  local per=$(((flood + flood_clients - 1) / flood_clients))
  local clients=() stop="$tmp/$label.stop"
  for c in $(seq 1 "$flood_clients"); do
    java bench/HttpAttack.java flood 127.0.0.1 "$port" "$per" 900 "$stop" \
      >"$tmp/$label.flood.$c.out" 2>&1 &
    clients+=($!)
    pids+=($!)
  done
  for _ in $(seq 1 300); do # until every client has connected (or given up on) its share
    [[ "$(cat "$tmp/$label.flood."*.out 2>/dev/null | grep -c connected)" == "$flood_clients" ]] && break
    sleep 1
  done
  local files
  files="$(metric process_files_open_files) $(metric process_files_max_files)"
  [[ "$files" == " " ]] && files="? ?"
  echo "$files" >"$tmp/$label.files"
  probe "$label-flood" "http://127.0.0.1:$port/health"
  touch "$stop"
  for c in "${clients[@]}"; do wait "$c" || true; done
  grep -c "Accept Failure\|accepting a connection failed" "$tmp/$label.log" >"$tmp/$label.acceptlines" || true
  stop_server
  # 3. slowloris; /health probed during it
  start_server "$1" "$label"
  java bench/HttpAttack.java slowloris 127.0.0.1 "$port" "$slow" "$slow_interval_ms" 900 \
    "$stop.slow" >"$tmp/$label.slow.out" 2>&1 &
  local slow_pid=$!
  pids+=("$slow_pid")
  sleep 3
  probe "$label-slow" "http://127.0.0.1:$port/health"
  sleep 15 # past the default header timeout of 10 s, and the writes that notice the close
  touch "$stop.slow"
  wait "$slow_pid" || true
  stop_server
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
labels=()
if [[ -n "$baseline_jar" ]]; then
  run_attacks "$baseline_jar" baseline
  labels+=(baseline)
fi
run_attacks "$jar" this
labels+=(this)
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

row() { # LABEL NAME
  read -r p50 max failures <"$tmp/$1-$2.probe"
  echo "$p50 | $max | $failures/$probes"
}
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//' || true)"
section="$tmp/section.md"
{
  echo "### $(date -u +%Y-%m-%d) — commit $commit"
  echo
  echo "\`bench/http-attack.sh\` (FLOOD=$flood over $flood_clients clients, SLOW=$slow every"
  echo "${slow_interval_ms} ms, $pipe_connections × $pipe_batches pipelined batches); $(nproc) vCPUs shared"
  echo "by the attackers and the server; $cpu; $(java -version 2>&1 | head -1); open-file limit"
  echo "$(ulimit -n); load average $load_before before, $load_after after. Each probe: $probes"
  echo "requests on new connections, 250 ms apart, 5 s timeout (failures: timeouts or refusals)."
  echo
  echo "| build | probe | p50 ms | max ms | failed |"
  echo "|---|---|---:|---:|---:|"
  for l in "${labels[@]}"; do
    name="this build"
    [[ "$l" == baseline ]] && name="baseline (${BASELINE_LABEL:-$baseline_jar})"
    echo "| $name | \`/id\` after the pipelined batches | $(row "$l" id) |"
    echo "| $name | \`/health\` during the flood | $(row "$l" flood) |"
    echo "| $name | \`/health\` during the slowloris | $(row "$l" slow) |"
  done
  echo
  for l in "${labels[@]}"; do
    echo "- $l: reserved ahead after the batches: $(cat "$tmp/$l.reserved"); open files during the"
    echo "  flood: $(awk '{print $1 " of " $2}' "$tmp/$l.files"); $(cat "$tmp/$l.flood."*.out | grep 'closed by' | awk '{c += $2} END {print c}') flood connections closed by the server (and opened again);"
    echo "  $(tail -1 "$tmp/$l.slow.out"); accept-failure log lines during the flood:"
    echo "  $(cat "$tmp/$l.acceptlines")."
  done
  echo
} >"$section"
cat "$section"

if [[ -z "${NO_WRITE:-}" ]]; then
  file="$root/BENCHMARKS.md"
  if ! grep -q '^## HTTP under attack' "$file"; then
    {
      echo
      echo "## HTTP under attack"
      echo
      echo "\`snowid serve\` with its default limits against hostile clients on loopback, measured by"
      echo "\`bench/http-attack.sh\` (clients in \`bench/HttpAttack.java\`): \`/id\` right after 300"
      echo "connections pipelined 20 batches of 100,000 IDs each and left, \`/health\` during a flood of"
      echo "20,000 idle connections (each one the server closes is opened again at once) and during a"
      echo "slowloris. docs/design.md, section 5, has the limits."
      echo
    } >>"$file"
  fi
  # Newest run first, right under the section's introduction.
  awk -v section="$section" '
    { print }
    /^## HTTP under attack/ { inside = 1; next }
    inside && /^$/ && !done { blank++ }
    inside && blank == 2 && !done { while ((getline line < section) > 0) print line; done = 1 }
  ' "$file" >"$tmp/bench.md"
  cp "$tmp/bench.md" "$file"
fi
