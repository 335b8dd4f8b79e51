#!/usr/bin/env bash
# Checks the lease model (model/lease.pml) with SPIN: no ID issued twice, no ID after the
# registry's expiry (safety); every holder issues again within K units once the faults end
# (liveness). Usage: model/check.sh [--safety | --liveness | --removals] [extra -D options]
#   (no option)  the safety check (two mixed fleets: -DMONO=1, -DMONO=2; each again with two clock
#                steps and no restart, which reaches the rejoin), then the liveness check (CI);
#                exits non-zero on a violation
#   --safety     the safety check alone (longer runs: extra -D bounds, e.g. -DNH=3 -DNN=2; an
#                extra -DMONO=… checks that fleet alone: 0 all on the wall clock, 3 all on the
#                default time source)
#   --liveness   the liveness check, then shows that K - 1 (-DSHORT_K), a holder that never
#                acquires again (-DNO_RETRY) and a default source that does not rejoin the wall
#                clock when fenced for skew (-DNO_REJOIN) each yield a counterexample
#   --removals   removes each mechanism in turn (-DNO_HWM, …) and shows that each yields a
#                counterexample (trails kept in model/out/); exits non-zero if one does not
# Extra -D options go to spin, but -DMEMLIM=MB goes to the compiler (the search's memory bound,
# default 3000; from 8000 on, a hash table of 2^28 slots). A search that reaches it is reported
# as incomplete (exit 2), never as a pass.
# Bounds: docs/design.md, "A checked model of the lease".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
mkdir -p "$out"
command -v spin >/dev/null || { echo "spin not found: apt-get install -y spin" >&2; exit 2; }

# the default bounds: one holder and a newcomer on one id, every fault once; mixed fleets: the
# holder on the default time source and the newcomer on the wall clock (-DMONO=1), then the
# reverse (-DMONO=2); with one clock step these cover a fleet of either kind (docs/design.md)
BOUNDS=(-DNH=2 -DNN=1 -DTTL=2)
TMAX=4
SAFETY_MONOS=(1 2)
# liveness: two holders on two ids (every holder can hold one), every fault once, healing by
# real time 1, then K units; holder 0 on the default time source, holder 1 on the wall clock
LIVE_BOUNDS=(-DLIVE -DNH=2 -DNN=2 -DTTL=2 -DMONO=1)
LIVE_TMAX=1

# run NAME DEFINES...: compiles and searches; prints the numbers; returns 1 on an error found
run() {
  local name=$1 search=$2
  shift 2
  # a later -DNAME=… replaces an earlier one (the extra options override the bounds)
  local memlim=3000 defines=() a d kept
  for a in "$@"; do
    case $a in
      -DMEMLIM=*) memlim=${a#-DMEMLIM=} ;;
      -D*)
        kept=()
        for d in ${defines[@]+"${defines[@]}"}; do
          [[ ${d%%=*} == "${a%%=*}" ]] || kept+=("$d")
        done
        defines=(${kept[@]+"${kept[@]}"} "$a") ;;
      *) defines+=("$a") ;;
    esac
  done
  set -- "${defines[@]}"
  local w=26
  ((memlim >= 8000)) && w=28
  local dir="$out/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$here/lease.pml" "$dir/"
  (cd "$dir" && spin -a "$@" lease.pml >/dev/null &&
    gcc -O2 -w -DSAFETY $search -DMEMLIM="$memlim" -DHC4 -o pan pan.c &&
    nice -n 10 ./pan -m100000 -w$w -c1 >pan.out 2>&1) || true
  grep -E "State-vector [0-9]|states, stored|elapsed time|total actual memory|assertion violated|invalid end state \(" \
    "$dir/pan.out" | sed "s/^ */  $name: /"
  if grep -qE "reached -DMEMLIM bound|search depth too small" "$dir/pan.out"; then
    echo "  $name: search incomplete (memory or depth bound): no result" >&2
    return 2
  fi
  if grep -q "errors: 0" "$dir/pan.out"; then
    return 0
  fi
  (cd "$dir" && spin -t -p -g "$@" lease.pml >trail.txt 2>&1) || true
  # the trail's events, one line each (the model's printf lines)
  (cd "$dir" && spin -t "$@" lease.pml 2>&1 | sed -nE 's/^ *(rt [0-9]+: .*)/\1/p' >story.txt) || true
  echo "  $name: trail: $dir/trail.txt ($(grep -cE '^ *[0-9]+:' "$dir/trail.txt") steps); its events:"
  sed "s/^/    /" "$dir/story.txt"
  return 1
}

