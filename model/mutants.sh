#!/usr/bin/env bash
# Shows that each replay of the model's counterexamples (LeaseModelTrailsTest) catches the removal
# of its mechanism in the code: in a scratch worktree of HEAD (committed code, not the working
# tree), removes one mechanism at a time as model/lease.pml's -D options do, runs the test that
# replays it, and expects that test to fail.
# Usage: model/mutants.sh   (needs a built ~/.m2: run the README's test command once; ~3 min)
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
source=snowid-core/src/main/java/io/snowid/MonotonicTimeSource.java

# remove NAME: edits the code as the model's -DNAME does (one replacement, checked: text within a
# line, or a whole line where the text starts with spaces)
remove() {
  local file old new
  case $1 in
    NO_HWM) file=$holder old='new LeaseTerms(options.ttl(), sent, mayIssue),'
      new='new LeaseTerms(options.ttl(), sent, Long.MIN_VALUE),' ;;
    NO_HWM_RENEW) file=$holder
      old='new LeaseTerms(options.ttl(), sent, Math.max(mayIssue, listener.lastIssuedMillis())));'
      new='new LeaseTerms(options.ttl(), sent, listener.lastIssuedMillis()));' ;;
    NO_SENT) file=$holder old='      long deadline = deadline(l, sent, mayIssue);'
      new='      sentNanos = time.nanoTime(); sent = received; mayIssue = sent + options.ttl().toMillis() - margin.toMillis(); long deadline = deadline(l, sent, mayIssue);' ;;
    NO_SENT_ACQUIRE) file=$holder old='    long deadline = deadline(l, sent, mayIssue);'
      new='    sentNanos = time.nanoTime(); sent = received; mayIssue = sent + options.ttl().toMillis() - margin.toMillis(); long deadline = deadline(l, sent, mayIssue);' ;;
    NO_FENCE) file=$binding old='return b.realTimeBound && time.nanoTime() - b.realLimitNanos >= 0;'
      new='return false;' ;;
    NO_SKEW) file=$holder old='    if (!coordinator.hasOwnClock()) {' new='    if (true) {' ;;
    NO_WAIT) file=$binding
      old='passTick.accept(startAfter == Long.MIN_VALUE ? -1 : position.tickAt(startAfter));'
      new='passTick.accept(-1);' ;;
    NO_LOSTWAIT) file=$registry old='lostUntil = request.limits().lostUntilMillis(now);'
      new='lostUntil = Long.MIN_VALUE;' ;;
    # the slew's rate 0.9 down to 0.5, below the lease's (ttl - margin) / ttl = 0.8
    NO_SLEWBOUND) file=$source old='static final long SLEW_DIVISOR = 10;'
      new='static final long SLEW_DIVISOR = 2;' ;;
  esac
  OLD=$old NEW=$new python3 - "$file" <<'P'
import os, sys
p = sys.argv[1]; s = open(p).read(); old = os.environ["OLD"]; new = os.environ["NEW"]
if old.startswith(" "):
    old, new = "\n" + old + "\n", "\n" + new + "\n"
if s.count(old) != 1:
    sys.exit("the code to remove is not found once in " + p + ": " + old)
open(p, "w").write(s.replace(old, new))
P
}

status=0
trails=LeaseModelTrailsTest
for pair in NO_HWM:$trails#newcomerClockBehindOnAnExpiredId \
  NO_HWM_RENEW:$trails#newcomerClockBehindOnAnIdExpiredAfterARenewal \
  NO_SENT:$trails#renewalReplyLater NO_SENT_ACQUIRE:LeaseDeadlineTest#acquire_slowAnswer \
  NO_FENCE:$trails#wallClockSteppedBack NO_SKEW:$trails#holderClockAhead \
  NO_WAIT:$trails#newcomerInTheMillisecond NO_LOSTWAIT:$trails#registryLostUnderALiveHolder \
  NO_SLEWBOUND:$trails#defaultSourceSlewingAfterAStepBack; do
  name=${pair%%:*} test=${pair#*:}
  git checkout -q -- snowid-core
  if ! remove "$name"; then status=1; continue; fi
  nice -n 5 ./mvnw -o -B -q -pl snowid-core verify -Dtest="${test}*" \
    -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.check.skip=true >"$work/$name.log" 2>&1
  if grep -q "Tests run: 1, Failures: 1" "$work/$name.log"; then
    echo "$name: ${test%%#*} fails: $(grep -oE "${test%%#*}.java:[0-9]+" "$work/$name.log" | head -1)"
  else
    echo "$name: its replay does not fail without it" >&2
    tail -20 "$work/$name.log" >&2
    status=1
  fi
done
exit $status
