package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.LeaseLostException;
import io.snowid.node.NodeGrant;
import io.snowid.testkit.ManualClock;
import io.snowid.testkit.ManualLease;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two live generators of one JVM never hold the same node values of one ID space and namespace,
 * whichever node sources they use: the second is refused at build() with a sentence naming both.
 */
class OneHolderPerJvmTest {
  @RegisterExtension final Built built = new Built();

  private Snowflake keep(Snowflake s) {
    return built.keep(s);
  }

  private SnowflakeBuilder builder() {
    return Snowflake.builder();
  }

  private static String memory(String namespace) {
    return "memory:one-holder-" + UUID.randomUUID() + "?namespace=" + namespace;
  }

  @Test
  void build_twoExplicitGeneratorsWithTheSameValues_secondRefusedNamingBoth() {
    keep(builder().node("datacenter", 1).node("worker", 7).build());

    assertThatThrownBy(() -> keep(builder().nodeSource("static:datacenter=1,worker=7").build()))
        .isInstanceOf(NodeValuesInUseException.class)
        .hasMessageContaining("{datacenter=1, worker=7}")
        .hasMessageContaining("(explicit)")
        .hasMessageContaining("(static)");
  }

  @Test
  void build_sameValuesUnderOtherFieldNames_refused() {
    String epoch = ",epoch=1288834974657,unit=1ms";
    keep(builder().layout("time=41,worker=10,sequence=12" + epoch).node("worker", 33).build());

    // datacenter 1, worker 1 is the packed value 33 of the same ID space
    assertThatThrownBy(
            () ->
                keep(
                    builder()
                        .layout("time=41,datacenter=5,worker=5,sequence=12" + epoch)
                        .node("datacenter", 1)
                        .node("worker", 1)
                        .build()))
        .isInstanceOf(NodeValuesInUseException.class);
  }

  @Test
  void build_staticBesideALeaseOfAnyNamespace_refused() {
    keep(builder().node("datacenter", 0).node("worker", 0).build());

    assertThatThrownBy(() -> keep(builder().nodeSource(memory("orders")).build()))
        .isInstanceOf(NodeValuesInUseException.class)
        .hasMessageContaining("in namespace orders")
        .hasMessageContaining("(explicit)");
  }

  @Test
  void build_leaseThenStaticWithItsValues_refused() {
    Snowflake leased = keep(builder().nodeSource(memory("orders")).build());

    assertThatThrownBy(() -> keep(builder().node(leased.node()).build()))
        .isInstanceOf(NodeValuesInUseException.class)
        .hasMessageContaining("memory");
  }

  @Test
  void build_twoRegistriesHandingOutTheSameValues_secondRefused() {
    keep(builder().nodeSource(memory("orders")).build());

    // another registry knows nothing of the first: it hands out the same first value
    assertThatThrownBy(() -> keep(builder().nodeSource(memory("orders")).build()))
        .isInstanceOf(NodeValuesInUseException.class);
  }

  @Test
  void build_explicitWithTheValuesSnowIdLeased_refused() {
    Map<String, Long> values = SnowId.generator().node();

    assertThatThrownBy(() -> keep(builder().node(values).build()))
        .isInstanceOf(NodeValuesInUseException.class)
        .hasMessageContaining("file:");
  }

  @Test
  void build_sameValuesInAnotherNamespace_allowed() {
    Snowflake a = keep(builder().nodeSource(memory("orders")).build());
    Snowflake b = keep(builder().nodeSource(memory("invoices")).build());

    assertThat(b.node()).isEqualTo(a.node());
  }

  @Test
  void build_sameValuesInAnotherIdSpace_allowed() {
    keep(builder().node("datacenter", 1).node("worker", 2).build());
    Snowflake other =
        keep(
            builder()
                .layout("time=41,datacenter=5,worker=5,sequence=12,epoch=2020-01-01T00:00:00Z")
                .node("datacenter", 1)
                .node("worker", 2)
                .build());

    assertThat(other.node()).containsEntry("worker", 2L);
  }

  @Test
  void build_afterTheFirstWasClosed_allowed() {
    Snowflake first = builder().node("datacenter", 3).node("worker", 3).build();
    first.nextId();
    first.close();

    Snowflake second = keep(builder().node("datacenter", 3).node("worker", 3).build());

    assertThat(second.nextId()).isGreaterThan(0);
    assertThatThrownBy(first::nextId).isInstanceOf(io.snowid.lease.LeaseLostException.class);
  }

