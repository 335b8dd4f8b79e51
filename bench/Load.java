/*
 * The scripted background loads of BENCHMARKS.md, "Targets" (capped throughput on a busy machine),
 * started by bench/run.sh with LOAD=spin or LOAD=alloc. Runs until killed.
 *
 *   java bench/Load.java spin  [threads]   # busy loops: no allocation, no system calls
 *   java bench/Load.java alloc [threads]   # CPU-bound threads that allocate: a build or a service
 *                                          # beside the generator, its GC included
 *
 * Two threads by default: on a 2-core machine, the two cores are then contended by the load alone.
 */
import java.util.ArrayList;
import java.util.List;

public final class Load {
  static volatile long sink;

  public static void main(String[] args) throws InterruptedException {
    String kind = args.length > 0 ? args[0] : "spin";
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    Runnable work;
    switch (kind) {
      case "spin" -> work = Load::spin;
      case "alloc" -> work = Load::alloc;
      default -> {
        System.err.println("Load: kind must be spin or alloc, was " + kind);
        System.exit(2);
        return;
      }
    }
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(work, "load-" + kind + "-" + i);
      t.start();
      started.add(t);
    }
    for (Thread t : started) {
      t.join();
    }
  }

  /** A busy loop: all CPU, nothing else. */
  private static void spin() {
    long x = 0;
    for (; ; ) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      if (x == 42) {
        sink = x;
      }
    }
  }

  /** CPU-bound work that allocates: short-lived strings and lists, some kept for a while. */
  private static void alloc() {
    List<String> kept = new ArrayList<>();
    long n = 0;
    for (; ; ) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 32; i++) {
        sb.append(n++).append(',');
      }
      String s = sb.toString();
      kept.add(s);
      if (kept.size() > 100_000) {
        kept = new ArrayList<>(); // the old list becomes garbage: old-generation work for the GC
      }
      sink += s.hashCode();
    }
  }
}