if [[ "${1:-}" == "--removals" ]]; then
  shift
  status=0
  for m in NO_HWM NO_SENT NO_FENCE NO_SKEW NO_WAIT NO_LOSTWAIT NO_SLEWBOUND; do
    # breadth first: the shortest trail; on the wall clock, but NO_SLEWBOUND's holder slews
    search=-DBFS extra=(-DTMAX=$TMAX)
    [[ $m == NO_SLEWBOUND ]] && extra+=(-DMONO=1)
    if [[ $m == NO_SKEW ]]; then
      # a holder ahead by more than ttl + skew + slack - margin + 1 as the registry loses its
      # state: offsets up to 5, real time to 5, no restart; depth first (20 s, a trail of depth
      # 94), as breadth first needs 9 GB (2 min, the shortest trail: depth 63)
      search="" extra=(-DOFFMAX=5 -DMAXRESTARTS=0 -DTMAX=$((TMAX + 1)))
    fi
    rc=0
    run "$m" "$search" "${BOUNDS[@]}" "${extra[@]}" "-D$m" "$@" || rc=$?
    case $rc in
      1) echo "$m: counterexample found" ;;
      0) echo "$m: no counterexample: the removal shows nothing" >&2; status=1 ;;
      *) echo "$m: search incomplete: no counterexample within the bounds searched" >&2; status=1 ;;
    esac
  done
  exit $status
fi

# check NAME WHAT DEFINES...: a search that must find no error
check() {
  local name=$1 what=$2 start rc=0
  shift 2
  start=$(date +%s)
  run "$name" "" "$@" || rc=$?
  case $rc in
    0) echo "lease model, $what: no violation ($(($(date +%s) - start)) s)" ;;
    1) echo "lease model, $what: VIOLATION" >&2 ;;
    *) echo "lease model, $what: search incomplete" >&2 ;;
  esac
  return $rc
}

mode=${1:-}
case $mode in
  --safety | --liveness) shift ;;
  -D*) mode="" ;;
  "") ;;
  *) echo "usage: model/check.sh [--safety | --liveness | --removals] [extra -D options]" >&2; exit 2 ;;
esac

if [[ $mode != --liveness ]]; then
  # an -DMONO=… of the extra options: that fleet alone
  [[ " $* " == *" -DMONO="* ]] && SAFETY_MONOS=("")
  for mono in "${SAFETY_MONOS[@]}"; do
    [[ -n $mono ]] && monodef=(-DMONO="$mono") || monodef=()
    check "all${mono:+-mono$mono}" "safety${mono:+ (MONO=$mono)}" "${BOUNDS[@]}" -DTMAX=$TMAX \
      ${monodef[@]+"${monodef[@]}"} "$@" || exit
  done
  if (($# == 0)); then
    # the rejoin needs two clock steps (forward, then back): reached with the restarts left out
    for mono in 1 2; do
      check "rejoin-mono$mono" "safety through a rejoin (MONO=$mono, two steps, no restart)" \
        "${BOUNDS[@]}" -DTMAX=$TMAX -DMONO="$mono" -DMAXSTEPS=2 -DMAXRESTARTS=0 || exit
    done
  fi
  [[ $mode == --safety ]] && exit 0
fi
check live liveness "${LIVE_BOUNDS[@]}" -DTMAX=$LIVE_TMAX "$@" || exit
[[ $mode == --liveness ]] || exit 0

# the property can fail: each broken variant yields a counterexample (breadth first: the
# shortest trail; healing at time 0, without restarts: all any of them needs with the model's
# constants, where K comes from the loss)
status=0
for m in SHORT_K NO_RETRY NO_REJOIN; do
  extra=(-DTMAX=0 -DMAXRESTARTS=0)
  [[ $m == NO_RETRY ]] && extra+=(-DMAXSTEPS=0)
  rc=0
  # their own bounds after the extra options
  run "live-$m" -DBFS "${LIVE_BOUNDS[@]}" "$@" "${extra[@]}" "-D$m" || rc=$?
  case $rc in
    1) echo "$m: counterexample found" ;;
    0) echo "$m: no counterexample: the liveness property shows nothing" >&2; status=1 ;;
    *) echo "$m: search incomplete: no counterexample within the bounds searched" >&2; status=1 ;;
  esac
done
exit $status
