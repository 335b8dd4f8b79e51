#!/usr/bin/env bash
# Builds snowid-benchmarks, runs the whole suite (about 7 minutes on 2 cores with the defaults),
# then prints one table: snowid next to each peer, with the ratios, and the targets of
# BENCHMARKS.md (section "Targets"), met or missed.
#
#   bench/run.sh                 # the suite, one fork per benchmark
#   FORKS=2 bench/run.sh         # tighter error bars, about twice as long
#   bench/run.sh -wi 1 -i 2      # extra arguments go to every JMH invocation (a quick look)
#   REPORT_ONLY=1 bench/run.sh   # reprint the table from the last results
#   LOADS= bench/run.sh          # skip the capped runs under load (default LOADS="spin alloc")
#   CAPPED_ONLY=1 bench/run.sh   # only the 1-thread capped runs: quiet and under each load
#
# After the quiet runs, the capped generators run again at 1 thread, quiet and under each
# background load of bench/Load.java (spin: two busy-loop threads; alloc: a second JVM with two
# CPU-bound threads that allocate), started and stopped here, in iterations of 8 s: snowid's
# catch-up may issue up to 10 ms of ticks from before an iteration, at most 0.13 % of 8 s. Then
# bench/ParkCost.java measures what a park costs.
#
# Results (JMH JSON, logs, the table) land in snowid-benchmarks/target/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT="${OUT:-snowid-benchmarks/target/results}"
FORKS="${FORKS:-1}"
JAR=snowid-benchmarks/target/benchmarks.jar
JAVA="${JAVA:-java}"

if [[ -z "${REPORT_ONLY:-}" ]]; then
  ./mvnw -B -q -pl snowid-benchmarks -am package -DskipTests
  mkdir -p "$OUT"
  rm -f "$OUT"/*.json "$OUT"/*.log "$OUT"/*.txt

  jmh() { # name, then JMH arguments
    local name="$1"
    shift
    echo "== $name: java -jar $JAR $* -f $FORKS ${EXTRA[*]:-}" >&2
    "$JAVA" -jar "$JAR" "$@" -f "$FORKS" -rf json -rff "$OUT/$name.json" ${EXTRA[@]+"${EXTRA[@]}"} \
      >"$OUT/$name.log" 2>&1 || { tail -40 "$OUT/$name.log" >&2; exit 1; }
    grep -E '^(# Benchmark:|# Parameters:)' "$OUT/$name.log" | paste -d' ' - - >&2 || true
  }
  EXTRA=("$@")
  load_pid=""
  trap '[[ -n "$load_pid" ]] && kill "$load_pid" 2>/dev/null; true' EXIT
  # Other load on the machine shows up directly in the capped rows (late wake-ups): record it.
  echo "start: $(uptime)" | tee "$OUT/load.txt" >&2

  # 1, 2, 5: saturated generators on the default 41/5/5/12 layout, one shared instance,
  # 1 and 4 threads: throughput (vs the 4.096M/s cap), CPU per ID, allocation.
  if [[ -z "${CAPPED_ONLY:-}" ]]; then
    SATURATED='^io\.snowid\.bench\.(Capped|CappedYitter|Batch|Floor)\.'
    jmh saturated-t1 "$SATURATED" -t 1 -prof io.snowid.bench.CpuProfiler -prof gc
    jmh saturated-t4 "$SATURATED" -t 4 -prof io.snowid.bench.CpuProfiler -prof gc
    # 3, 4: uncapped cost (41/1/21), the clock floor, allocation of nextId and decode.
    jmh uncapped '^io\.snowid\.bench\.Uncapped\.' -t 1 -prof gc
  fi
  CAPPED_T1='^io\.snowid\.bench\.(Capped\.(snowid|westid|hutool|cosid|classic)|CappedYitter\.yitter)$'
  LONG=(-wi 1 -w 2 -i 3 -r 8 -p method=2 -t 1 -prof io.snowid.bench.CpuProfiler)
  # 1 on a busy machine: snowid and the spinning peers at 1 thread, under each scripted load; how
  # late a parked thread wakes, quiet and under each load.
  echo "quiet:" >"$OUT/wake.txt"
  "$JAVA" bench/WakeLateness.java | tee -a "$OUT/wake.txt" >&2
  jmh loaded-quiet "$CAPPED_T1" "${LONG[@]}"
  for load in ${LOADS-spin alloc}; do
    "$JAVA" -Xmx256m bench/Load.java "$load" 2 &
    load_pid=$!
    sleep 3 # compiled and running
    echo "load $load started: $(uptime)" | tee -a "$OUT/load.txt" >&2
    echo "under load $load:" >>"$OUT/wake.txt"
    "$JAVA" bench/WakeLateness.java | tee -a "$OUT/wake.txt" >&2
    jmh "loaded-$load" "$CAPPED_T1" "${LONG[@]}"
    echo "load $load stopping: $(uptime)" | tee -a "$OUT/load.txt" >&2
    kill "$load_pid"
    wait "$load_pid" 2>/dev/null || true
    load_pid=""
  done
  # 2: the CPU a park costs here, outside any generator.
  "$JAVA" bench/ParkCost.java 3 | tee "$OUT/park.txt" >&2
  echo "end:   $(uptime)" | tee -a "$OUT/load.txt" >&2
fi

"$JAVA" -cp "$JAR" io.snowid.bench.Report $(ls "$OUT"/saturated-t1.json "$OUT"/saturated-t4.json \
  "$OUT"/uncapped.json "$OUT"/loaded-*.json 2>/dev/null) | tee "$OUT/report.md"
if [[ -f "$OUT/wake.txt" ]]; then
  echo
  echo "Wake-up lateness (bench/WakeLateness.java):"
  cat "$OUT/wake.txt"
fi
if [[ -f "$OUT/park.txt" ]]; then
  echo
  echo "Parking (bench/ParkCost.java):"
  cat "$OUT/park.txt"
fi
