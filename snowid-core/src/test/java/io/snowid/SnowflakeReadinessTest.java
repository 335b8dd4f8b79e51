package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.LeaseLostException;
import io.snowid.node.NodeStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Snowflake#awaitReady} and how a start that has to wait says so. */
class SnowflakeReadinessTest {
  @TempDir Path dir;

  private Snowflake fresh(String ttl, String namespace) {
    return Snowflake.builder()
        .nodeSource("file:" + dir + "?ttl=" + ttl + "&namespace=" + namespace)
        .build();
  }

  @Test
  void freshLeaseDirectory_statusSaysUntilWhenAndWhy() {
    try (Snowflake gen = fresh("3s", "ready-why")) {
      NodeStatus s = gen.nodeStatus();

      assertThat(s.held()).isFalse();
      assertThat(s.waitingUntil()).isNotNull();
      assertThat(s.waitingUntil().toEpochMilli() - System.currentTimeMillis())
          .isBetween(1_000L, 3_000L);
      assertThat(s.detail())
          .startsWith("the first ID waits until " + s.waitingUntil() + ": node id ")
          .contains("has no readable lease record here")
          .contains("one lease time (3s)")
          .contains("docs/node-ids.md#why-the-first-id-may-wait");
    }
  }

  @Test
  void awaitReady_freshLeaseDirectory_returnsOnceAnIdIssuesWithoutWaiting()
      throws InterruptedException {
    try (Snowflake gen = fresh("1s", "ready-wait")) {
      long until = gen.nodeStatus().waitingUntil().toEpochMilli();

      assertThat(gen.awaitReady(Duration.ofSeconds(30))).isTrue();

      assertThat(System.currentTimeMillis()).isGreaterThan(until);
      assertThat(gen.nodeStatus().held()).isTrue();
      assertThat(gen.nodeStatus().waitingUntil()).isNull();
      assertThat(gen.tryNextId()).isNotEqualTo(Snowflake.NO_ID);
    }
  }

  @Test
  void awaitReady_timeoutBeforeTheWaitEnds_returnsFalseAndStillWaiting()
      throws InterruptedException {
    try (Snowflake gen = fresh("30s", "ready-timeout")) {
      assertThat(gen.awaitReady(Duration.ofMillis(50))).isFalse();
      assertThat(gen.awaitReady(Duration.ZERO)).isFalse();
      assertThat(gen.nodeStatus().waitingUntil()).isNotNull();
      assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
    }
  }

  @Test
  void awaitReady_staticNodeValues_readyAtOnce() throws InterruptedException {
    try (Snowflake gen = Snowflake.builder().node("datacenter", 1).node("worker", 2).build()) {
      assertThat(gen.awaitReady(Duration.ZERO)).isTrue();
    }
  }

  @Test
  void awaitReady_closedGenerator_throwsSayingItWasClosed() {
    Snowflake gen = Snowflake.builder().node("datacenter", 1).node("worker", 3).build();
    gen.close();

    assertThatThrownBy(() -> gen.awaitReady(Duration.ofSeconds(1)))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void awaitReady_negativeTimeout_refusedNamingIt() {
    try (Snowflake gen = Snowflake.builder().node("datacenter", 1).node("worker", 4).build()) {
      assertThatThrownBy(() -> gen.awaitReady(Duration.ofMillis(-1)))
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("timeout")
          .hasMessage("timeout = -1ms is invalid; allowed: zero or more");
    }
  }

  @Test
  void awaitReady_interruptedWhileWaiting_throwsInterrupted() {
    try (Snowflake gen = fresh("30s", "ready-interrupt")) {
      Thread.currentThread().interrupt();

      assertThatThrownBy(() -> gen.awaitReady(Duration.ofSeconds(10)))
          .isInstanceOf(InterruptedException.class);
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void startWaitOverASecond_loggedOnceWithUntilWhenAndWhy() {
    List<LogRecord> records = new ArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            synchronized (records) {
              records.add(r);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger lease = Logger.getLogger("io.snowid.lease");
    lease.addHandler(capture);
    try (Snowflake gen = fresh("2s", "ready-log")) {
      List<String> waits;
      synchronized (records) {
        waits =
            records.stream()
                .filter(r -> r.getLevel().intValue() >= Level.INFO.intValue())
                .map(r -> java.text.MessageFormat.format(r.getMessage(), r.getParameters()))
                .filter(m -> m.contains("the first ID waits"))
                .toList();
      }
      assertThat(waits).hasSize(1);
      assertThat(waits.get(0))
          .contains("file:" + dir)
          .contains("until " + gen.nodeStatus().waitingUntil())
          .contains("one lease time (2s)");
    } finally {
      lease.removeHandler(capture);
    }
  }
}
