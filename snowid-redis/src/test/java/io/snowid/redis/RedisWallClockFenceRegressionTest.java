package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.snowid.Layout;
import io.snowid.testkit.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RELIABILITY.md, finding 2, with real processes: a holder JVM on the wall clock, leased on a
 * private {@code redis-server}, has its clock stepped back by libfaketime just as the server is
 * stopped (SIGSTOP), so no renewal is confirmed again and the lease expires in Redis. It issues
 * nothing after that expiry, where a generator fenced only by the times its IDs carry would go on
 * for about the step.
 */
@Tag("integration")
class RedisWallClockFenceRegressionTest {
  /*
   * Timing, all on the host's CLOCK_MONOTONIC (System.nanoTime() here and in the child, which
   * libfaketime leaves real). T is read after `kill -STOP` returned: Redis answered nothing after
   * T, so the lease it last renewed expires at most TTL after T by its own clock (Redis's clock is
   * not faked). An ID whose nextId() call began after T + TTL was therefore reserved after the
   * registry's expiry, however the processes were scheduled: the check needs no slack. (The stamp
   * after the call would need one for the time between the reservation and the read.) The
   * generator stops earlier still, at its real-time deadline: a fifth of the TTL before the expiry,
   * counted from before the request Redis last confirmed. A deadline in the wall clock's time only
   * would be reached STEP later in real time: with STEP = 3 TTL such a generator issues until about
   * T + STEP + 0.8 TTL (clockback: on at the earlier times from T on; wait: once it has waited the
   * step out, from T + STEP), far beyond the check.
   *
   * Redis is stopped first, then the clock stepped: no answer of Redis meets the stepped clock (the
   * skew check would fence the holder for another reason). The child's libfaketime reads its
   * timestamp file on every clock call (FAKETIME_NO_CACHE=1), so the step applies at once.
   * FAKETIME_FORCE_MONOTONIC_FIX=0: with that fix (on by default with this glibc) the JVM's timed
   * waits, which are on the real monotonic clock, return at once, and its service threads spin
   * reading the file: seconds of CPU at startup.
   */
  private static final Path LIBFAKETIME = Libfaketime.LIBRARY;

  private static final Duration TTL = Duration.ofSeconds(1);
  private static final Duration STEP = Duration.ofSeconds(3);

  /** A clockback field, so that the {@code clockback} policy issues on across the step. */
  private static final String LAYOUT =
      "time=41,worker=8,clockback=2,sequence=12,epoch=2020-01-01T00:00:00Z";

  @TempDir Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  /** One ID as the child recorded it: nanoTime before the call, the ID, nanoTime after it. */
  private record Taken(long calledAt, long id, long returnedAt) {}

  @ParameterizedTest
  @ValueSource(strings = {"clockback", "wait"})
  void nextId_wallClockSteppedBackAsRedisStops_noIdAfterTheRegistrysExpiry(String policy)
      throws Exception {
    Libfaketime.require();
    TestRedis redis = TestRedis.startPrivate(dir.resolve("redis"));
    opened.add(redis);
    redis.putInService(redis.uri() + "?prefix=snowid");
    Path clock = dir.resolve("clock");
    setClockOffset(clock, Duration.ZERO);
    Path ids = dir.resolve("holder.ids");
    Path out = dir.resolve("holder.out");
    ProcessBuilder pb =
        ChildJvm.of(
            WallClockHolderMain.class,
            List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"),
            redis.uri() + "?namespace=wallfence&ttl=" + TTL.toSeconds() + "s",
            LAYOUT,
            policy,
            ids.toString());
    pb.environment().putAll(fakeClock(clock));
    Process holder =
        pb.redirectOutput(out.toFile()).redirectError(dir.resolve("holder.err").toFile()).start();
    opened.add(holder::destroyForcibly);

    awaitFirstId(holder, ids, out);
    Thread.sleep(TTL.toMillis() * 3 / 2); // renewals every third of the TTL: several confirmed
    redis.pause();
    long stoppedAt = System.nanoTime(); // T: Redis answers nothing after it
    setClockOffset(clock, STEP.negated());
    // observe until well past the time a generator fenced by ID time only stopped
    long observeUntil = stoppedAt + STEP.plus(TTL).plus(TTL.dividedBy(2)).toNanos();
    while (System.nanoTime() - observeUntil < 0) {
      Thread.sleep(50);
    }
    holder.destroyForcibly();
    assertThat(holder.waitFor(30, TimeUnit.SECONDS)).as("holder killed").isTrue();

    List<Taken> taken = read(ids);
    String output = Files.readString(out) + Files.readString(dir.resolve("holder.err"));
    long expiry = stoppedAt + TTL.toNanos();
    List<Taken> late = taken.stream().filter(t -> t.calledAt() - expiry > 0).toList();
    assertThat(late.size())
        .as(
            "IDs taken after the registry's expiry (T + %d ms): %s; first called at T + %s ms,"
                + " last at T + %s ms; holder output:%n%s",
            TTL.toMillis(),
            late.size(),
            late.isEmpty() ? "-" : millisAfter(stoppedAt, late.get(0).calledAt()),
            late.isEmpty() ? "-" : millisAfter(stoppedAt, late.get(late.size() - 1).calledAt()),
            output)
        .isZero();
    long recentlyBefore = stoppedAt - TTL.toNanos();
    long recent =
        taken.stream()
            .filter(t -> t.returnedAt() - recentlyBefore > 0 && t.returnedAt() - stoppedAt < 0)
            .count();
    assertThat(recent)
        .as("IDs taken in the TTL before Redis stopped (the holder was issuing); %s", output)
        .isPositive();
    assertThat(output)
        .as("the holder was fenced in real time, its clock having stepped back")
        .contains("deadline in real time", "(it stepped back)");
    assertNoDuplicatesAndInOrder(taken, policy);
  }

