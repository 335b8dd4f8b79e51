/*
 * How late a thread that parks until the next millisecond runs again, on this machine, now: what
 * a parking generator at 1 thread loses of each millisecond. Each of 3000 rounds works
 * 150 us on the CPU (a saturated caller taking its 4096 IDs), parks until `early` microseconds
 * before the next millisecond and spins the rest, then records how late it got there. Run by
 * bench/run.sh, quiet and under each load; also on its own:
 *
 *   java bench/WakeLateness.java [early-us...]     # default: 0 100 300
 *
 * A single caller loses the rest of a millisecond when it arrives later than about 800 us.
 */
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

public final class WakeLateness {
  public static void main(String[] args) {
    String[] earlies = args.length > 0 ? args : new String[] {"0", "100", "300"};
    for (String e : earlies) {
      measure(Long.parseLong(e) * 1000);
    }
  }

  private static void measure(long earlyNanos) {
    int rounds = 3000;
    long[] late = new long[rounds];
    long spun = 0;
    for (int i = 0; i < rounds; i++) {
      long busyUntil = System.nanoTime() + 150_000;
      while (System.nanoTime() < busyUntil) {
        Thread.onSpinWait();
      }
      long now = System.nanoTime();
      long next = (now / 1_000_000 + 1) * 1_000_000;
      while ((now = System.nanoTime()) < next - earlyNanos) {
        LockSupport.parkNanos(next - earlyNanos - now);
      }
      long spinFrom = now;
      while ((now = System.nanoTime()) < next) {
        Thread.onSpinWait();
      }
      spun += now - spinFrom;
      late[i] = now - next;
    }
    Arrays.sort(late);
    long over = Arrays.stream(late).filter(x -> x > 800_000).count();
    System.out.printf(
        Locale.ROOT,
        "wake %3d us early: late by p50 %d us, p90 %d, p99 %d, p99.9 %d, max %d;"
            + " later than 800 us %d of %d; spun %.0f us per ms%n",
        earlyNanos / 1000,
        late[rounds / 2] / 1000,
        late[rounds * 9 / 10] / 1000,
        late[rounds * 99 / 100] / 1000,
        late[rounds * 999 / 1000] / 1000,
        late[rounds - 1] / 1000,
        over,
        rounds,
        spun / 1e3 / rounds);
  }
}
