#!/usr/bin/env bash
# Shows that each replay of the model's counterexamples (LeaseModelTrailsTest) catches the removal
# of its mechanism in the code: in a scratch worktree of HEAD, removes one mechanism at a time as
# model/lease.pml's -D options do, runs that mechanism's replay, and expects it to fail.
# Usage: model/mutants.sh   (needs a built ~/.m2: run the README's test command once; ~2 min)
# docs/design.md, "A checked model of the lease".
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$work/tree" >/dev/null 2>&1; rm -rf "$work"' EXIT
git -C "$repo" worktree add -q --detach "$work/tree" HEAD
cd "$work/tree" || exit 2
holder=snowid-core/src/main/java/io/snowid/lease/LeaseHolder.java
binding=snowid-core/src/main/java/io/snowid/NodeBinding.java
registry=snowid-core/src/testFixtures/java/io/snowid/testkit/ScriptedRegistry.java

# remove NAME: edits the code as the model's -DNAME does (one literal replacement, checked)
remove() {
  local file old new
  case $1 in
    NO_HWM) file=$holder old='new LeaseTerms(options.ttl(), sent, mayIssue),'
      new='new LeaseTerms(options.ttl(), sent, Long.MIN_VALUE),' ;;
    NO_SENT) file=$holder old='      long deadline = deadline(l, sent, mayIssue);'
      new='      sentNanos = time.nanoTime(); sent = received; mayIssue = sent + options.ttl().toMillis() - margin.toMillis(); long deadline = deadline(l, sent, mayIssue);' ;;
    NO_FENCE) file=$binding old='return b.realTimeBound && time.nanoTime() - b.realLimitNanos >= 0;'
      new='return false;' ;;
    NO_SKEW) file=$holder old='    if (!coordinator.hasOwnClock()) {' new='    if (true) {' ;;
    NO_WAIT) file=$binding
      old='passTick.accept(startAfter == Long.MIN_VALUE ? -1 : position.tickAt(startAfter));'
      new='passTick.accept(-1);' ;;
    NO_LOSTWAIT) file=$registry old='lostUntil = request.limits().lostUntilMillis(now);'
      new='lostUntil = Long.MIN_VALUE;' ;;
  esac
  OLD=$old NEW=$new python3 - "$file" <<'P'
import os, sys
p = sys.argv[1]; s = open(p).read(); old = os.environ["OLD"]
if s.count(old) != 1:
    sys.exit("the code to remove is not found once in " + p + ": " + old)
open(p, "w").write(s.replace(old, os.environ["NEW"]))
P
}

status=0
for pair in NO_HWM:newcomerClockBehind NO_SENT:renewalReplyLater NO_FENCE:wallClockSteppedBack \
  NO_SKEW:holderClockAhead NO_WAIT:newcomerInTheMillisecond NO_LOSTWAIT:registryLostUnderALiveHolder; do
  name=${pair%%:*} test=${pair#*:}
  git checkout -q -- snowid-core
  if ! remove "$name"; then status=1; continue; fi
  ./mvnw -o -B -q -pl snowid-core verify -Dtest="LeaseModelTrailsTest#${test}*" \
    -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.check.skip=true >"$work/$name.log" 2>&1
  if grep -q "Tests run: 1, Failures: 1" "$work/$name.log"; then
    echo "$name: its replay fails: $(grep -oE 'LeaseModelTrailsTest.java:[0-9]+' "$work/$name.log" | head -1)"
  else
    echo "$name: its replay does not fail without it" >&2
    tail -20 "$work/$name.log" >&2
    status=1
  fi
done
exit $status
