package io.snowid.torture;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each slot's wall-clock offset through a run, composed from every clock fault in the fault log: a
 * step sets the offset its detail records (the slot's standing offset and every step then in
 * force), and its restore takes that step back.
 */
final class SlotClocks {
  /**
   * How long libfaketime may keep a slot's old offset after its file changed: it reads the file
   * again once whole seconds since its last read exceed FAKETIME_CACHE_DURATION (1), so up to 2 s.
   */
  static final long CACHE_MICROS = 2_000_000;

  private static final Pattern STEPPED = Pattern.compile("step (-?\\d+)ms to offset (-?\\d+)ms");
  private static final Pattern RESTARTED =
      Pattern.compile("replacement started at offset (-?\\d+)ms");

  /** At {@code atMicros}, the slot's offset becomes {@code to} (a step) or moves by {@code by}. */
  private record Change(int slot, long atMicros, Long to, long by) {}

  private final List<Change> changes = new ArrayList<>();

  SlotClocks(List<FaultLog.Applied> faults) {
    for (FaultLog.Applied f : faults) {
      Matcher step = STEPPED.matcher(f.detail());
      Matcher restart = RESTARTED.matcher(f.detail());
      if ((f.kind() == FaultKind.CLOCK_BACK || f.kind() == FaultKind.CLOCK_FORWARD)
          && step.find()) {
        long by = Long.parseLong(step.group(1));
        changes.add(new Change(f.target(), f.fromMicros(), Long.parseLong(step.group(2)), by));
        changes.add(new Change(f.target(), f.toMicros(), null, -by));
      } else if (f.kind() == FaultKind.RESTART_CLOCK_BACK && restart.find()) {
        long by = -f.magnitudeMillis();
        changes.add(new Change(f.target(), f.fromMicros(), Long.parseLong(restart.group(1)), by));
        changes.add(new Change(f.target(), f.toMicros(), null, -by));
      }
    }
    changes.sort(Comparator.comparingLong(Change::atMicros));
  }

  /**
   * The furthest ahead the slot's clock stood at any time from {@code fromMicros} to {@code
   * toMicros}, in milliseconds, counting an offset for {@link #CACHE_MICROS} after it changed; 0
   * for a slot no clock fault moved (a standing offset is within maxSkew).
   *
   * @param slews whether the slot's time source slews back at 0.9 when its wall clock steps back
   *     (the default, monotonic one: it stays ahead, losing 0.1 s a second), rather than follow it
   */
  long highestMillis(int slot, long fromMicros, long toMicros, boolean slews) {
    Long offset = null;
    long source = 0; // the time source's offset at the segment's start
    long highest = Long.MIN_VALUE;
    long since = Long.MIN_VALUE;
    for (Change c : changes) {
      if (c.slot() != slot) {
        continue;
      }
      if (offset == null) {
        offset = c.to() != null ? c.to() - c.by() : 0; // the standing offset before the first
        source = offset;
      }
      if (c.atMicros() + CACHE_MICROS >= fromMicros && since <= toMicros) {
        highest = Math.max(highest, at(offset, source, since, Math.max(since, fromMicros), slews));
      }
      source = at(offset, source, since, c.atMicros(), slews);
      offset = c.to() != null ? c.to() : offset + c.by();
      source = Math.max(source, offset);
      since = c.atMicros();
    }
    if (offset == null) {
      return 0;
    }
    if (since <= toMicros) {
      highest = Math.max(highest, at(offset, source, since, Math.max(since, fromMicros), slews));
    }
    return highest;
  }

  /**
   * The offset at {@code t} of a segment from {@code since} whose source started at {@code source}.
   */
  private static long at(long offset, long source, long since, long t, boolean slews) {
    if (!slews || since == Long.MIN_VALUE) {
      return offset;
    }
    return Math.max(offset, source - (t - since) / 10_000);
  }
}
