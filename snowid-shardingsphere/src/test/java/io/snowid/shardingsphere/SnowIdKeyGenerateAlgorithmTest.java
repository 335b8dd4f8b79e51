package io.snowid.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/**
 * {@code type: SNOWID} as ShardingSphere loads it (its SPI loader, which calls {@code init}): the
 * IDs it gives, and the properties it refuses, each named with what is allowed.
 */
class SnowIdKeyGenerateAlgorithmTest {
  private static final AlgorithmSQLContext CONTEXT =
      new AlgorithmSQLContext("db", "public", "t_order", "order_id");

  private static KeyGenerateAlgorithm load(String... keyValues) {
    Properties props = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      props.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return TypedSPILoader.getService(KeyGenerateAlgorithm.class, "SNOWID", props);
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> refused(String... keyValues) {
    return assertThatThrownBy(() -> load(keyValues))
        .isInstanceOf(AlgorithmInitializationException.class)
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .isInstanceOf(InvalidSettingException.class));
  }

  private static List<Long> keys(KeyGenerateAlgorithm a, int count) {
    Collection<? extends Comparable<?>> keys = a.generateKeys(CONTEXT, count);
    List<Long> out = new ArrayList<>();
    for (Comparable<?> k : keys) {
      out.add((Long) k);
    }
    return out;
  }

  @Test
  void generateKeys_giveIncreasingIdsOfTheLayoutWithTheNodeValues() {
    KeyGenerateAlgorithm a = load("node", "static:worker=3,datacenter=1", "layout", "twitter");

    List<Long> ids = keys(a, 5);

    assertThat(a.getType()).isEqualTo("SNOWID");
    assertThat(ids).hasSize(5).isSorted().doesNotHaveDuplicates();
    for (long id : ids) {
      assertThat(Layout.twitter().decode(id).fields()).containsEntry("worker", 3L);
      assertThat(Layout.twitter().decode(id).fields()).containsEntry("datacenter", 1L);
    }
  }

