package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.HolderJvm;
import io.snowid.testkit.TcpCut;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A private Redis loses or rolls back its state under a live holder A (a real JVM), which is cut
 * off from it and so issues on until its lease deadline; a newcomer B (another JVM) then leases the
 * same node id. B must start after everything A issued, by bounds every holder was held to (maxTtl,
 * maxSkew), not by B's own ttl: with mixed lease terms, with A's clock ahead within the allowed
 * skew, and after a restart from an older snapshot. Each test also checks that A really issued
 * after B started (so a kill that missed its window cannot pass) and that B's first ID lies after
 * the bound computed from the limits.
 */
@Tag("integration")
class RedisRegistryLossProcessTest {

  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private <T extends AutoCloseable> T open(T c) {
    open.add(c);
    return c;
  }

  @Test
  void nextId_registryRestartedEmpty_newcomerWithAShorterTtlStartsAfterTheOldHolder()
      throws Exception {
    // a B bound by its own ttl would wait ttl + 1 s = 2 s while A issues for up to 16 s more
    run("ttl=20s&maxTtl=20s&maxSkew=1s", "ttl=1s&maxTtl=20s&maxSkew=1s", Map.of(), 2_000, false);
  }

  @Test
  void nextId_registryRestartedEmpty_oldHolderClockAheadWithinTheSkew_newcomerStartsAfterIt()
      throws Exception {
    Libfaketime.require();
    // A's clock 5 s ahead, within skew=6s: a B bound by its own ttl would start 5 s (ttl + 1 s)
    // after the loss, while A's IDs are stamped up to 5 s ahead of its deadline
    run(
        "ttl=4s&skew=6s&maxTtl=4s&maxSkew=6s",
        "ttl=4s&skew=6s&maxTtl=4s&maxSkew=6s",
        Map.of(
            "LD_PRELOAD", Libfaketime.LIBRARY.toString(),
            "FAKETIME", "+5s",
            "FAKETIME_DONT_FAKE_MONOTONIC", "1",
            "FAKETIME_FORCE_MONOTONIC_FIX", "0",
            "NO_FAKE_STAT", "1"),
        4_000 + 1_000,
        false);
  }

  @Test
  void nextId_registryRestartedFromAnOlderSnapshot_newcomerStartsAfterTheOldHolder()
      throws Exception {
    // equal terms; the snapshot shows A's lease long expired, so a B that trusted it would take the
    // id at once
    run("ttl=4s&maxTtl=4s&maxSkew=1s", "ttl=4s&maxTtl=4s&maxSkew=1s", Map.of(), 500, true);
  }

  /**
   * A leases through a cuttable link; the link is cut, Redis is killed and comes back (empty, or
   * from a snapshot saved 5 s before), B leases directly.
   *
   * @param oldRuleMillis when B would issue its first ID if bound by its own terms only (its own
   *     ttl + 1 s after the loss, or at once on a snapshot's expired record), after the loss: A
   *     must have issued past it
   */
  private void run(
      String optionsA,
      String optionsB,
      Map<String, String> environmentA,
      long oldRuleMillis,
      boolean fromSnapshot)
      throws Exception {
    TestRedis redis = open(TestRedis.startPrivate(dir.resolve("redis")));
    redis.putInService(redis.uri() + "?prefix=snowid");
    TcpCut link = open(new TcpCut(redis.port()));
    long maxTtl = millis(optionsB, "maxTtl");
    long maxSkew = millis(optionsB, "maxSkew");
    HolderJvm a =
        open(
            HolderJvm.start(
                "redis://127.0.0.1:" + link.port() + "?namespace=loss&" + optionsA,
                dir,
                "a",
                environmentA));
    a.await("ready", 0, Duration.ofMinutes(2));
    if (fromSnapshot) {
      redis.cli("save");
      Thread.sleep(maxTtl + 2_000); // A renews on; Redis's snapshot grows older than a lease
    } else {
      Thread.sleep(1_000);
    }
    link.cut(); // A issues on until its deadline
    redis.kill();
    redis.start();
    long lost = System.currentTimeMillis();
    HolderJvm b = open(HolderJvm.start(redis.uri() + "?namespace=loss&" + optionsB, dir, "b"));
    b.await("ready", 0, Duration.ofMinutes(2));
    a.await("fenced", 0, Duration.ofMinutes(1));
    Thread.sleep(300);
    a.stop();
    b.stop();

    long lastOfA = a.assertNewcomerStartedAfter(b, lost + maxTtl + maxSkew + 1_000);
    // the window is real: A issued (in ID time) past where a B bound by its own terms would start
    assertThat(lastOfA).as("A's last ID time").isGreaterThan(lost + oldRuleMillis);
  }

  private static long millis(String options, String key) {
    for (String pair : options.split("&", -1)) {
      if (pair.startsWith(key + "=")) {
        return Duration.parse("PT" + pair.substring(key.length() + 1).toUpperCase(Locale.ROOT))
            .toMillis();
      }
    }
    throw new IllegalArgumentException(key + " missing in " + options);
  }
}
