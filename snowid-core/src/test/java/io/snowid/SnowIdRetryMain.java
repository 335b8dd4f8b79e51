package io.snowid;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM of {@link SnowIdRetryTest}: {@link SnowId} is process-wide state, so each scenario
 * gets a fresh JVM. Prints one line per observation; the test asserts on them.
 */
public final class SnowIdRetryMain {
  private static final int THREADS = 8;

  private SnowIdRetryMain() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "layout" -> layout();
      case "coordinator" -> coordinator(args[1]);
      case "concurrent" -> concurrent();
      default -> throw new IllegalArgumentException(args[0]);
    }
    System.out.flush();
  }

  /** Started with {@code -Dsnowid.layout=bogus}. */
  private static void layout() {
    print("next", SnowId::next);
    print("again", SnowId::next);
    print("decode", () -> SnowId.decode(1L));
    print("nextString", () -> SnowId.nextString("base62"));
    System.out.println("leaseThreads " + leaseThreads());
    System.setProperty("snowid.layout", "sonyflake");
    Snowflake g = SnowId.generator();
    long a = SnowId.next();
    long b = SnowId.next();
    System.out.println("fixed " + g.layout().spec());
    System.out.println("sameGenerator " + (g == SnowId.generator()));
    System.out.println("increasing " + (b > a));
    System.out.println("decodes " + SnowId.decode(b).equals(g.layout().decode(b)));
    System.out.println("leaseThreads " + leaseThreads());
  }

  /** Started with {@code -Dsnowid.node=flaky:DIR}; {@code DIR.down} exists at first. */
  private static void coordinator(String down) throws Exception {
    print("next", SnowId::next);
    print("nextJs53", SnowId::nextJs53);
    print("again", SnowId::next);
    System.out.println("leaseThreads " + leaseThreads());
    Files.delete(Paths.get(down));
    print("next", SnowId::next);
    print("nextJs53", () -> SnowId.nextJs53() < (1L << 53));
    System.out.println("leaseThreads " + leaseThreads());
  }

  /** Started with {@code -Dsnowid.layout=bogus}: concurrent failures, then concurrent success. */
  private static void concurrent() throws Exception {
    List<Object> failures = together(() -> describe(SnowId::next));
    System.out.println("failures " + new java.util.TreeSet<>(strings(failures)));
    System.setProperty("snowid.layout", "twitter");
    Set<Object> generators = Collections.newSetFromMap(new IdentityHashMap<>());
    generators.addAll(together(SnowId::generator));
    List<Object> js53 = together(SnowId::nextJs53);
    System.out.println("generators " + generators.size());
    System.out.println("js53Distinct " + new java.util.HashSet<>(js53).size());
    System.out.println("sameAsLater " + generators.contains(SnowId.generator()));
    System.out.println("leaseThreads " + leaseThreads());
  }

  /** Runs the call on {@link #THREADS} threads released at the same instant. */
  private static List<Object> together(Callable<Object> call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch ready = new CountDownLatch(THREADS);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Object>> futures = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return call.call();
                }));
      }
      ready.await();
      go.countDown();
      List<Object> results = new ArrayList<>();
      for (Future<Object> f : futures) {
        results.add(f.get(60, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<String> strings(List<Object> objects) {
    List<String> out = new ArrayList<>();
    for (Object o : objects) {
      out.add(String.valueOf(o));
    }
    return out;
  }

  private static void print(String label, Callable<?> call) {
    System.out.println(label + " " + describe(call));
  }

  /** {@code ok VALUE}, or the class and message of what was thrown, and those of its cause. */
  private static String describe(Callable<?> call) {
    try {
      return "ok " + call.call();
    } catch (Throwable t) { // Errors too: ExceptionInInitializerError is what this guards against
      Throwable c = t.getCause();
      return t.getClass().getName()
          + ": "
          + t.getMessage()
          + (c == null ? "" : " | cause " + c.getClass().getName() + ": " + c.getMessage());
    }
  }

  /** One renewal thread per lease held by this JVM. */
  private static long leaseThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("snowid-lease "))
        .count();
  }
}
