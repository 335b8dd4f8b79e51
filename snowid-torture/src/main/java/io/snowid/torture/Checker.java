package io.snowid.torture;

import io.snowid.Layout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Reads every ID of a run and counts what must be zero: duplicates, per-process order violations,
 * IDs issued under node values the process did not hold (by the registry's records), processes
 * whose IDs of the same node values overlap in range; and measures the longest stall per fault
 * kind.
 *
 * <p>Longer than ~500 lines because its counts share the indexes and intervals that its passes over
 * the run's files build; split, the parts would pass them around or read the files again.
 */
final class Checker {
  /*
   * Memory. A run can hold a billion IDs, so nothing keeps them all. Pass 1 reads each worker's
   * file once, in order: counts, order, holds and gaps need only the previous record. It also
   * cuts each file into runs: stretches of strictly increasing IDs with the same node values and
   * clockback count (every run starts at a segment record, so it can be re-read from its offset).
   * Two equal IDs have the same node values and count, so a duplicate can only lie in two runs of
   * the same key whose ID ranges overlap; normally the next holder of node values starts after
   * everything the previous one issued and no ranges overlap. Pass 2 merges, from disk, exactly
   * the runs whose ranges overlap, and counts equal IDs: exact, in memory for the runs only.
   *
   * Held. An ID was taken from the generator at some moment after the worker's previous record
   * and at or before its own time (both monotonic), the interval (a, b]. It counts as issued
   * under node values not held only if no hold of that process on those values, by the
   * registry's records, meets (a, b] even widened by SLACK on each side. A lease id is the node
   * values packed, node fields from the most significant down: the ID's node bits read as one
   * number (nodeKey), in every form of the fleet's layout (NodeSetup), so the ID's node bits are
   * looked up directly. Every holder of the fleet's ID space leases under one namespace key (the
   * namespace name and the space); holds under more than one key fail the run, since holders
   * under different keys do not see each other.
   *
   * The tolerance. A generator stops at its deadline, which comes a margin (a fifth of the lease
   * time, at least 100 ms for the harness's leases) before the registry's expiry, by the lease's
   * monotonic clock, whatever its wall clock does (RELIABILITY.md, finding 2). What it may
   * still issue after that deadline is the time unit in flight: IDs of a unit a caller entered
   * just before it, returned within that unit (1 ms in the fleet's layout). SLACK (2 ms) covers
   * that unit and the registry's own timestamp granularity; a thread descheduled in the middle of
   * nextId() is covered by (a, b] itself. So an ID taken after the registry's expiry is a
   * violation whatever time it carries, also from a worker whose wall clock stepped back, even when
   * that time is within the high-water mark.
   */
  static final long SLACK_MICROS = 2_000;

  /** Gaps shorter than this are not stalls. */
  static final long GAP_MICROS = 100_000;

  private static final int EXAMPLES = 10;

  private final Path runDir;
  private final Layout layout;

  private final long keyMask;
  private final List<Layout.Field> nodeFields;
  private final Layout.Field clockback;
  private final Map<String, Map<Long, long[][]>> holds;
  private final Report report = new Report();
  private final List<Run> runs = new ArrayList<>();

  /**
   * Stretches of one process's IDs of one key between two events that end a holding (a fence, a
   * build): what it issued under one holding of the node values, {file, key, first, last}.
   */
  private final List<long[]> stretches = new ArrayList<>();

  private final List<Path> files = new ArrayList<>();
  private final Map<Integer, List<long[]>> activity = new TreeMap<>(); // slot -> [from, to]
  // slot -> [spawned, main() entered] of each worker JVM the harness started for it
  private final Map<Integer, List<long[]>> startups = new TreeMap<>();
  private final Map<Integer, List<long[]>> gaps = new HashMap<>(); // slot -> its stalls [from, to]
  // "instance node" -> how far its last ID's time lay ahead of the wall clock when it took it (ms)
  private final Map<String, Long> leads = new HashMap<>();
  private final Map<String, Long> spawnedAt = new HashMap<>(); // instance -> the harness's spawn

  /** A stretch of one file: strictly increasing IDs of one key. */
  private record Run(int file, long offset, long key, long first, long last, long count) {}

  private Checker(Path runDir, Layout layout, List<Hold> holdList) {
    this.runDir = runDir;
    this.layout = layout;
    this.keyMask = WorkerMain.keyMask(layout);
    this.nodeFields = layout.nodeFields();
    this.clockback = layout.clockbackField().orElse(null);
    this.holds = index(holdList);
  }

  /** Checks the run in a directory the harness wrote; availability targets are reported only. */
  static Report check(Path runDir) throws IOException {
    return check(runDir, false);
  }

  /**
   * Checks the run in a directory the harness wrote.
   *
   * @param availability whether a missed availability target fails the run ({@code
   *     --availability}); uniqueness always does
   */
  static Report check(Path runDir, boolean availability) throws IOException {
    Properties run = new Properties();
    try (InputStream in = Files.newInputStream(runDir.resolve("run.properties"))) {
      run.load(in);
    }
    List<Hold> holdList = new ArrayList<>();
    for (String line : Files.readAllLines(runDir.resolve("holds.txt"))) {
      if (!line.isBlank()) {
        holdList.add(Hold.parse(line));
      }
    }
    Checker c = new Checker(runDir, Layout.parse(run.getProperty("layout")), holdList);
    for (Hold h : holdList) {
      c.report.namespaces.merge(h.namespace(), 1L, Long::sum);
    }
    c.report.run = run;
    c.report.availabilityGate = availability;
    c.report.timeline = Timeline.load(runDir.resolve("timeline.txt"));
    c.report.faults = FaultLog.load(runDir.resolve("faults.log"));
    c.passOne();
    c.predecessorMarks(holdList);
    c.aheadRecorders();
    c.passTwo();
    c.overlaps();
    c.stalls();
    return c.report;
  }

  private static Map<String, Map<Long, long[][]>> index(List<Hold> list) {
    Map<String, Map<Long, List<long[]>>> raw = new HashMap<>();
    for (Hold h : list) {
      raw.computeIfAbsent(h.instance(), k -> new HashMap<>())
          .computeIfAbsent(h.nodeKey(), k -> new ArrayList<>())
          .add(new long[] {h.fromMicros(), h.toMicros()});
    }
    Map<String, Map<Long, long[][]>> out = new HashMap<>();
    raw.forEach(
        (instance, byKey) -> {
          Map<Long, long[][]> m = new HashMap<>();
          byKey.forEach((key, intervals) -> m.put(key, merge(intervals)));
          out.put(instance, m);
        });
    return out;
  }

  /** Sorted, with overlapping intervals joined. */
  static long[][] merge(List<long[]> intervals) {
    intervals.sort(Comparator.comparingLong(i -> i[0]));
    List<long[]> out = new ArrayList<>();
    for (long[] i : intervals) {
      long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && i[0] <= last[1]) {
        last[1] = Math.max(last[1], i[1]);
      } else {
        out.add(new long[] {i[0], i[1]});
      }
    }
    return out.toArray(new long[0][]);
  }

  long nodeKey(long id) {
    long k = 0;
    for (Layout.Field f : nodeFields) {
      k = (k << f.bits()) | ((id >>> f.shift()) & f.max());
    }
    return k;
  }

  private int clockbackOf(long id) {
    return clockback == null ? 0 : (int) ((id >>> clockback.shift()) & clockback.max());
  }

  private void passOne() throws IOException {
    List<Path> metas = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(runDir.resolve("ids"), "*.meta")) {
      ds.forEach(metas::add);
    }
    metas.sort(Comparator.naturalOrder());
    for (Path meta : metas) {
      String name = meta.getFileName().toString();
      String instance = name.substring(0, name.length() - ".meta".length());
      Path ids = meta.resolveSibling(instance + ".ids");
      if (!Files.exists(ids)) {
        continue; // started but killed before it opened its file
      }
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(meta)) {
        p.load(in);
      }
      files.add(ids);
      long started = Long.parseLong(p.getProperty("startMicros"));
      String spawned = p.getProperty("spawnedMicros");
      if (spawned != null) {
        spawnedAt.put(instance, Long.parseLong(spawned));
        int slot = Integer.parseInt(instance.substring(1, instance.indexOf('-')));
        startups
            .computeIfAbsent(slot, k -> new ArrayList<>())
            .add(new long[] {Long.parseLong(spawned), started});
      }
      readWorker(files.size() - 1, instance, ids, started);
    }
  }

  private void readWorker(int fileIndex, String instance, Path file, long startMicros)
      throws IOException {
    Report.Worker w = new Report.Worker(instance);
    report.workers.add(w);
    int slot = Integer.parseInt(instance.substring(1, instance.indexOf('-')));
    Map<Long, long[][]> held = holds.getOrDefault(instance, Map.of());
    HoldCursors cursors = new HoldCursors(holds.getOrDefault(instance, Map.of()));
    long[] last = new long[clockback == null ? 1 : (int) clockback.max() + 1];
    Arrays.fill(last, Long.MIN_VALUE);
    long a = startMicros;
    long prevId = 0;
    long runOffset = -1;
    long runKey = 0;
    long runFirst = 0;
    long runCount = 0;
    long stretchKey = 0;
    long stretchFirst = 0;
    boolean inStretch = false;
    long firstIdAt = Long.MIN_VALUE;
    long lastIdAt = Long.MIN_VALUE;
    long leadKey = 0; // the node of the last ID read, the ID and when it was taken
    long leadId = 0;
    long leadAt = Long.MIN_VALUE;
    List<long[]> active = activity.computeIfAbsent(slot, k -> new ArrayList<>());
    try (IdLogReader r = new IdLogReader(file)) {
      while (r.next()) {
        switch (r.kind()) {
          case EVENT -> {
            w.events.merge(r.event(), 1L, Long::sum);
            a = r.micros();
            if (inStretch && ends(r.event())) {
              stretches.add(new long[] {fileIndex, stretchKey, stretchFirst, prevId});
              inStretch = false;
            }
          }
          case END -> w.graceful = true;
          case ID -> {
            long id = r.id();
            long b = r.micros();
            w.ids++;
            int cb = clockbackOf(id);
            if (id <= last[cb]) {
              report.orderViolations++;
              report.example(
                  report.orderExamples,
                  instance + ": " + id + " after " + last[cb] + " (clockback " + cb + ")");
            }
            last[cb] = id;
            if (r.segment()) {
              if (runOffset >= 0) {
                runs.add(new Run(fileIndex, runOffset, runKey, runFirst, prevId, runCount));
              }
              runOffset = r.offset();
              runKey = id & keyMask;
              runFirst = id;
              runCount = 0;
            }
            runCount++;
            if (inStretch && (id & keyMask) != stretchKey) {
              stretches.add(new long[] {fileIndex, stretchKey, stretchFirst, prevId});
              inStretch = false;
            }
            if (!inStretch) {
              inStretch = true;
              stretchKey = id & keyMask;
              stretchFirst = id;
            }
            prevId = id;
            long nodeKey = nodeKey(id);
            if (leadAt != Long.MIN_VALUE && nodeKey != leadKey) {
              lead(instance, leadKey, leadId, leadAt);
            }
            leadKey = nodeKey;
            leadId = id;
            leadAt = b;
            if (!cursors.held(nodeKey, a, b)) {
              report.notHeld++;
              report.example(
                  report.notHeldExamples,
                  String.format(
                      "%s: ID %d (time %s) with node %d taken in (%s, %s], not held then by the"
                          + " registry's records (holds of %s on %d: %s)",
                      instance,
                      id,
                      java.time.Instant.ofEpochMilli(layout.decode(id).timestampMillis()),
                      nodeKey,
                      report.at(a),
                      report.at(b),
                      instance,
                      nodeKey,
                      describe(held.get(nodeKey))));
            }
            if (firstIdAt == Long.MIN_VALUE) {
              firstIdAt = b;
            } else if (b - lastIdAt >= GAP_MICROS) {
              active.add(new long[] {firstIdAt, lastIdAt});
              firstIdAt = b;
            }
            lastIdAt = b;
            a = b;
          }
        }
      }
    }
    if (runOffset >= 0) {
      runs.add(new Run(fileIndex, runOffset, runKey, runFirst, prevId, runCount));
    }
    if (inStretch) {
      stretches.add(new long[] {fileIndex, stretchKey, stretchFirst, prevId});
    }
    if (firstIdAt != Long.MIN_VALUE) {
      active.add(new long[] {firstIdAt, lastIdAt});
      lead(instance, leadKey, leadId, leadAt);
    }
    report.total += w.ids;
  }

  /**
   * Records how far the last ID of {@code instance} under {@code node} ran ahead of the wall clock.
   */
  private void lead(String instance, long node, long id, long takenMicros) {
    leads.put(
        instance + " " + node,
        layout.decode(id).timestampMillis() - report.timeline.wallOfMono(takenMicros));
  }

  private String describe(long[][] intervals) {
    if (intervals == null) {
      return "none";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(intervals.length, 6); i++) {
      sb.append(i == 0 ? "" : ", ")
          .append('[')
          .append(report.at(intervals[i][0]))
          .append(", ")
          .append(intervals[i][1] == Long.MAX_VALUE ? "end" : report.at(intervals[i][1]))
          .append(']');
    }
    return intervals.length > 6 ? sb + ", …" : sb.toString();
  }

  /**
   * One process's holds per node key, each with a cursor: times only grow within a worker's file,
   * so a hold passed stays passed. Keeps the last key's (the common case: a run of one key).
   */
  private static final class HoldCursors {
    private final Map<Long, long[][]> held;
    private final Map<Long, int[]> cursors = new HashMap<>();
    private long lastKey = Long.MIN_VALUE;
    private long[][] lastIntervals;
    private int[] lastCursor;

    HoldCursors(Map<Long, long[][]> held) {
      this.held = held;
    }

    /** Whether a hold on nodeKey meets (a, b], widened by SLACK. */
    boolean held(long nodeKey, long a, long b) {
      if (nodeKey != lastKey || lastCursor == null) {
        lastKey = nodeKey;
        lastIntervals = held.get(nodeKey);
        lastCursor = cursors.computeIfAbsent(nodeKey, k -> new int[1]);
      }
      long[][] intervals = lastIntervals;
      if (intervals == null) {
        return false;
      }
      int[] c = lastCursor;
      while (c[0] < intervals.length && intervals[c[0]][1] < a - SLACK_MICROS) {
        c[0]++;
      }
      return c[0] < intervals.length && intervals[c[0]][0] <= b + SLACK_MICROS;
    }
  }

  /** Whether an event ends a holding: the lease lost, or a generator built anew. */
  private static boolean ends(IdLog.Event e) {
    return e == IdLog.Event.FENCED || e == IdLog.Event.BUILT || e == IdLog.Event.BUILD_FAILED;
  }

  /**
   * Counts the stretches of two processes of one key whose ranges overlap: a holder that started
   * before another's last ID under its holding (equal IDs or not). A process that lost its node
   * values and got them back after another's holding makes two stretches, which do not overlap it.
   */
  private void overlaps() {
    stretches.sort(Comparator.<long[]>comparingLong(x -> x[1]).thenComparingLong(x -> x[2]));
    long key = 0;
    long[] reach = null; // the stretch of this key reaching furthest so far
    long[] otherReach = null; // the furthest of another process than reach's
    for (long[] x : stretches) {
      if (reach == null || x[1] != key) {
        key = x[1];
        reach = x;
        otherReach = null;
        continue;
      }
      long[] overlapped =
          reach[0] != x[0] && x[2] <= reach[3]
              ? reach
              : otherReach != null && otherReach[0] != x[0] && x[2] <= otherReach[3]
                  ? otherReach
                  : null;
      if (overlapped != null) {
        report.overlaps++;
        report.example(
            report.overlapExamples,
            files.get((int) overlapped[0]).getFileName()
                + " ["
                + overlapped[2]
                + ", "
                + overlapped[3]
                + "] and "
                + files.get((int) x[0]).getFileName()
                + " ["
                + x[2]
                + ", "
                + x[3]
                + "]");
      }
      if (x[3] > reach[3]) {
        if (x[0] != reach[0]) {
          otherReach = reach;
        }
        reach = x;
      } else if (x[0] != reach[0] && (otherReach == null || x[3] > otherReach[3])) {
        otherReach = x;
      }
    }
  }

  /** Merges the runs of each key whose ranges overlap, from disk, and counts equal IDs. */
  private void passTwo() throws IOException {
    Map<Long, List<Run>> byKey = new HashMap<>();
    for (Run r : runs) {
      byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
    }
    report.runs = runs.size();
    for (List<Run> group : byKey.values()) {
      group.sort(Comparator.comparingLong(Run::first));
      List<Run> cluster = new ArrayList<>();
      long clusterLast = Long.MIN_VALUE;
      for (Run r : group) {
        if (!cluster.isEmpty() && r.first() > clusterLast) {
          mergeCluster(cluster);
          cluster.clear();
        }
        cluster.add(r);
        clusterLast = Math.max(clusterLast, r.last());
      }
      mergeCluster(cluster);
    }
  }

  private void mergeCluster(List<Run> cluster) throws IOException {
    if (cluster.size() < 2) {
      return;
    }
    report.overlappingRuns += cluster.size();
    List<RunCursor> open = new ArrayList<>();
    PriorityQueue<RunCursor> queue = new PriorityQueue<>(Comparator.comparingLong(c -> c.id));
    try {
      for (Run r : cluster) {
        RunCursor c = new RunCursor(r, IdLogReader.at(files.get(r.file()), r.offset()));
        open.add(c);
        if (c.advance()) {
          queue.add(c);
        }
      }
      long previous = 0;
      RunCursor previousFrom = null;
      while (!queue.isEmpty()) {
        RunCursor c = queue.poll();
        if (previousFrom != null && c.id == previous) {
          report.duplicates++;
          report.example(
              report.duplicateExamples,
              c.id
                  + " from "
                  + files.get(previousFrom.run.file()).getFileName()
                  + " and "
                  + files.get(c.run.file()).getFileName());
        }
        previous = c.id;
        previousFrom = c;
        if (c.advance()) {
          queue.add(c);
        }
      }
    } finally {
      for (RunCursor c : open) {
        c.reader.close();
      }
    }
  }

  /** Reads the IDs of one run. */
  private static final class RunCursor {
    final Run run;
    final IdLogReader reader;
    long read;
    long id;

    RunCursor(Run run, IdLogReader reader) {
      this.run = run;
      this.reader = reader;
    }

    boolean advance() throws IOException {
      if (read >= run.count()) {
        return false;
      }
      while (reader.next()) {
        if (reader.kind() == IdLogReader.Kind.ID) {
          id = reader.id();
          read++;
          return true;
        }
      }
      throw new IOException("run at offset " + run.offset() + " ends early");
    }
  }

  /** The longest stretch without IDs of an affected slot that meets each fault, per kind. */
  private void stalls() {
    long start = Long.parseLong(report.run.getProperty("startMicros"));
    long stop = Long.parseLong(report.run.getProperty("stopMicros"));
    int slots = Integer.parseInt(report.run.getProperty("workers"));
    gaps.clear();
    for (int slot = 0; slot < slots; slot++) {
      List<long[]> list = new ArrayList<>(activity.getOrDefault(slot, List.of()));
      list.add(new long[] {Long.MIN_VALUE, start}); // the schedule's start and end bound the gaps
      list.add(new long[] {stop, Long.MAX_VALUE});
      long[][] merged = merge(list);
      List<long[]> g = new ArrayList<>();
      for (int i = 1; i < merged.length; i++) {
        if (merged[i][0] - merged[i - 1][1] >= GAP_MICROS) {
          g.add(new long[] {merged[i - 1][1], merged[i][0]});
        }
      }
      gaps.put(slot, g);
    }
    List<long[]> explained = new ArrayList<>();
    for (FaultLog.Applied f : report.faults) {
      Report.Stall s = report.stalls.computeIfAbsent(f.kind(), k -> new Report.Stall());
      s.count++;
      long recovery = 0;
      int slowest = -1;
      long[] slowestGap = null;
      int counted = 0;
      for (Map.Entry<Integer, List<long[]>> e : gaps.entrySet()) {
        if (!f.affects(e.getKey())) {
          continue;
        }
        boolean held = false;
        long due = due(f, e.getKey());
        long reach = reachBy(f, e.getKey());
        for (long[] g : e.getValue()) {
          if (g[0] <= reach && g[1] >= f.fromMicros()) {
            s.longestMicros = Math.max(s.longestMicros, g[1] - g[0]);
            // a slot that stalled after a registry's fault ended met it no earlier than that
            long from = Math.max(due, Math.min(g[0], reach));
            if (g[1] > from) {
              held = heldByAnother(f, e.getKey(), g);
              long startup = startupWithin(e.getKey(), from, g[1]);
              s.startupMicros = Math.max(s.startupMicros, startup);
              if (!held && g[1] - from - startup > recovery) {
                recovery = g[1] - from - startup;
                slowest = e.getKey();
                slowestGap = g;
              }
            }
            explained.add(g);
          }
        }
        counted += held ? 0 : 1;
      }
      if (counted == 0) {
        s.overlapped++; // every affected slot was held by another fault: no recovery of its own
        continue;
      }
      Availability target = report.target(f);
      s.recoveries.add(recovery);
      s.targets.add(target);
      if (slowestGap != null && recovery > target.medianMicros()) {
        report.slowRecoveries.add(slowRecovery(f, slowest, slowestGap, recovery));
      }
    }
    for (Map.Entry<Integer, List<long[]>> e : gaps.entrySet()) {
      for (long[] g : e.getValue()) {
        if (!explained.contains(g) && g[1] - g[0] > report.unexplainedMicros) {
          report.unexplainedMicros = g[1] - g[0];
          report.unexplainedAt = "slot " + e.getKey() + " from " + report.at(g[0]);
        }
      }
    }
  }

  /**
   * For each registry loss on etcd, whose loss records carry the clock of the holder that found the
   * loss: how much later its lostUntil lies when that clock stood more than maxSkew ahead (the
   * product keeps a lostAt ahead of its own clock rather than trust its own clock, which may be the
   * one behind: docs/design.md §9). The harness saw each record appear ({@code losses.txt}); the
   * record's lostAt less the real time then is at most its finder's lead. The wait is raised by
   * that lead beyond maxSkew for a record that appeared within a lease time (and libfaketime's
   * cache) of the loss's end and before the next registry fault began, if some slot's clock,
   * composed from every clock fault, stood that far ahead from half a lease time (a call's bound)
   * before the loss began until the record appeared.
   */
  private void aheadRecorders() throws IOException {
    String coordinator = report.run.getProperty("coordinator", "file:");
    Path file = runDir.resolve("losses.txt");
    if (!coordinator.equals("etcd://") || report.timeline == null || !Files.exists(file)) {
      return;
    }
    List<long[]> records = new ArrayList<>(); // {seen (monotonic µs), lostAt (Unix ms)}
    for (String line : Files.readAllLines(file)) {
      String[] f = line.trim().split(" ");
      if (f.length == 2) {
        records.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
      }
    }
    long ttl = ttlMicros();
    long skew = io.snowid.torture.Run.MAX_SKEW_MILLIS * 1000;
    SlotClocks clocks = new SlotClocks(report.faults);
    for (FaultLog.Applied f : report.faults) {
      long base = Availability.of(f, coordinator, ttl / 1000).waitMicros();
      if (!f.kind().onRegistry() || base == 0) {
        continue;
      }
      long lead = 0;
      long[] by = null;
      int slot = -1;
      long until = f.toMicros() + ttl + SlotClocks.CACHE_MICROS;
      for (FaultLog.Applied g : report.faults) {
        if (g.kind().onRegistry() && g.fromMicros() > f.fromMicros()) {
          until = Math.min(until, g.fromMicros()); // records after it may be that fault's
        }
      }
      for (long[] r : records) {
        if (r[0] < f.fromMicros() || r[0] > until) {
          continue;
        }
        long ahead = (r[1] - report.timeline.wallOfMono(r[0])) * 1000;
        // the finder read its clock before its call, sent up to ttl / 2 before the fault began
        int s = aheadBy(clocks, ahead, f.fromMicros() - ttl / 2, r[0]);
        if (ahead - skew > lead && s >= 0) {
          lead = ahead - skew;
          by = r;
          slot = s;
        }
      }
      if (by != null) {
        report.recorderWaits.put(f, base + lead);
        report.raisedTargets.add(
            String.format(
                "%s ending %s: %.1f s, its loss recorded at %s with lostAt %s, %.1f s beyond"
                    + " maxSkew ahead, as slot %d's clock stood",
                f.kind().label(),
                report.at(f.toMicros()),
                (base + lead) / 1e6,
                report.at(by[0]),
                java.time.Instant.ofEpochMilli(by[1]),
                lead / 1e6,
                slot));
      }
    }
  }

  /**
   * A slot whose clock stood at least {@code aheadMicros} ahead from {@code from} to {@code to} (on
   * the default time source, which slews back after a step: its source), or -1.
   */
  private int aheadBy(SlotClocks clocks, long aheadMicros, long from, long to) {
    int slots = Integer.parseInt(report.run.getProperty("workers", "0"));
    for (int slot = 0; slot < slots; slot++) {
      boolean slews =
          report.run.getProperty("slot." + slot, "").startsWith(TimeMode.MONOTONIC + ",");
      if (clocks.highestMillis(slot, from, to, slews) * 1000 >= aheadMicros) {
        return slot;
      }
    }
    return -1;
  }

  /**
   * For each kill and restart with the clock set back: how far after its end lies the high-water
   * mark recorded for the id its replacement took, which the replacement starts past (the ended
   * holder's own, if no replacement took one). It is {@code ttl - margin} at most while the last
   * holder's ID times followed the wall clock, more while they ran ahead of it (a monotonic time
   * source slews back at 0.9 after a forward step), whichever slot that holder was. A mark counts
   * only as far as that lead explains it: the last holder renewed by the end of its hold (by the
   * kill, if it was the one killed; by the replacement's taking it, and by its slot's next worker's
   * spawn, at the latest), promising {@code ttl - margin} ahead by its ID times, which lay ahead of
   * the wall clock by the lead of its last ID and at most {@code ttl / 10} more at its last renewal
   * before that ID (the lead shrinks by a tenth of the time that passes).
   */
  private void predecessorMarks(List<Hold> holdList) {
    long ttl = ttlMicros() / 1000;
    long margin = Math.max(ttl / 5, Math.min(50, ttl / 2)); // LeaseHolder's margin
    for (FaultLog.Applied f : report.faults) {
      if (f.kind() != FaultKind.KILL && f.kind() != FaultKind.RESTART_CLOCK_BACK) {
        continue;
      }
      Hold ended = null;
      Hold next = null;
      for (Hold h : holdList) {
        int slot = slotOf(h.instance());
        if (slot < 0 || !f.affects(slot)) {
          continue;
        }
        if (h.fromMicros() <= f.fromMicros() && h.toMicros() >= f.fromMicros()) {
          ended = h;
        } else if (h.fromMicros() > f.fromMicros()
            && (next == null || h.fromMicros() < next.fromMicros())) {
          next = h;
        }
      }
      // the prior holds of the id taken (the ended holder's own, if none was taken), each mark
      // counted as far as its holder's lead explains it; the furthest of those
      Hold last = null;
      long mark = Long.MIN_VALUE;
      long lead = 0;
      for (Hold h : holdList) {
        boolean prior =
            next == null
                ? h == ended
                : h.nodeKey() == next.nodeKey()
                    && h.namespace().equals(next.namespace())
                    && h.fromMicros() < next.fromMicros();
        if (!prior || h.highWaterMillis() == Long.MIN_VALUE) {
          continue;
        }
        long renewedBy = Math.min(h.toMicros(), next == null ? Long.MAX_VALUE : next.fromMicros());
        if (ended != null && h.instance().equals(ended.instance())) {
          renewedBy = Math.min(renewedBy, f.fromMicros());
        }
        renewedBy = Math.min(renewedBy, endedBy(h.instance()));
        long hLead = Math.max(0, leads.getOrDefault(h.instance() + " " + h.nodeKey(), 0L));
        long explained = report.timeline.wallOfMono(renewedBy) + ttl - margin + hLead + ttl / 10;
        long counted = Math.min(h.highWaterMillis(), explained);
        if (last == null || counted > mark) {
          last = h;
          mark = counted;
          lead = hLead;
        }
      }
      if (last == null) {
        continue;
      }
      long wait = report.timeline.monoOfWall(mark) - f.toMicros();
      long recorded = report.timeline.monoOfWall(last.highWaterMillis()) - f.toMicros();
      report.markWaits.put(f, wait);
      if (recorded > (ttl - margin) * 1000) {
        report.raisedTargets.add(
            String.format(
                "%s ending %s: %.1f s, the mark %s of %s on node %d, its ID times %.1f s ahead%s",
                f.kind().label(),
                report.at(f.toMicros()),
                wait / 1e6,
                java.time.Instant.ofEpochMilli(last.highWaterMillis()),
                last.instance(),
                last.nodeKey(),
                lead / 1e3,
                mark < last.highWaterMillis()
                    ? String.format(
                        " (the mark lay %.1f s after the end: the lead explains no more)",
                        recorded / 1e6)
                    : ""));
      }
    }
  }

  /**
   * When the worker instance {@code w<slot>-<n>} had ended at the latest: when the harness spawned
   * its slot's next one, {@code w<slot>-<n+1>}, after killing it; {@link Long#MAX_VALUE} if none.
   */
  private long endedBy(String instance) {
    int dash = instance.indexOf('-');
    if (dash < 0) {
      return Long.MAX_VALUE;
    }
    String next =
        instance.substring(0, dash + 1) + (Long.parseLong(instance.substring(dash + 1)) + 1);
    return spawnedAt.getOrDefault(next, Long.MAX_VALUE);
  }

  /** The slot of a worker instance {@code w<slot>-<incarnation>}, or -1. */
  private static int slotOf(String instance) {
    int dash = instance.indexOf('-');
    return instance.startsWith("w") && dash > 1
        ? Integer.parseInt(instance.substring(1, dash))
        : -1;
  }

  /**
   * How much of {@code from..to} the slot's worker JVMs spent starting (from the harness's spawn to
   * their {@code main}): a replacement's start-up is the JVM's and the machine's, not the lease's,
   * and the targets count none (RELIABILITY.md, "Availability targets").
   */
  private long startupWithin(int slot, long from, long to) {
    long sum = 0;
    for (long[] s : startups.getOrDefault(slot, List.of())) {
      sum += Math.max(0, Math.min(s[1], to) - Math.max(s[0], from));
    }
    return sum;
  }

  /**
   * Whether another fault held {@code slot} longer than {@code f} did during its stall {@code gap}:
   * one that met the stall and whose end, plus the wait uniqueness needs after it, comes after
   * {@code f}'s (a pause that outlasts a registry restart, a kill whose replacement still waits for
   * its predecessor's mark when the restart ends, a partition that begins while the slot has not
   * yet recovered). The stall is then that fault's, measured from that fault's own end: a fault on
   * every slot would otherwise take on the slowest of every other fault that overlaps it.
   */
  private boolean heldByAnother(FaultLog.Applied f, int slot, long[] gap) {
    long held = due(f, slot) + report.target(f).waitMicros();
    for (FaultLog.Applied o : report.faults) {
      if (o != f
          && o.affects(slot)
          && o.fromMicros() <= gap[1]
          && reachBy(o, slot) >= gap[0]
          && due(o, slot) + report.target(o).waitMicros() > held) {
        return true;
      }
    }
    return false;
  }

  /**
   * When {@code slot} meets {@code f}: at its end, but the slot meets a fault of the registry (a
   * restart, a rollback) at its first contact with the registry after it, and a holder makes one
   * within a lease time (it renews, or its lease runs out and it acquires again; a ZooKeeper
   * session cannot even resume on a restored older state), or, if it stalled meanwhile, within a
   * lease time of the stall's start, when it seeks the registry again. So if another fault keeps
   * the slot from the registry ({@link FaultKind#cutsOff}: a partition, a pause, a kill) when the
   * registry's fault ends, or begins by then, the slot meets the registry's fault when that one
   * ends: only then does it find, say, a lost state ({@link #due}).
   */
  private long metAt(FaultLog.Applied f, int slot) {
    long at = f.toMicros();
    if (!f.kind().onRegistry()) {
      return at;
    }
    long contactBy = at + ttlMicros();
    for (long[] g : gaps.getOrDefault(slot, List.of())) {
      if (g[0] >= f.fromMicros() && g[0] <= at + ttlMicros()) {
        // stalled since: it seeks the registry again within a lease time
        contactBy = Math.max(contactBy, Math.min(g[1], g[0] + ttlMicros()));
      }
    }
    for (boolean moved = true; moved; ) {
      moved = false;
      for (FaultLog.Applied o : report.faults) {
        if (o.kind().cutsOff()
            && o.affects(slot)
            && o.fromMicros() <= Math.max(at, contactBy)
            && o.toMicros() > at) {
          at = o.toMicros();
          moved = true;
        }
      }
    }
    return at;
  }

  /**
   * From when {@code f}'s target counts on {@code slot}: when the slot met it ({@link #metAt}), but
   * the wait uniqueness needs after a registry's loss runs from when the first affected slot met it
   * and found the loss, whose {@code lostUntil} a slot that meets it later finds recorded. So a
   * slot kept from the registry longer is due by that first finding's wait, or at once when it
   * meets the fault after that wait ran out.
   */
  private long due(FaultLog.Applied f, int slot) {
    long met = metAt(f, slot);
    long wait = report.target(f).waitMicros();
    if (!f.kind().onRegistry() || wait == 0) {
      return met;
    }
    long first = Long.MAX_VALUE;
    for (int s : gaps.keySet()) {
      if (f.affects(s)) {
        first = Math.min(first, metAt(f, s));
      }
    }
    return Math.max(first, met - wait);
  }

  /**
   * Until when a stall that begins is {@code f}'s on {@code slot}: one that began by the time the
   * slot met it; for a fault of the registry, also one that began within a lease time after its end
   * (the holder's lease ran out before a renewal reached the registry; see {@link #metAt}).
   */
  private long reachBy(FaultLog.Applied f, int slot) {
    long met = metAt(f, slot);
    return f.kind().onRegistry() ? Math.max(met, f.toMicros() + ttlMicros()) : met;
  }

  /** The run's lease time (its longest, when slots differ), in microseconds. */
  private long ttlMicros() {
    return Long.parseLong(report.run.getProperty("ttlMillis", "2000")) * 1000;
  }

  /**
   * A recovery beyond its kind's median target: the slot that set it, when its stall began, and the
   * other faults that met that slot during the stall (a recovery is the slowest affected slot's, so
   * a fault on all slots inherits the stall of one that another fault held up).
   */
  private String slowRecovery(FaultLog.Applied f, int slot, long[] gap, long recovery) {
    List<String> others = new ArrayList<>();
    for (FaultLog.Applied o : report.faults) {
      if (o != f && o.affects(slot) && o.fromMicros() <= gap[1] && o.toMicros() >= gap[0]) {
        others.add(
            String.format(
                "%s %+.1f..%+.1f s",
                o.kind().label(),
                (o.fromMicros() - f.toMicros()) / 1e6,
                (o.toMicros() - f.toMicros()) / 1e6));
      }
    }
    return String.format(
        "%s ending %s: %.3f s, slot %d, stalled since %+.3f s%s",
        f.kind().label(),
        report.at(f.toMicros()),
        recovery / 1e6,
        slot,
        (gap[0] - f.toMicros()) / 1e6,
        others.isEmpty() ? "" : "; also met: " + String.join(", ", others));
  }

  /** What the checker found; {@link #exitCode()} is 0 only when every count is 0. */
  static final class Report {
    Properties run;
    Timeline timeline;
    List<FaultLog.Applied> faults = List.of();
    final List<String> slowRecoveries = new ArrayList<>(); // beyond the kind's median target
    final List<Worker> workers = new ArrayList<>();
    long total;
    long duplicates;
    long orderViolations;
    long notHeld;
    long runs;
    long overlappingRuns;

    /**
     * Stretches of two processes with the same node values and clockback count, each between two
     * events of its process, whose ID ranges overlap: one started before the other's last ID under
     * its holding, which a lease must never allow, whether or not an ID came out equal.
     */
    long overlaps;

    final List<String> overlapExamples = new ArrayList<>();
    long unexplainedMicros;
    String unexplainedAt = "";
    final List<String> duplicateExamples = new ArrayList<>();
    final List<String> orderExamples = new ArrayList<>();
    final List<String> notHeldExamples = new ArrayList<>();
    final Map<String, Long> namespaces = new TreeMap<>(); // namespace key -> holds
    final Map<FaultKind, Stall> stalls = new EnumMap<>(FaultKind.class);
    boolean availabilityGate; // --availability: a missed target fails the run

    /** Per kill and restart-clock-back: its end to the ended holder's recorded mark (µs). */
    final Map<FaultLog.Applied, Long> markWaits = new HashMap<>();

    /**
     * Per registry loss on etcd: its wait, raised by the lead of a clock ahead that recorded it.
     */
    final Map<FaultLog.Applied, Long> recorderWaits = new HashMap<>();

    /** The kills whose target a recorded mark raised beyond ttl - margin, each with its mark. */
    final List<String> raisedTargets = new ArrayList<>();

    /** One worker process. */
    static final class Worker {
      final String instance;
      long ids;
      boolean graceful;
      final Map<IdLog.Event, Long> events = new EnumMap<>(IdLog.Event.class);

      Worker(String instance) {
        this.instance = instance;
      }
    }

    /** Faults of one kind and the longest stall around them. */
    static final class Stall {
      int count;
      int overlapped; // faults each of whose affected slots another fault held past its end
      long longestMicros;
      long startupMicros; // the longest JVM start-up left out of a recovery
      final List<Long> recoveries = new ArrayList<>(); // per fault: healed until IDs again
      final List<Availability> targets = new ArrayList<>(); // per fault, as recoveries

      long recoveryMicros(double quantile) {
        return quantile(recoveries, quantile);
      }

      /** Whether every counted fault of the kind had the same wait (or none was counted). */
      boolean oneWait() {
        return targets.stream().mapToLong(Availability::waitMicros).distinct().count() <= 1;
      }

      /** Each recovery less its own fault's wait. */
      List<Long> beyondWait() {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < recoveries.size(); i++) {
          out.add(recoveries.get(i) - targets.get(i).waitMicros());
        }
        return out;
      }

      static long quantile(List<Long> values, double quantile) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.isEmpty()
            ? 0
            : sorted.get((int) Math.min(sorted.size() - 1, quantile * sorted.size()));
      }
    }

    /**
     * A kind's recoveries against its target: when its faults needed different waits (registry
     * restarts of which some outlasted maxTtl), each recovery less its own fault's wait, against
     * the target without a wait.
     */
    record Summary(long median, long worst, Availability target, boolean lessOwnWait) {
      boolean met() {
        return target.met(median, worst);
      }
    }

    Summary summary(FaultKind kind, Stall s) {
      if (s.oneWait()) {
        Availability t = s.targets.isEmpty() ? target(kind) : s.targets.get(0);
        return new Summary(s.recoveryMicros(0.5), s.recoveryMicros(1), t, false);
      }
      List<Long> beyond = s.beyondWait();
      long ttl = Long.parseLong(run.getProperty("ttlMillis", "2000"));
      return new Summary(
          Stall.quantile(beyond, 0.5),
          Stall.quantile(beyond, 1),
          new Availability(Availability.MEDIAN_MICROS, ttl * 1000, ""),
          true);
    }

    void example(List<String> examples, String text) {
      if (examples.size() < EXAMPLES) {
        examples.add(text);
      }
    }

    String at(long monoMicros) {
      return timeline == null
          ? monoMicros + " µs"
          : java.time.Instant.ofEpochMilli(timeline.wallOfMono(monoMicros)).toString();
    }

    boolean passed() {
      return total > 0
          && duplicates == 0
          && orderViolations == 0
          && notHeld == 0
          && overlaps == 0
          && namespaces.size() <= 1;
    }

    /** Whether the run fails: uniqueness always, availability with {@code --availability}. */
    int exitCode() {
      return passed() && (!availabilityGate || availabilityMisses().isEmpty()) ? 0 : 1;
    }

    /** The target of a fault kind in this run, for a fault no longer than maxTtl. */
    Availability target(FaultKind kind) {
      return Availability.of(
          kind,
          run.getProperty("coordinator", "file:"),
          Long.parseLong(run.getProperty("ttlMillis", "2000")));
    }

    /** The target of an applied fault in this run. */
    Availability target(FaultLog.Applied f) {
      Availability t =
          Availability.of(
              f,
              run.getProperty("coordinator", "file:"),
              Long.parseLong(run.getProperty("ttlMillis", "2000")));
      Long mark = markWaits.get(f);
      Long recorder = recorderWaits.get(f);
      t = mark == null ? t : t.atLeast(mark, Availability.AHEAD_MARK);
      return recorder == null ? t : t.atLeast(recorder, Availability.AHEAD_RECORDER);
    }

    /** The kinds whose recoveries missed their target, each with its numbers. */
    List<String> availabilityMisses() {
      List<String> misses = new ArrayList<>();
      stalls.forEach(
          (kind, s) -> {
            Summary u = summary(kind, s);
            if (!u.met()) {
              misses.add(
                  String.format(
                      "%s (median %.3f s, target %.1f s; longest %.3f s, target %.1f s%s)",
                      kind.label(),
                      u.median() / 1e6,
                      u.target().medianMicros() / 1e6,
                      u.worst() / 1e6,
                      u.target().worstMicros() / 1e6,
                      u.lessOwnWait() ? "; each less its fault's own wait" : ""));
            }
          });
      return misses;
    }

    String text() {
      StringBuilder sb = new StringBuilder();
      Map<IdLog.Event, Long> events = new EnumMap<>(IdLog.Event.class);
      long graceful = 0;
      for (Worker w : workers) {
        w.events.forEach((k, v) -> events.merge(k, v, Long::sum));
        graceful += w.graceful ? 1 : 0;
      }
      sb.append(String.format("IDs issued (written by the workers): %,d%n", total));
      sb.append(
          String.format(
              "worker processes: %d (%d stopped gracefully); events: %s%n",
              workers.size(), graceful, events));
      sb.append(String.format("duplicates: %d%n", duplicates));
      duplicateExamples.forEach(e -> sb.append("  ").append(e).append('\n'));
      sb.append(String.format("order violations: %d%n", orderViolations));
      orderExamples.forEach(e -> sb.append("  ").append(e).append('\n'));
      sb.append(String.format("IDs under node values not held: %d%n", notHeld));
      notHeldExamples.forEach(e -> sb.append("  ").append(e).append('\n'));
      sb.append(String.format("processes overlapping on the same node values: %d%n", overlaps));
      overlapExamples.forEach(e -> sb.append("  ").append(e).append('\n'));
      sb.append(
          String.format(
              "namespace keys of the holds: %d%s%n",
              namespaces.size(),
              namespaces.size() > 1 ? " (must be 1: one ID space, one key)" : ""));
      namespaces.forEach((key, n) -> sb.append(String.format("  %s: %,d holds%n", key, n)));
      slots(sb);
      sb.append(
          String.format(
              "runs of increasing IDs: %d, of which %d overlapped another of the same node"
                  + " values and were merged from disk%n",
              runs, overlappingRuns));
      sb.append(
          "faults applied; the longest stall (no IDs) of an affected worker slot that met one;"
              + " from the fault's end to IDs again (median, longest) against its target:\n");
      stalls.forEach(
          (kind, s) -> {
            Summary u = summary(kind, s);
            Availability t = u.target();
            long median = u.median();
            long worst = u.worst();
            sb.append(
                String.format(
                    "  %-18s %4d  longest stall %8.3f s  after healing %7.3f s, %7.3f s"
                        + "  target %5.1f s, %5.1f s: %s%n",
                    kind.label(),
                    s.count,
                    s.longestMicros / 1e6,
                    median / 1e6,
                    worst / 1e6,
                    t.medianMicros() / 1e6,
                    t.worstMicros() / 1e6,
                    u.met() ? "met" : "MISSED"));
            if (u.lessOwnWait()) {
              sb.append(
                  String.format(
                      "  %-18s       (after healing less each fault's own wait: their waits"
                          + " differ)%n",
                      ""));
            }
            Map<String, Long> needed = new TreeMap<>();
            s.targets.forEach(a -> needed.merge(a.needed(), 1L, Long::sum));
            if (s.targets.isEmpty()) {
              needed.put(t.needed(), 0L);
            }
            needed.forEach(
                (why, n) -> {
                  if (!why.isEmpty()) {
                    sb.append(
                        String.format(
                            "  %-18s       (the target includes the wait%s: %s)%n",
                            "",
                            n == s.targets.size()
                                ? ""
                                : ", " + n + " of " + s.targets.size() + " faults",
                            why));
                  }
                });
            if (s.overlapped > 0) {
              sb.append(
                  String.format(
                      "  %-18s       (%d not counted: another fault held each affected slot past"
                          + " its end)%n",
                      "", s.overlapped));
            }
            if (s.startupMicros > 0) {
              sb.append(
                  String.format(
                      "  %-18s       (not counted: a replacement JVM's start-up, from its spawn"
                          + " to its main(), longest %.3f s)%n",
                      "", s.startupMicros / 1e6));
            }
          });
      if (!raisedTargets.isEmpty()) {
        sb.append("targets raised beyond their kind's wait:\n");
        raisedTargets.forEach(r -> sb.append("  ").append(r).append('\n'));
      }
      if (!slowRecoveries.isEmpty()) {
        sb.append("recoveries beyond their kind's median target (the slowest affected slot):\n");
        slowRecoveries.forEach(r -> sb.append("  ").append(r).append('\n'));
      }
      sb.append(
          String.format(
              "longest stall not explained by a fault: %.3f s %s%n",
              unexplainedMicros / 1e6, unexplainedAt));
      List<String> misses = availabilityMisses();
      sb.append(
          misses.isEmpty()
              ? "availability: every target met\n"
              : "availability: targets missed"
                  + (availabilityGate ? "" : " (reported; --availability makes them fail the run)")
                  + ": "
                  + String.join("; ", misses)
                  + "\n");
      String result;
      if (!passed()) {
        result = total == 0 ? "FAIL (no IDs were issued: nothing was tested)" : "FAIL";
      } else if (availabilityGate && !misses.isEmpty()) {
        result = "FAIL (availability)";
      } else {
        result = "PASS";
      }
      sb.append(String.format("result: %s%n", result));
      return sb.toString();
    }

    /** Each worker slot's configuration (from run.properties) and the IDs its processes took. */
    private void slots(StringBuilder sb) {
      int slots = Integer.parseInt(run.getProperty("workers", "0"));
      if (run.getProperty("slot.0") == null) {
        return;
      }
      long[] ids = new long[slots];
      int[] processes = new int[slots];
      for (Worker w : workers) {
        int slot = Integer.parseInt(w.instance.substring(1, w.instance.indexOf('-')));
        if (slot < slots) {
          ids[slot] += w.ids;
          processes[slot]++;
        }
      }
      sb.append("worker slots (time mode, node configuration; IDs, processes):\n");
      for (int s = 0; s < slots; s++) {
        sb.append(
            String.format(
                "  %2d  %s; %,d IDs, %d%n", s, run.getProperty("slot." + s), ids[s], processes[s]));
      }
    }

    /** Every fault applied, with its wall-clock times. */
    String faultList() {
      StringBuilder sb = new StringBuilder();
      for (FaultLog.Applied f : faults) {
        sb.append(
            String.format(
                "%s .. %s  %-18s target %d slots %s %s%n",
                at(f.fromMicros()),
                at(f.toMicros()),
                f.kind().label(),
                f.target(),
                f.slots(),
                f.detail()));
      }
      return sb.toString();
    }
  }
}
