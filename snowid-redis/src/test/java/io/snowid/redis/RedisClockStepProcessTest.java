package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Layout;
import io.snowid.testkit.HolderJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JVM on the default time source whose wall clock NTP steps forward and back (libfaketime,
 * its monotonic clock left real), leasing from the shared Redis, whose clock is not stepped: it is
 * fenced for skew while ahead, and once NTP took the step back its time source rejoins the wall
 * clock and it issues again at once, not after the slew of (step - skew) / 0.1 (RELIABILITY.md,
 * findings 4 and 7; docs/design.md section 4, "Rejoining the wall clock").
 */
@Tag("integration")
class RedisClockStepProcessTest {
  private static final Path LIBFAKETIME = Libfaketime.LIBRARY;
  private static final long STEP_MILLIS = 20_000;
  private static final long SKEW_MILLIS = 1_000; // the default skew
  private static final double SLEW_RATE = 0.9; // MonotonicTimeSource.SLEW_RATE

  /** The real time a slew from STEP_MILLIS ahead to within the skew would take: 190 s. */
  private static final long SLEW_MILLIS = (long) ((STEP_MILLIS - SKEW_MILLIS) / (1 - SLEW_RATE));

  @TempDir Path dir;
  private final String uri =
      TestRedis.shared().uri() + "?namespace=step&ttl=2s&prefix=" + TestRedis.uniquePrefix();
  private HolderJvm holder;

  @AfterEach
  void cleanUp() {
    if (holder != null) {
      holder.close();
    }
    TestRedis.shared().deletePrefix(uri);
  }

  /** Sets the child's wall clock to the real clock plus {@code offsetMillis}, as an NTP step. */
  private void setClock(Path file, long offsetMillis) throws IOException {
    Path tmp = dir.resolve("clock.tmp");
    Files.writeString(tmp, String.format("+%d.%03d%n", offsetMillis / 1000, offsetMillis % 1000));
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void nextId_wallClockSteppedForwardAndBack_issuesAgainWithoutWaitingForTheSlew()
      throws Exception {
    Libfaketime.require();
    TestRedis.shared().putInService(uri);
    Path clock = dir.resolve("clock");
    setClock(clock, 0);
    holder =
        HolderJvm.start(
            uri,
            dir,
            "stepped",
            Map.of(
                "LD_PRELOAD", LIBFAKETIME.toString(),
                "FAKETIME_TIMESTAMP_FILE", clock.toString(),
                "FAKETIME_DONT_FAKE_MONOTONIC", "1", // nanoTime stays real
                "FAKETIME_CACHE_DURATION", "1", // a step takes effect within 1 s
                "FAKETIME_FORCE_MONOTONIC_FIX", "0", // else the JVM's timed waits spin
                "NO_FAKE_STAT", "1"));
    holder.await("ready", 0, Duration.ofMinutes(2));

    setClock(clock, STEP_MILLIS);
    // fenced for skew (a fence for a late renewal on a busy machine would not do)
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> holder.lines().stream().anyMatch(l -> l.text().contains("clock skew")));
    int from = holder.lineCount();
    setClock(clock, 0); // NTP takes the step back

    // The cached clock file (1 s), a renewal retry (200 ms) and the renewal on the wall clock take
    // seconds; the bound is a third of the slew, which a slow machine does not come near.
    holder.await("resumed", from, Duration.ofMillis(SLEW_MILLIS / 3));
    Thread.sleep(500);
    long stopped = System.currentTimeMillis();
    holder.stop();

    assertThat(holder.stderr()).contains("rejoined the wall clock");
    long[] issued = Arrays.stream(holder.ids()).filter(id -> id >= 0).toArray();
    Layout layout = Layout.twitter();
    for (int i = 1; i < issued.length; i++) {
      assertThat(issued[i]).isGreaterThan(issued[i - 1]); // no ID time goes back
    }
    long lastTime = layout.decode(issued[issued.length - 1]).timestampMillis();
    assertThat(lastTime).as("no longer ahead by the step").isLessThan(stopped + SKEW_MILLIS + 500);
  }
}
