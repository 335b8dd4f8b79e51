#!/usr/bin/env bash
# Load test of `snowid serve` on loopback with wrk, against a hello-world handler on the same stack
# (same Jetty, connector, configuration and response writing: bench/HelloServer.java, run as a
# single source file on snowid.jar's class path) as the ceiling.
# Measures GET /id, GET /ids?count=1000 and GET /hello; appends req/s, IDs/s and p50/p99 latency to
# BENCHMARKS.md under "## HTTP service".
#
#   bench/http.sh                  # 5 rounds of 6 s per endpoint after 5 s of warm-up, wrk -t1 -c32
#   DURATION=30s CONNECTIONS=64 bench/http.sh
#   NO_WRITE=1 bench/http.sh       # print only
#   BASELINE_JAR=/path/to/older/snowid.jar bench/http.sh
#                                  # also GET /id of an older build, in the same rounds (A/B)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
duration="${DURATION:-6s}"
warmup="${WARMUP:-5s}"
connections="${CONNECTIONS:-32}"
rounds="${ROUNDS:-5}"
threads="${THREADS:-1}"
id_port="${ID_PORT:-18181}"
hello_port="${HELLO_PORT:-18182}"
baseline_port="${BASELINE_PORT:-18183}"
baseline_jar="${BASELINE_JAR:-}"

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)…" >&2
  sudo=""
  [[ "$(id -u)" != 0 ]] && sudo="sudo"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq wrk >/dev/null
fi

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

java -jar "$jar" serve --port "$id_port" --node "file:$tmp/leases" >"$tmp/id.log" 2>&1 &
pids+=($!)
java -cp "$jar" "$root/bench/HelloServer.java" "$hello_port" >"$tmp/hello.log" 2>&1 &
pids+=($!)
ports=("$id_port" "$hello_port")
if [[ -n "$baseline_jar" ]]; then
  java -jar "$baseline_jar" serve --port "$baseline_port" --node "file:$tmp/baseline-leases" \
    >"$tmp/baseline.log" 2>&1 &
  pids+=($!)
  ports+=("$baseline_port")
fi
for port in "${ports[@]}"; do
  for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$port/id" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -fs "http://127.0.0.1:$port/id" >/dev/null || { cat "$tmp"/*.log >&2; exit 1; }
done

