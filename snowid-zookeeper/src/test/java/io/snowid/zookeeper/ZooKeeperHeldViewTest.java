package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The view of a namespace's held ids that a coordinator holding several of them keeps: its
 * acquisitions pick their candidate there without listing, and a view that is wrong only costs
 * retries, never an id taken twice. On the shared server, under a chroot of its own.
 */
@Tag("integration")
class ZooKeeperHeldViewTest {
  private final String root = TestZooKeeper.uniqueRoot();
  private final String uri = TestZooKeeper.uri(root);
  private final List<AutoCloseable> opened = new ArrayList<>();

  @BeforeEach
  void putInService() {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
  }

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    TestZooKeeper.delete(TestZooKeeper.SHARED, root);
  }

  private ZooKeeperLeaseCoordinator open() {
    ZooKeeperLeaseCoordinator c = ZooKeeperLeaseCoordinator.open(uri);
    opened.add(c);
    return c;
  }

  /** A request of the default lease time: the session the view of {@code viewOf} is on. */
  private static AcquireRequest request(String instance) {
    return new AcquireRequest("ns", 128, instance, terms());
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(ZooKeeperLeaseProvider.DEFAULT_TTL, now, now + 10_000);
  }

  /** Two ids held by {@code c}: the second acquisition opened the view; waits until it is ready. */
  private static HeldView holdTwo(ZooKeeperLeaseCoordinator c) {
    c.acquire(request("first"));
    c.acquire(request("second"));
    HeldView view = c.viewOf("ns");
    assertThat(view).as("a coordinator holding an id of the namespace opens a view").isNotNull();
    await(() -> view.snapshot() != null);
    return view;
  }

  private static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 10 s").isLessThan(deadline);
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Test
  void acquire_withAReadyView_listsNothingAndFollowsOtherHoldersChanges() {
    ZooKeeperLeaseCoordinator other = open();
    List<Lease> others = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      others.add(other.acquire(request("other-" + i)));
    }
    ZooKeeperLeaseCoordinator c = open();
    HeldView view = holdTwo(c); // ids 40 and 41
    long listings = c.listings();

    List<Long> taken = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Lease l = c.acquire(request("newcomer"));
      taken.add(l.nodeId());
      c.release(l, System.currentTimeMillis());
    }
    other.release(others.get(7), System.currentTimeMillis()); // id 7 is free: an event, no listing
    await(() -> !view.snapshot().ids().contains(7L));
    long seven = c.acquire(request("after-release")).nodeId();
    long next = c.acquire(request("third")).nodeId();

    assertThat(taken).containsOnly(42L);
    assertThat(seven).isEqualTo(7);
    assertThat(next).isEqualTo(42);
    assertThat(c.listings())
        .as("getChildren requests sent after the view was ready")
        .isEqualTo(listings);
  }

  @Test
  void acquire_viewWrongAboutAHeldId_retriesAndTakesAFreeIdNotTheHeldOne() {
    ZooKeeperLeaseCoordinator c = open();
    HeldView view = holdTwo(c); // ids 0 and 1
    ZooKeeperLeaseCoordinator other = open();
    Lease two = other.acquire(request("other"));
    await(() -> view.snapshot().ids().contains(2L));
    view.forget(2); // the view now says 2 is free, at the held node's current version

    Lease l = c.acquire(request("newcomer"));

    assertThat(two.nodeId()).isEqualTo(2);
    assertThat(l.nodeId()).isEqualTo(3);
    Lease renewed = other.renew(two, terms());
    assertThat(renewed.nodeId()).as("the other holder still holds 2").isEqualTo(2);
    await(() -> view.snapshot() != null && view.snapshot().ids().contains(2L)); // listed again
  }

  @Test
  void acquire_twoCoordinatorsWithViewsRacing_takeDistinctIds() throws Exception {
    ZooKeeperLeaseCoordinator a = open();
    ZooKeeperLeaseCoordinator b = open();
    holdTwo(a);
    b.acquire(request("b-first"));
    b.acquire(request("b-second"));
    await(() -> b.viewOf("ns").snapshot() != null);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<List<Long>> fa = pool.submit(takeTwenty(a));
      Future<List<Long>> fb = pool.submit(takeTwenty(b));
      List<Long> all = new ArrayList<>(fa.get());
      all.addAll(fb.get());

      Set<Long> distinct = new HashSet<>(all);
      assertThat(all).hasSize(40);
      assertThat(distinct).hasSize(40).doesNotContain(0L, 1L, 2L, 3L);
      try (ZooKeeper zk = TestZooKeeper.client(TestZooKeeper.SHARED)) {
        assertThat(zk.getChildren(root + "/ns/ns/held", false)).hasSize(44);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static Callable<List<Long>> takeTwenty(ZooKeeperLeaseCoordinator c) {
    return () -> {
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ids.add(c.acquire(request("racer-" + i)).nodeId());
      }
      return ids;
    };
  }

  @Test
  void close_closesTheViews() {
    ZooKeeperLeaseCoordinator c = open();
    HeldView view = holdTwo(c);

    c.close();

    assertThat(view.snapshot()).isNull();
    assertThat(c.viewOf("ns")).isNull();
  }

  @Test
  void acquire_coordinatorHoldingNoIdOfTheNamespace_opensNoView() {
    ZooKeeperLeaseCoordinator c = open();
    Lease l = c.acquire(request("only"));
    c.release(l, System.currentTimeMillis());
    c.acquire(request("only"));

    assertThat(c.viewOf("ns")).isNull();
  }
}
