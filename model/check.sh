#!/usr/bin/env bash
# Checks the lease model (model/lease.pml) with SPIN: no ID issued twice, no ID after the
# registry's expiry. Usage: model/check.sh [--removals] [extra -D options]
#   (no option)  the bounded check with every mechanism; exits non-zero on a violation
#   --removals   removes each mechanism in turn (-DNO_HWM, …) and shows that each yields a
#                counterexample (trails kept in model/out/); exits non-zero if one does not
# Bounds: docs/design.md, "A checked model of the lease".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
mkdir -p "$out"
command -v spin >/dev/null || { echo "spin not found: apt-get install -y spin" >&2; exit 2; }

# the default bounds: one holder and a newcomer on one id, every fault once
BOUNDS=(-DNH=2 -DNN=1 -DTTL=2)
TMAX=4

# run NAME DEFINES...: compiles and searches; prints the numbers; returns 1 on an error found
run() {
  local name=$1 search=$2
  shift 2
  local dir="$out/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$here/lease.pml" "$dir/"
  (cd "$dir" && spin -a "$@" lease.pml >/dev/null &&
    gcc -O2 -w -DSAFETY $search -DMEMLIM=3000 -DHC4 -o pan pan.c &&
    nice -n 10 ./pan -m100000 -w26 -c1 >pan.out 2>&1) || true
  grep -E "State-vector|states, stored|elapsed time|assertion violated" "$dir/pan.out" |
    sed "s/^/  $name: /"
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
  for m in NO_HWM NO_SENT NO_FENCE NO_SKEW NO_WAIT NO_LOSTWAIT; do
    # breadth first: the shortest trail
    search=-DBFS extra=(-DTMAX=$TMAX)
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

start=$(date +%s)
rc=0
run all "" "${BOUNDS[@]}" -DTMAX=$TMAX "$@" || rc=$?
case $rc in
  0) echo "lease model: no violation ($(($(date +%s) - start)) s)" ;;
  1) echo "lease model: VIOLATION" >&2; exit 1 ;;
  *) echo "lease model: search incomplete" >&2; exit 2 ;;
esac