# run NAME URL: one measurement into $tmp/NAME.out
run() {
  wrk -t"$threads" -c"$connections" -d"$duration" --latency "$2" >"$tmp/$1.out"
  if grep -q "Non-2xx" "$tmp/$1.out"; then
    cat "$tmp/$1.out" >&2
    echo "bench/http.sh: $2 answered errors" >&2
    exit 1
  fi
}
rps() { awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$tmp/$1.out"; }
pct() { awk -v p="$2" '$1 == p {print $2}' "$tmp/$1.out"; }
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
# The run whose req/s is the median of NAME's rounds, for its latency figures.
median_run() {
  for r in $(seq 1 "$rounds"); do echo "$(rps "$1$r") $1$r"; done | sort -n | awk -v m="$(((rounds + 1) / 2))" 'NR == m {print $2}'
}

hello_url="http://127.0.0.1:$hello_port/hello"
id_url="http://127.0.0.1:$id_port/id"
ids_url="http://127.0.0.1:$id_port/ids?count=1000"
baseline_url="http://127.0.0.1:$baseline_port/id"
warm=("$hello_url" "$id_url" "$ids_url")
[[ -n "$baseline_jar" ]] && warm+=("$baseline_url")
for url in "${warm[@]}"; do
  wrk -t"$threads" -c"$connections" -d"$warmup" "$url" >/dev/null
done
# Rounds of hello and /id back to back (in turn first), then /ids: the ratio of each round's /id
# to its hello is taken and the median of those reported, so that load from other processes on
# the machine moves both sides alike.
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
  if [[ -n "$baseline_jar" ]]; then
    # hello, /id and the baseline's /id back to back, each round starting with the next of them
    names=(hello id baseline)
    urls=("$hello_url" "$id_url" "$baseline_url")
    for k in 0 1 2; do
      i=$(((r + k) % 3))
      run "${names[$i]}$r" "${urls[$i]}"
    done
  elif ((r % 2)); then
    run "hello$r" "$hello_url"
    run "id$r" "$id_url"
  else
    run "id$r" "$id_url"
    run "hello$r" "$hello_url"
  fi
  run "ids$r" "$ids_url"
  extra=""
  [[ -n "$baseline_jar" ]] && extra=", baseline /id $(rps "baseline$r") req/s"
  echo "round $r: hello $(rps "hello$r") req/s, /id $(rps "id$r") req/s, /ids $(rps "ids$r") req/s$extra" >&2
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

hello=$(for r in $(seq 1 "$rounds"); do rps "hello$r"; echo; done | median)
id=$(for r in $(seq 1 "$rounds"); do rps "id$r"; echo; done | median)
ids=$(for r in $(seq 1 "$rounds"); do rps "ids$r"; echo; done | median)
ratio=$(for r in $(seq 1 "$rounds"); do
  awk -v a="$(rps "id$r")" -v b="$(rps "hello$r")" 'BEGIN {printf "%.4f\n", a / b}'
done | median)
ratio=$(awk -v x="$ratio" 'BEGIN {printf "%.2f", x}')
ratios=$(for r in $(seq 1 "$rounds"); do
  awk -v a="$(rps "id$r")" -v b="$(rps "hello$r")" 'BEGIN {printf "%.2f ", a / b}'
done | sed 's/ $//')
hello=$(printf '%.0f' "$hello"); id=$(printf '%.0f' "$id"); ids=$(printf '%.0f' "$ids")
if [[ -n "$baseline_jar" ]]; then
  baseline=$(for r in $(seq 1 "$rounds"); do rps "baseline$r"; echo; done | median)
  baseline=$(printf '%.0f' "$baseline")
  baseline_ratio=$(for r in $(seq 1 "$rounds"); do
    awk -v a="$(rps "baseline$r")" -v b="$(rps "hello$r")" 'BEGIN {printf "%.4f\n", a / b}'
  done | median)
  baseline_ratio=$(awk -v x="$baseline_ratio" 'BEGIN {printf "%.2f", x}')
  versus=$(for r in $(seq 1 "$rounds"); do
    awk -v a="$(rps "id$r")" -v b="$(rps "baseline$r")" 'BEGIN {printf "%.4f\n", a / b}'
  done | median)
  versus=$(awk -v x="$versus" 'BEGIN {printf "%.2f", x}')
  versus_all=$(for r in $(seq 1 "$rounds"); do
    awk -v a="$(rps "id$r")" -v b="$(rps "baseline$r")" 'BEGIN {printf "%.2f ", a / b}'
  done | sed 's/ $//')
  mb="$(median_run baseline)"
fi
ids_per_s=$((ids * 1000))
ids_cap=$(awk -v a="$ids_per_s" 'BEGIN {printf "%.2f", a / 4096000}')
mh="$(median_run hello)"; mi="$(median_run id)"; ms="$(median_run ids)"

commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
baseline_label="${BASELINE_LABEL:-$baseline_jar}"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//' || true)"
section="$tmp/section.md"
{
  echo "### $(date -u +%Y-%m-%d) — commit $commit"
  echo
  echo "\`bench/http.sh\`: wrk -t$threads -c$connections -d$duration --latency, $rounds rounds of"
  echo "hello, /id, /ids after $warmup of warm-up each; medians (per-round /id ÷ hello:"
  echo "$ratios). $(nproc) cores shared by wrk and the"
  echo "servers; $cpu; $(java -version 2>&1 | head -1); load average $load_before before,"
  echo "$load_after after."
  echo
  echo "| endpoint | req/s | IDs/s | p50 | p99 |"
  echo "|---|---:|---:|---:|---:|"
  echo "| \`GET /hello\` (ceiling: same stack, constant body) | $hello | – | $(pct "$mh" 50%) | $(pct "$mh" 99%) |"
  echo "| \`GET /id\` | $id | $id | $(pct "$mi" 50%) | $(pct "$mi" 99%) |"
  if [[ -n "$baseline_jar" ]]; then
    echo "| \`GET /id\`, baseline build ($baseline_label) | $baseline | $baseline | $(pct "$mb" 50%) | $(pct "$mb" 99%) |"
  fi
  echo "| \`GET /ids?count=1000\` | $ids | $ids_per_s | $(pct "$ms" 50%) | $(pct "$ms" 99%) |"
  echo
  echo "\`GET /id\` reaches **$ratio** of the hello-world ceiling (median of the rounds' ratios;"
  echo "target ≥ 0.90) and $id req/s (target ≥ 50,000 on 2 cores). \`GET /ids?count=1000\` issues"
  echo "$ids_per_s IDs/s, $ids_cap of the twitter layout's cap of 4,096,000 per node: a batch is bound"
  echo "by the layout, not by HTTP."
  echo
  if [[ -n "$baseline_jar" ]]; then
    echo "In the same rounds the baseline build's \`GET /id\` reached **$baseline_ratio** of the ceiling;"
    echo "this build's /id ÷ the baseline's, per round: $versus_all (median **$versus**)."
    echo
  fi
} >"$section"
cat "$section"

if [[ -z "${NO_WRITE:-}" ]]; then
  file="$root/BENCHMARKS.md"
  [[ -f "$file" ]] || printf '# Benchmarks\n\n' >"$file"
  if ! grep -q '^## HTTP service' "$file"; then
    {
      echo "## HTTP service"
      echo
      echo "\`snowid serve\` under load on loopback, measured by \`bench/http.sh\` with"
      echo "[wrk](https://github.com/wg/wrk) (Debian package \`wrk\`). The ceiling is a hello-world"
      echo "handler on the same Jetty 12 stack (\`bench/HelloServer.java\`), run in the same script."
      echo
    } >>"$file"
  fi
  # Newest run first, right under the section's introduction.
  awk -v section="$section" '
    { print }
    /^## HTTP service/ { inside = 1; next }
    inside && /^$/ && !done { blank++ }
    inside && blank == 2 && !done { while ((getline line < section) > 0) print line; done = 1 }
  ' "$file" >"$tmp/new.md"
  if ! grep -q "commit $commit" "$tmp/new.md"; then
    cat "$section" >>"$tmp/new.md"
  fi
  cp "$tmp/new.md" "$file"
  echo "bench/http.sh: wrote BENCHMARKS.md" >&2
fi
