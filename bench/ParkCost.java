/*
 * What waiting for the next millisecond costs in CPU on this machine, outside any generator: the
 * part of a capped generator's CPU per ID that parking adds. Run by bench/run.sh; also on its own:
 *
 *   java bench/ParkCost.java [seconds]
 *
 * timed:   n threads, each parking until the next millisecond (LockSupport.parkNanos), as every
 *          caller that finds a tick's sequence spent does.
 * combine: one thread parks until the next millisecond and then unparks the n - 1 others, which
 *          wait untimed (LockSupport.park): "one timed waiter for all" instead of one timer each.
 *
 * Prints, per mode and thread count, the wake-ups per millisecond and the CPU time (all the
 * threads', ThreadMXBean) per millisecond and per wake-up.
 */
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

public final class ParkCost {
  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

  public static void main(String[] args) throws InterruptedException {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
    for (String mode : new String[] {"timed", "combine"}) {
      for (int n : new int[] {1, 4}) {
        if (mode.equals("combine") && n == 1) {
          continue;
        }
        measure(mode, n, seconds);
      }
    }
  }

  private static void parkUntilNextMilli() {
    long next = (System.nanoTime() / 1_000_000 + 1) * 1_000_000;
    for (long now; (now = System.nanoTime()) < next; ) {
      LockSupport.parkNanos(next - now);
    }
  }

  private static void measure(String mode, int n, long seconds) throws InterruptedException {
    AtomicLong wakes = new AtomicLong();
    AtomicLong generation = new AtomicLong();
    Thread[] threads = new Thread[n];
    AtomicBoolean stop = new AtomicBoolean();
    for (int i = 0; i < n; i++) {
      boolean leader = i == 0;
      threads[i] =
          new Thread(
              () -> {
                while (!stop.get()) {
                  if (mode.equals("timed")) {
                    parkUntilNextMilli();
                  } else if (leader) {
                    parkUntilNextMilli();
                    generation.incrementAndGet();
                    for (int j = 1; j < n; j++) {
                      LockSupport.unpark(threads[j]);
                    }
                  } else {
                    long g = generation.get();
                    while (generation.get() == g && !stop.get()) {
                      LockSupport.park();
                    }
                  }
                  wakes.incrementAndGet();
                }
              });
      threads[i].setDaemon(true);
    }
    for (Thread t : threads) {
      t.start();
    }
    Thread.sleep(1000);
    long w0 = wakes.get();
    long c0 = cpu(threads);
    long t0 = System.nanoTime();
    Thread.sleep(seconds * 1000);
    long w1 = wakes.get();
    long c1 = cpu(threads);
    long t1 = System.nanoTime();
    stop.set(true);
    for (Thread t : threads) {
      LockSupport.unpark(t);
    }
    double millis = (t1 - t0) / 1e6;
    System.out.printf(
        Locale.ROOT,
        "%-7s %d thread(s): %.2f wake-ups per ms, CPU %.1f us per ms, %.1f us per wake-up%n",
        mode,
        n,
        (w1 - w0) / millis,
        (c1 - c0) / 1e3 / millis,
        (c1 - c0) / 1e3 / (w1 - w0));
    for (Thread t : threads) {
      t.join(1000);
    }
  }

  private static long cpu(Thread[] threads) {
    long sum = 0;
    for (Thread t : threads) {
      sum += MX.getThreadCpuTime(t.getId());
    }
    return sum;
  }
}
