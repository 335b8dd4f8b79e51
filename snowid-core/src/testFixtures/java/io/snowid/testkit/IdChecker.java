package io.snowid.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Takes IDs from many threads at once and checks them: no duplicates, strictly increasing within
 * each thread, and linearizable (an ID is greater than every ID returned before its call began, on
 * any thread).
 *
 * <pre>{@code
 * IdChecker.check(generator::nextId, 8, 1_000_000).assertClean();
 * }</pre>
 */
public final class IdChecker {
  /*
   * Linearizability of a counter: each call takes a ticket from one global counter before it
   * starts and another after it returns. An op B must be greater than every op whose return
   * ticket is below B's start ticket. With tickets dense in [0, 2n), a prefix maximum over the
   * return tickets answers that for every op in O(n). The ticket counter adds contention, which
   * only makes interleavings more varied.
   */
  private IdChecker() {}

  /** Runs {@code threads} threads that each take {@code perThread} IDs, all starting together. */
  public static Report check(LongSupplier source, int threads, int perThread) {
    long[][] ids = new long[threads][perThread];
    long[][] starts = new long[threads][perThread];
    long[][] ends = new long[threads][perThread];
    AtomicLong tickets = new AtomicLong();
    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int me = t;
      Thread w =
          new Thread(
              () -> {
                try {
                  go.await();
                  for (int i = 0; i < perThread; i++) {
                    starts[me][i] = tickets.getAndIncrement();
                    ids[me][i] = source.getAsLong();
                    ends[me][i] = tickets.getAndIncrement();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  failure.compareAndSet(null, e);
                } catch (RuntimeException | Error e) {
                  failure.compareAndSet(null, e);
                }
              },
              "id-checker-" + t);
      workers.add(w);
      w.start();
    }
    go.countDown();
    for (Thread w : workers) {
      try {
        w.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while checking", e);
      }
    }
    if (failure.get() != null) {
      throw new AssertionError("the ID source threw", failure.get());
    }
    return analyse(ids, starts, ends);
  }

  static Report analyse(long[][] ids, long[][] starts, long[][] ends) {
    List<String> problems = new ArrayList<>();
    long orderViolations = 0;
    int total = 0;
    for (int t = 0; t < ids.length; t++) {
      total += ids[t].length;
      for (int i = 1; i < ids[t].length; i++) {
        if (ids[t][i] <= ids[t][i - 1]) {
          orderViolations++;
          note(problems, "thread " + t + " got " + ids[t][i] + " after " + ids[t][i - 1]);
        }
      }
    }
    long[] all = new long[total];
    int k = 0;
    for (long[] perThread : ids) {
      System.arraycopy(perThread, 0, all, k, perThread.length);
      k += perThread.length;
    }
    Arrays.sort(all);
    long duplicates = 0;
    for (int i = 1; i < all.length; i++) {
      if (all[i] == all[i - 1]) {
        duplicates++;
        note(problems, "duplicate " + all[i]);
      }
    }
    long realTimeViolations = 0;
    long[] maxByEnd = new long[2 * total + 1];
    Arrays.fill(maxByEnd, Long.MIN_VALUE);
    for (int t = 0; t < ids.length; t++) {
      for (int i = 0; i < ids[t].length; i++) {
        maxByEnd[(int) ends[t][i]] = ids[t][i];
      }
    }
    for (int i = 1; i < maxByEnd.length; i++) {
      maxByEnd[i] = Math.max(maxByEnd[i], maxByEnd[i - 1]);
    }
    for (int t = 0; t < ids.length; t++) {
      for (int i = 0; i < ids[t].length; i++) {
        long start = starts[t][i];
        if (start > 0 && maxByEnd[(int) start - 1] >= ids[t][i]) {
          realTimeViolations++;
          note(
              problems, "thread " + t + " got " + ids[t][i] + " after a completed larger/equal ID");
        }
      }
    }
    return new Report(total, duplicates, orderViolations, realTimeViolations, all, problems);
  }

  private static void note(List<String> problems, String problem) {
    if (problems.size() < 10) {
      problems.add(problem);
    }
  }

  /** What {@link #check} found. {@link #sortedIds()} holds every ID taken, ascending. */
  public static final class Report {
    private final long total;
    private final long duplicates;
    private final long orderViolations;
    private final long realTimeViolations;
    private final long[] sorted;
    private final List<String> examples;

    Report(
        long total,
        long duplicates,
        long orderViolations,
        long realTimeViolations,
        long[] sorted,
        List<String> examples) {
      this.total = total;
      this.duplicates = duplicates;
      this.orderViolations = orderViolations;
      this.realTimeViolations = realTimeViolations;
      this.sorted = sorted;
      this.examples = List.copyOf(examples);
    }

    public long total() {
      return total;
    }

    public long duplicates() {
      return duplicates;
    }

    /** IDs not greater than the previous ID of the same thread. */
    public long orderViolations() {
      return orderViolations;
    }

    /** IDs not greater than an ID whose call had returned before theirs began. */
    public long realTimeViolations() {
      return realTimeViolations;
    }

    public long[] sortedIds() {
      return sorted;
    }

    public boolean clean() {
      return duplicates == 0 && orderViolations == 0 && realTimeViolations == 0;
    }

    /** Throws an {@link AssertionError} with the counts and up to ten examples unless clean. */
    public Report assertClean() {
      if (!clean()) {
        throw new AssertionError(this + " examples: " + examples);
      }
      return this;
    }

    @Override
    public String toString() {
      return "IdChecker.Report[total="
          + total
          + ", duplicates="
          + duplicates
          + ", orderViolations="
          + orderViolations
          + ", realTimeViolations="
          + realTimeViolations
          + "]";
    }
  }
}
