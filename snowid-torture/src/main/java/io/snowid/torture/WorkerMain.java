package io.snowid.torture;

import io.snowid.ClockMovedBackwardsException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.lease.LeaseLostException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker JVM: takes IDs from one generator as fast as it can (within its share of the disk
 * budget) and streams each to an {@link IdLog} file, until its standard input closes; then closes
 * the generator (releasing its lease) and exits 0.
 *
 * <p>Arguments: URI (with {@code instance=}), IDs file, metadata file, layout, {@link TimeMode},
 * bytes per second, most bytes. Like an application under a supervisor, it builds its generator
 * again while building fails, retries {@code nextId()} after a fence or a refused clock step, and
 * exits with code 3 when it issued nothing for {@link #GIVE_UP_MILLIS} because the clock policy
 * keeps refusing (an exhausted clockback field): the harness then starts a new one.
 */
public final class WorkerMain {
  static final long GIVE_UP_MILLIS = 20_000;

  /** The environment variable the harness sets to its {@code System.nanoTime()} at the spawn. */
  static final String SPAWNED_NANOS = "TORTURE_SPAWNED_NANOS";

  private WorkerMain() {}

  public static void main(String[] args) throws IOException {
    long start = System.nanoTime(); // the JVM is up: what follows is the worker's
    String uri = args[0];
    Path idsFile = Paths.get(args[1]);
    Path metaFile = Paths.get(args[2]);
    Layout layout = Layout.parse(args[3]);
    TimeMode mode = TimeMode.named(args[4]);
    long bytesPerSecond = Long.parseLong(args[5]);
    long maxBytes = Long.parseLong(args[6]);

    Properties meta = new Properties();
    meta.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
    meta.setProperty("startMicros", Long.toString(start / 1000));
    String spawned = System.getenv(SPAWNED_NANOS);
    if (spawned != null) {
      meta.setProperty("spawnedMicros", Long.toString(Long.parseLong(spawned) / 1000));
    }
    meta.setProperty("mode", mode.toString());
    try (OutputStream out = Files.newOutputStream(metaFile)) {
      meta.store(out, "snowid torture worker");
    }

    Thread stdin = new Thread(WorkerMain::awaitEndOfInput, "stdin");
    stdin.setDaemon(true);
    stdin.start();
    int code;
    Path ready = metaFile.resolveSibling(idsFile.getFileName() + ".ready");
    try (IdLogWriter log = new IdLogWriter(idsFile, keyMask(layout))) {
      code = run(uri, layout, mode, log, ready, stdin, start, bytesPerSecond, maxBytes);
    }
    System.out.flush();
    System.exit(code);
  }

  /** The bits of an ID that are neither time nor sequence. */
  static long keyMask(Layout layout) {
    long mask = 0;
    for (Layout.Field f : layout.fields()) {
      if (!f.name().equals("time") && !f.name().equals("sequence")) {
        mask |= f.max() << f.shift();
      }
    }
    return mask;
  }

  private static int run(
      String uri,
      Layout layout,
      TimeMode mode,
      IdLogWriter log,
      Path ready,
      Thread stdin,
      long start,
      long bytesPerSecond,
      long maxBytes)
      throws IOException {
    Snowflake gen = null;
    while (gen == null) {
      if (!stdin.isAlive()) {
        log.end();
        return 0;
      }
      try {
        gen = mode.configure(Snowflake.builder().layout(layout).nodeSource(uri)).build();
        log.event(IdLog.Event.BUILT, System.nanoTime());
        say("built " + gen.node());
      } catch (RuntimeException e) {
        log.event(IdLog.Event.BUILD_FAILED, System.nanoTime());
        say("build failed: " + e);
        sleepMillis(500);
      }
    }
    try {
      long lastId = System.nanoTime();
      long n = 0;
      while (stdin.isAlive()) {
        long id;
        try {
          id = gen.nextId();
        } catch (LeaseLostException e) {
          log.event(IdLog.Event.FENCED, System.nanoTime());
          sleepMillis(2);
          continue;
        } catch (ClockMovedBackwardsException e) {
          long now = System.nanoTime();
          log.event(IdLog.Event.CLOCK_REFUSED, now);
          if (now - lastId > TimeUnit.MILLISECONDS.toNanos(GIVE_UP_MILLIS)) {
            say("giving up: " + e.getMessage());
            return 3;
          }
          sleepMillis(2);
          continue;
        } catch (RuntimeException e) {
          log.event(IdLog.Event.OTHER, System.nanoTime());
          say("nextId failed: " + e);
          sleepMillis(2);
          continue;
        }
        lastId = System.nanoTime();
        log.id(id, lastId);
        if (n == 0) {
          Files.createFile(ready); // the harness starts its schedule once every slot issues
        }
        if ((++n & 1023) == 0) {
          if (log.bytes() >= maxBytes) {
            log.event(IdLog.Event.BUDGET_SPENT, System.nanoTime());
            say("disk budget spent after " + n + " IDs");
            while (stdin.isAlive()) {
              sleepMillis(50);
            }
            break;
          }
          throttle(log.bytes(), start, bytesPerSecond);
        }
      }
    } finally {
      gen.close();
    }
    log.end();
    return 0;
  }

  /** Sleeps while more was written than the rate allows (with one second of burst). */
  private static void throttle(long bytes, long start, long bytesPerSecond) {
    double allowed = bytesPerSecond * ((System.nanoTime() - start) / 1e9 + 1);
    if (bytes > allowed) {
      long nanos = (long) ((bytes - allowed) / bytesPerSecond * 1e9);
      LockSupport.parkNanos(Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(100)));
    }
  }

  private static void sleepMillis(long millis) {
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static void awaitEndOfInput() {
    try (InputStream in = System.in) {
      while (in.read() >= 0) {
        // until the harness closes our standard input
      }
    } catch (IOException e) {
      // closed
    }
  }
}