  /** Distinct IDs, increasing in the order taken for each clockback count. */
  private static void assertNoDuplicatesAndInOrder(List<Taken> taken, String policy) {
    Layout layout = Layout.parse(LAYOUT);
    long[] sorted = taken.stream().mapToLong(Taken::id).sorted().toArray();
    for (int i = 1; i < sorted.length; i++) {
      assertThat(sorted[i]).as("duplicate ID").isNotEqualTo(sorted[i - 1]);
    }
    Map<Long, Long> lastByCount = new HashMap<>();
    for (Taken t : taken) {
      long count = layout.decode(t.id()).field("clockback");
      Long last = lastByCount.put(count, t.id());
      assertThat(last == null || t.id() > last)
          .as("ID %d after %d, clockback count %d", t.id(), last, count)
          .isTrue();
    }
    if (policy.equals("wait")) {
      assertThat(lastByCount.keySet()).as("the wait policy never counts a step").containsOnly(0L);
    }
  }

  /** libfaketime with the offset in {@code clock}, read on every call; the monotonic clock real. */
  private static Map<String, String> fakeClock(Path clock) {
    return Map.of(
        "LD_PRELOAD", LIBFAKETIME.toString(),
        "FAKETIME_TIMESTAMP_FILE", clock.toString(),
        "FAKETIME_NO_CACHE", "1",
        "FAKETIME_DONT_FAKE_MONOTONIC", "1",
        "FAKETIME_FORCE_MONOTONIC_FIX", "0");
  }

  /** Writes the offset ({@code -3.000}: 3 s back) for libfaketime, replacing the file at once. */
  private static void setClockOffset(Path clock, Duration offset) throws IOException {
    long millis = offset.toMillis();
    Path tmp = clock.resolveSibling(clock.getFileName() + ".tmp");
    Files.writeString(
        tmp,
        String.format(
            "%s%d.%03d%n",
            millis < 0 ? "-" : "+", Math.abs(millis) / 1000, Math.abs(millis) % 1000));
    Files.move(tmp, clock, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void awaitFirstId(Process holder, Path ids, Path out) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!Files.exists(ids) || Files.size(ids) < 24) {
      if (!holder.isAlive() || System.nanoTime() - deadline > 0) {
        fail("the holder issued no ID; its output: " + Files.readString(out));
      }
      Thread.sleep(20);
    }
  }

  /** The records the child wrote; a torn last one (it was killed mid-write) is left out. */
  private static List<Taken> read(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    ByteBuffer buf = ByteBuffer.wrap(bytes, 0, bytes.length / 24 * 24);
    List<Taken> taken = new ArrayList<>();
    while (buf.hasRemaining()) {
      taken.add(new Taken(buf.getLong(), buf.getLong(), buf.getLong()));
    }
    return taken;
  }

  private static String millisAfter(long from, long nanos) {
    return Long.toString((nanos - from) / 1_000_000L);
  }
}