  @Test
  void init_twiceWithEqualProperties_sharesOneGenerator() {
    // Two generators of one JVM on the same node values are refused (NodeValuesInUseException):
    // ShardingSphere makes several instances of one configuration, so they share one.
    KeyGenerateAlgorithm first = load("node", "static:worker=4,datacenter=1", "layout", "twitter");
    KeyGenerateAlgorithm second = load("layout", "twitter", "node", "static:worker=4,datacenter=1");

    List<Long> ids = new ArrayList<>(keys(first, 3));
    ids.addAll(keys(second, 3));
    ids.addAll(keys(first, 3));

    assertThat(ids).hasSize(9).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void init_fixedFieldsAndClockSettings_areTheBuildersSettings() {
    KeyGenerateAlgorithm a =
        load(
            "node", "static:worker=5",
            "fields.datacenter", "2",
            "layout", "twitter",
            "clock-source", "wall-clock",
            "clock-policy", "fail",
            "max-wait", "500ms",
            "max-lead", "0s");

    long id = keys(a, 1).get(0);

    assertThat(Layout.twitter().decode(id).fields())
        .containsEntry("datacenter", 2L)
        .containsEntry("worker", 5L);
  }

  @Test
  void init_propertiesPutAsNumbersByCode_areReadAsTheirText() {
    // ShardingSphere's loader turns values into strings; code calling init itself may not
    Properties props = new Properties();
    props.put("node", "static:worker=6");
    props.put("fields.datacenter", 3);
    KeyGenerateAlgorithm a = new SnowIdKeyGenerateAlgorithm();
    a.init(props);

    assertThat(Layout.twitter().decode(keys(a, 1).get(0)).fields())
        .containsEntry("datacenter", 3L)
        .containsEntry("worker", 6L);
  }

  @Test
  void init_misspeltNode_namesItAndTheNameMeant() {
    refused("nod", "static:worker=1")
        .hasMessageContaining("unknown property 'nod' of the SNOWID key generator")
        .hasMessageContaining("did you mean node?")
        .hasMessageContaining("node, layout, clock-source, clock-policy, max-wait, max-lead");
  }

  @Test
  void init_unknownPropertyHoldingAUri_doesNotRepeatItsValue() {
    refused("nodes", "jdbc:postgresql://db/app?user=ids&password=hunter2")
        .hasMessageContaining("unknown property 'nodes'")
        .hasMessageContaining("did you mean node?")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void init_propertyWithNoNearMiss_listsTheProperties() {
    refused("worker-id", "3")
        .hasMessageContaining("unknown property 'worker-id'")
        .hasMessageNotContaining("did you mean")
        .hasMessageContaining("fields.<field>");
  }

  @Test
  void init_misspeltLayoutPreset_namesLayoutAndThePresetMeant() {
    refused("node", "static:worker=1", "layout", "twiter")
        .hasMessageContaining("layout = twiter is invalid")
        .hasMessageContaining("twitter, ")
        .hasMessageContaining("did you mean twitter?");
  }

  @Test
  void init_badLayoutSpec_namesLayout() {
    refused("node", "static:worker=1", "layout", "time=41,worker=10")
        .satisfies(
            e ->
                assertThat(((InvalidSettingException) e.getSuppressed()[0]).setting())
                    .startsWith("layout"));
  }

  @Test
  void init_misspeltClockPolicy_namesThePropertyAndThePolicyMeant() {
    refused("node", "static:worker=1", "clock-policy", "wiat")
        .hasMessageContaining("clock-policy = wiat is invalid; allowed: wait, fail, clockback")
        .hasMessageContaining("did you mean wait?");
  }

  @Test
  void init_clockbackOnALayoutWithoutItsField_namesClockPolicy() {
    refused("node", "static:worker=1", "clock-policy", "clockback")
        .hasMessageContaining("clock-policy = clockback is invalid; allowed: wait or fail")
        .hasMessageContaining("has no clockback field");
  }

  @Test
  void init_unknownClockSource_namesTheProperty() {
    refused("node", "static:worker=1", "clock-source", "wallclock")
        .hasMessageContaining("clock-source = wallclock is invalid; allowed: monotonic, wall-clock")
        .hasMessageContaining("did you mean wall-clock?");
  }

  @Test
  void init_waitOverAMinute_namesMaxWaitAndItsRange() {
    refused("node", "static:worker=1", "max-wait", "2m")
        .hasMessageContaining("max-wait = 2m is invalid; allowed: a duration of 0s..1m");
    refused("node", "static:worker=1", "max-lead", "soon")
        .hasMessageContaining("max-lead = soon is invalid");
  }

  @Test
  void init_fieldOfNoNodeField_namesItAndTheFieldMeant() {
    refused("node", "static:worker=1", "fields.datacentre", "1")
        .hasMessageContaining("fields.datacentre = 1 is invalid")
        .hasMessageContaining("datacenter, worker")
        .hasMessageContaining("did you mean fields.datacenter?");
  }

  @Test
  void init_fieldValueOutOfRange_namesTheFieldsRange() {
    refused("node", "static:worker=1", "fields.datacenter", "32")
        .hasMessageContaining("fields.datacenter = 32 is invalid; allowed: 0..31");
    refused("node", "static:worker=1", "fields.datacenter", "one")
        .hasMessageContaining("fields.datacenter = one is invalid; allowed: 0..31");
  }

  @Test
  void init_misspeltFieldsPrefix_namesTheFieldsProperty() {
    refused("node", "static:worker=1", "feilds.datacenter", "1")
        .hasMessageContaining("unknown property 'feilds.datacenter'")
        .hasMessageContaining("did you mean fields.datacenter?");
  }

  @Test
  void init_unknownNodeSourceScheme_namesNode() {
    refused("node", "nosuch://x")
        .satisfies(
            e ->
                assertThat(((InvalidSettingException) e.getSuppressed()[0]).setting())
                    .isEqualTo("node"));
  }
}
