package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.lease.LeaseLostException;
import io.snowid.testkit.HolderJvm;
import io.snowid.testkit.RegistryOutage;
import io.snowid.testkit.StartDuringOutage;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The database going away under running holders: a PostgreSQL of this test's own that is stopped at
 * once ({@code pg_ctl stop -m immediate}) and started again, and the lease table locked by another
 * session (on that PostgreSQL, and on the shared MariaDB in a table of the test's own). Holders
 * stop issuing before their leases could expire, say why, resume once the database is back, and no
 * ID appears twice.
 */
@Tag("integration")
class JdbcLeaseOutageTest {
  private static final Layout LAYOUT = Layout.twitter();
  private static final long TTL = 2_000;
  private static PrivatePostgres postgres;

  @TempDir Path dir;
  private final String table = TestDatabase.uniqueTable();
  private final List<AutoCloseable> opened = new ArrayList<>();

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = PrivatePostgres.create();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    postgres.close();
  }

  /** A test that failed while the private server was stopped leaves it stopped. */
  @BeforeEach
  void serverRuns() throws Exception {
    postgres.ensureRunning();
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    TestDatabase.MARIADB.drop(table);
  }

  private static long timeOf(long id) {
    return LAYOUT.decode(id).timestampMillis();
  }

  /** A table of this test's own on the private PostgreSQL, in service (its epoch an hour ago). */
  private String privateTable() throws Exception {
    JdbcLeaseCoordinator.open(postgres.url() + "&table=" + table + "&create=true").close();
    try (Connection c = java.sql.DriverManager.getConnection(postgres.url());
        Statement s = c.createStatement()) {
      s.execute("UPDATE " + table + " SET acquired_at = acquired_at - 3600000");
    }
    return postgres.url() + "&table=" + table;
  }

  /**
   * {@link RegistryOutage}: PostgreSQL stopped at once under three holders and started again; each
   * fenced holder also says why, once the renewal that was waiting for a connection failed.
   */
  @Test
  void nextId_postgresStoppedImmediatelyAndStarted_holdersFenceInTimeAndResumeWithoutDuplicates()
      throws Exception {
    RegistryOutage.check(
        privateTable() + "&namespace=outage&ttl=2s",
        new StartDuringOutage.Registry() {
          @Override
          public void stop() throws Exception {
            postgres.stopImmediately();
          }

          @Override
          public void start() throws Exception {
            postgres.start();
          }
        },
        dir,
        Duration.ofMillis(TTL),
        Duration.ZERO,
        fenced ->
            assertThat(
                    await(
                        fenced.holder(),
                        "status not renewed in time: renewal failed: renewal on",
                        fenced.linesBefore()))
                .contains("jdbc:postgresql://127.0.0.1:" + postgres.port() + "/postgres"));
  }

  private static String await(HolderJvm holder, String prefix, int fromLine) {
    try {
      return holder.await(prefix, fromLine, Duration.ofMinutes(1)).text();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Another session locks the lease table (an ALTER TABLE, a long maintenance job): renewals wait
   * until their query timeout cancels them, the holders stop before their leases could expire and
   * say that the database did not answer, and once the lock is gone they renew and go on, with no
   * ID issued twice and none while they were fenced.
   */
  @ParameterizedTest
  @ValueSource(strings = {"postgresql", "mariadb"})
  void nextId_tableLockedByAnotherSession_holdersFenceInTimeAndResumeAfterIt(String database)
      throws Exception {
    boolean pg = database.equals("postgresql");
    String uri;
    if (pg) {
      uri = privateTable();
    } else {
      TestDatabase.MARIADB.createInService(table);
      uri = TestDatabase.MARIADB.uri(table, "");
    }
    List<Holder> holders = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      holders.add(open(new Holder(uri + "&namespace=locked&ttl=2s&instance=holder-" + i)));
    }
    for (Holder h : holders) {
      h.awaitIssuing();
    }
    Thread.sleep(500);

    Connection locker =
        open(
            java.sql.DriverManager.getConnection(pg ? postgres.url() : TestDatabase.MARIADB.url()));
    Statement lock = locker.createStatement();
    if (pg) {
      locker.setAutoCommit(false);
      lock.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
    } else {
      lock.execute("LOCK TABLES " + table + " WRITE");
    }
    long lockedAt = System.currentTimeMillis(); // the lock was granted before this
    for (Holder h : holders) {
      long since = h.awaitFenced();
      assertThat(since).as("fenced since").isLessThan(lockedAt + TTL);
      assertThat(h.gen.nodeStatus().held()).isFalse();
      // the deadline may come before the blocked renewal's timeout: then the reason follows
      assertThat(h.awaitDetail("did not answer within"))
          .contains("not renewed in time: renewal failed: renewal on ");
    }
    long unlockedAt = System.currentTimeMillis(); // no renewal succeeded before this
    if (pg) {
      locker.rollback();
    } else {
      lock.execute("UNLOCK TABLES");
    }
    for (Holder h : holders) {
      h.awaitIssuingAfter(unlockedAt);
    }

    List<Long> all = new ArrayList<>();
    for (Holder h : holders) {
      h.close();
      all.addAll(h.ids);
    }
    assertThat(all).doesNotHaveDuplicates();
    assertThat(all.stream().mapToLong(JdbcLeaseOutageTest::timeOf))
        .noneMatch(t -> t >= lockedAt + TTL && t <= unlockedAt);
  }

  private <T extends AutoCloseable> T open(T c) {
    opened.add(c);
    return c;
  }

  /** A generator in this JVM taking IDs on a thread of its own. */
  private static final class Holder implements AutoCloseable {
    final Snowflake gen;
    final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    final AtomicLong lastIssuedAt = new AtomicLong();
    final AtomicLong fencedSince = new AtomicLong(Long.MIN_VALUE);
    final AtomicBoolean stop = new AtomicBoolean();
    final Thread thread;

    Holder(String uri) {
      gen = Snowflake.builder().layout(LAYOUT).nodeSource(uri).build();
      thread =
          new Thread(
              () -> {
                while (!stop.get()) {
                  try {
                    ids.add(gen.nextId());
                    lastIssuedAt.set(System.currentTimeMillis());
                  } catch (LeaseLostException e) {
                    fencedSince.compareAndSet(Long.MIN_VALUE, e.since().toEpochMilli());
                    sleep(5);
                  }
                  sleep(1);
                }
              },
              "holder " + uri);
      thread.start();
    }

    void awaitIssuing() throws InterruptedException {
      awaitIssuingAfter(0);
    }

    void awaitIssuingAfter(long millis) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
      while (lastIssuedAt.get() <= millis) {
        assertThat(System.nanoTime()).as("issuing again within a minute").isLessThan(deadline);
        Thread.sleep(10);
      }
    }

    /** Waits until it is fenced; when its lease stopped being valid. */
    long awaitFenced() throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
      while (fencedSince.get() == Long.MIN_VALUE) {
        assertThat(System.nanoTime()).as("fenced within a minute").isLessThan(deadline);
        Thread.sleep(10);
      }
      return fencedSince.get();
    }

    /** Waits until its node status says something; the status's detail. */
    String awaitDetail(String text) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
      while (!gen.nodeStatus().detail().contains(text)) {
        assertThat(System.nanoTime())
            .as("status says '" + text + "' within a minute: " + gen.nodeStatus().detail())
            .isLessThan(deadline);
        Thread.sleep(10);
      }
      return gen.nodeStatus().detail();
    }

    private static void sleep(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      thread.join();
      gen.close();
    }
  }
}