  @Test
  void build_firstNoLongerReferenced_allowed() {
    builder().node("datacenter", 4).node("worker", 4).build().nextId(); // dropped unclosed

    Snowflake second = keep(builder().node("datacenter", 4).node("worker", 4).build());

    assertThat(second.node()).containsEntry("datacenter", 4L);
  }

  @Test
  void build_refused_leavesTheFirstIssuingAndTakesNoLease() {
    Snowflake first = keep(builder().node("datacenter", 5).node("worker", 5).build());
    String uri = "memory:one-holder-" + UUID.randomUUID();
    assertThatThrownBy(
            () ->
                keep(
                    builder().node(Map.of("datacenter", 5L, "worker", 5L)).nodeSource(uri).build()))
        .isInstanceOf(NodeValuesInUseException.class);

    assertThat(first.nextId()).isGreaterThan(0);
    first.close();
    // the refused generator released its lease: its registry hands the value out again (to this
    // instance, which held it last), where a lease still held would have given another
    Snowflake again = keep(builder().nodeSource(uri).build());
    assertThat(again.node()).isEqualTo(Map.of("datacenter", 5L, "worker", 5L));
  }

  @Test
  void build_anotherCopyOfSnowidInThisJvmHoldsTheValues_refused() throws Exception {
    URL core = Snowflake.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader other =
        new URLClassLoader(new URL[] {core}, ClassLoader.getPlatformClassLoader())) {
      Class<?> snowflake = other.loadClass("io.snowid.Snowflake");
      assertThat(snowflake).isNotEqualTo(Snowflake.class);
      Object b = snowflake.getMethod("builder").invoke(null);
      b = b.getClass().getMethod("node", String.class, long.class).invoke(b, "datacenter", 6L);
      b = b.getClass().getMethod("node", String.class, long.class).invoke(b, "worker", 6L);
      AutoCloseable theirs = (AutoCloseable) b.getClass().getMethod("build").invoke(b);
      try {
        assertThatThrownBy(() -> keep(builder().node("datacenter", 6).node("worker", 6).build()))
            .isInstanceOf(NodeValuesInUseException.class);
      } finally {
        theirs.close();
      }
      keep(builder().node("datacenter", 6).node("worker", 6).build());
    }
  }

  @Test
  void build_twoLeaseDirectoriesWithTheValuesFixed_secondNeverGetsThem(
      @org.junit.jupiter.api.io.TempDir Path dir) {
    Map<String, Long> values = Map.of("datacenter", 7L, "worker", 7L);
    Snowflake first =
        keep(Snowflake.builder().node(values).nodeSource("file:" + dir.resolve("a")).build());

    assertThatThrownBy(
            () ->
                keep(
                    Snowflake.builder()
                        .node(values)
                        .nodeSource("file:" + dir.resolve("b"))
                        .build()))
        .isInstanceOf(SnowIdException.class);
    assertThat(first.nextId()).isGreaterThan(0);
  }

  @Test
  void nextId_valuesTakenAfterTheLeaseDeadlineThenClockStepsBack_firstNeverIssuesAgain() {
    ManualClock clock = ManualClock.create();
    TimeSource wall = TimeSource.wallClock(clock);
    Map<String, Long> values = Map.of("datacenter", 3L, "worker", 9L);
    NodeGrant grant = new NodeGrant(values, wall.millis() + 3_000, Long.MIN_VALUE, 1, "manual");
    ManualLease lease = new ManualLease(grant);
    Snowflake leased = keep(builder().lease(lease).timeSource(wall).build());
    leased.nextId();
    Instant before = clock.wallInstant();
    clock.set(before.plusSeconds(10)); // past the lease's deadline in ID time: its claim lapsed

    Snowflake taker = keep(builder().node(values).timeSource(wall).build());
    Set<Long> ofTaker = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      ofTaker.add(taker.nextId());
    }
    clock.set(before); // steps back, before the first lease's deadline

    assertThatThrownBy(leased::nextId)
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("taken by another generator")
        .hasMessageContaining("(explicit)");
    assertThat(leased.nodeStatus().held()).isFalse();
    // neither a renewal of that acquisition, nor the new holder's close, brings the values back
    taker.close();
    lease.grant(grant.renewed(wall.millis() + 3_000));
    assertThatThrownBy(leased::nextId).isInstanceOf(LeaseLostException.class);
    // a new acquisition binds: its high-water mark covers what was issued under the values
    long highWater = clock.wallInstant().plusSeconds(11).toEpochMilli();
    lease.grant(new NodeGrant(values, highWater + 3_000, highWater, 2, "manual"));
    clock.set(Instant.ofEpochMilli(highWater + 1));
    assertThat(ofTaker).doesNotContain(leased.nextId());
  }
}
