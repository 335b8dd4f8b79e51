package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeSetupTest {
  private static final Layout FLEET = Layout.parse(Options.LAYOUT);
  private static final Layout TWO = Layout.parse(NodeSetup.TWO_FIELDS);

  @Test
  void plan_sameSeed_sameSetups() {
    assertThat(NodeSetup.plan(7, 8, true, false, 5000))
        .isEqualTo(NodeSetup.plan(7, 8, true, false, 5000))
        .isNotEqualTo(NodeSetup.plan(8, 8, true, false, 5000));
  }

  @Test
  void plan_fourSlots_everyFormOnce() {
    for (long seed = 0; seed < 50; seed++) {
      assertThat(NodeSetup.plan(seed, 4, true, true, 5000))
          .extracting(NodeSetup::form)
          .containsExactlyInAnyOrder(NodeSetup.Form.values());
    }
  }

  @Test
  void plan_eightSlots_everyFormTwiceAndNotAlwaysOnTheSameTimeMode() {
    boolean moved = false;
    for (long seed = 0; seed < 20; seed++) {
      List<NodeSetup> setups = NodeSetup.plan(seed, 8, true, false, 5000);
      assertThat(setups)
          .extracting(NodeSetup::form)
          .containsOnly(NodeSetup.Form.values())
          .filteredOn(f -> f == NodeSetup.Form.FIXED_DATACENTER)
          .hasSize(2);
      moved |= setups.get(0).form() != NodeSetup.plan(0, 8, true, false, 5000).get(0).form();
    }
    assertThat(moved).as("slot 0's form changes with the seed").isTrue();
  }

  @Test
  void plan_fixedDatacenter_zeroOrAnotherValueOfTheField() {
    boolean zero = false;
    boolean other = false;
    for (long seed = 0; seed < 50; seed++) {
      for (NodeSetup s : NodeSetup.plan(seed, 16, true, false, 5000)) {
        if (s.form() == NodeSetup.Form.FIXED_DATACENTER) {
          assertThat(s.datacenter()).isBetween(0, 3);
          assertThat(s.environment()).containsEntry("SNOWID_DATACENTER_ID", "" + s.datacenter());
          zero |= s.datacenter() == 0;
          other |= s.datacenter() != 0;
        } else {
          assertThat(s.environment()).isEmpty();
        }
      }
    }
    assertThat(zero).isTrue();
    assertThat(other).isTrue();
  }

  /** Above 16 slots every worker id of one datacenter value could be held: no slot fixes one. */
  @Test
  void plan_moreSlotsThanAFixedDatacenterHasWorkers_leavesTheFixedFormOut() {
    assertThat(NodeSetup.plan(3, 17, true, false, 5000))
        .extracting(NodeSetup::form)
        .doesNotContain(NodeSetup.Form.FIXED_DATACENTER)
        .contains(
            NodeSetup.Form.WORKER,
            NodeSetup.Form.DATACENTER_WORKER,
            NodeSetup.Form.WORKER_DATACENTER);
    assertThat(NodeSetup.plan(3, 16, true, false, 5000))
        .extracting(NodeSetup::form)
        .contains(NodeSetup.Form.FIXED_DATACENTER);
  }

  @Test
  void plan_notMixed_theOneLayoutLeasedEverywhere() {
    assertThat(NodeSetup.plan(5, 8, false, true, 5000))
        .hasSize(8)
        .allSatisfy(
            s -> {
              assertThat(s.layout()).isEqualTo(Options.LAYOUT);
              assertThat(s.uriOptions()).isEqualTo("&ttl=5000ms");
              assertThat(s.clockOffsetMillis()).isZero();
              assertThat(s.environment()).isEmpty();
            });
  }

  /**
   * A registry loss is survived only if a newcomer with the short lease time waits out a holder
   * with the long one, and a holder ahead out a newcomer behind: a mixed fleet has both.
   */
  @Test
  void plan_mixed_halfTheSlotsOnAShorterTtlAndClocksApartWithinTheSkew() {
    for (long seed = 0; seed < 20; seed++) {
      List<NodeSetup> setups = NodeSetup.plan(seed, 8, true, false, 5000);
      assertThat(setups).extracting(NodeSetup::ttlMillis).containsOnly(5000L, 2000L);
      assertThat(setups).filteredOn(s -> s.ttlMillis() == 2000).hasSize(4);
      assertThat(setups)
          .extracting(NodeSetup::clockOffsetMillis)
          .allSatisfy(o -> assertThat(o).isBetween(-800L, 800L))
          .anySatisfy(o -> assertThat(o).isPositive())
          .anySatisfy(o -> assertThat(o).isNegative());
      assertThat(setups.get(0).uriOptions()).startsWith("&ttl=" + setups.get(0).ttlMillis() + "ms");
    }
    assertThat(NodeSetup.shortTtl(2000)).isEqualTo(800);
    assertThat(NodeSetup.shortTtl(500)).isEqualTo(500);
  }

  /** One ID space: the same 64-bit value for the same node values, whichever form wrote it. */
  @Test
  void layouts_oneIdSpaceAndTheSameNodeBits() {
    for (NodeSetup.Form f : NodeSetup.Form.values()) {
      Layout l = Layout.parse(new NodeSetup(f, 1, false, 5000, 0).layout());
      assertThat(l.idSpace()).isEqualTo(FLEET.idSpace());
    }
    long two = TWO.compose(123_456, 2, 2, 5, 77); // time, clockback, datacenter, worker, sequence
    long one = FLEET.compose(123_456, 2, (2 << 5) | 5, 77);
    assertThat(two).isEqualTo(one);
  }

  @Test
  void uriOptions_fileLeasesBothFieldsByName_networkByDefault() {
    assertThat(new NodeSetup(NodeSetup.Form.DATACENTER_WORKER, -1, true, 2000, 0).uriOptions())
        .isEqualTo("&ttl=2000ms&fields=datacenter,worker");
    assertThat(new NodeSetup(NodeSetup.Form.DATACENTER_WORKER, -1, false, 2000, 0).uriOptions())
        .isEqualTo("&ttl=2000ms");
    assertThat(new NodeSetup(NodeSetup.Form.WORKER_DATACENTER, -1, false, 2000, 0).uriOptions())
        .isEqualTo("&ttl=2000ms&fields=worker,datacenter");
    assertThat(new NodeSetup(NodeSetup.Form.FIXED_DATACENTER, 3, true, 5000, -120).describe())
        .isEqualTo(
            "datacenter=2,worker=5, SNOWID_DATACENTER_ID=3, worker leased (ttl=5000ms,"
                + " clock -120 ms)");
  }
}
