package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.LeaseCoordinators;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Guarantee 8 for the builder: bad settings fail fast, naming the setting, value and range. */
class SnowflakeBuilderTest {

  @Test
  void node_valueOutsideField_throwsWithRange() {
    assertThatThrownBy(() -> Snowflake.builder().node("worker", 32))
        .isInstanceOfSatisfying(
            InvalidSettingException.class,
            e -> {
              assertThat(e.setting()).isEqualTo("worker");
              assertThat(e.value()).isEqualTo("32");
              assertThat(e.allowed()).isEqualTo("0..31");
            });
    assertThatThrownBy(() -> Snowflake.builder().node("datacenter", -1))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("0..31");
  }

  @Test
  void node_fieldNotInLayout_throwsListingNodeFields() {
    assertThatThrownBy(() -> Snowflake.builder().node("shard", 1))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("datacenter, worker");
    assertThatThrownBy(() -> Snowflake.builder().node("sequence", 1))
        .isInstanceOf(InvalidSettingException.class);
  }

  @Test
  void build_nodeFieldUnset_throwsNamingTheFieldAndTheCallThatSetsIt() {
    assertThatThrownBy(() -> Snowflake.builder().node("worker", 1).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("datacenter has no value; call nodeSource(")
        .hasMessageEndingWith(", or node(\"datacenter\", 0..31)");
  }

  @Test
  void build_withNothingSet_pointsToNodeSourceAndTheHostsLeaseDirectory() {
    assertThatThrownBy(() -> Snowflake.builder().build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "datacenter and worker have no value; call nodeSource(\""
                + LeaseCoordinators.DEFAULT_FILE_URI
                + "\") (this host's lease directory, SnowId's default), nodeSource(\"auto\"), a"
                + " coordinator such as nodeSource(\"redis://host\"), or node(\"datacenter\","
                + " 0..31) and node(\"worker\", 0..31)");
  }

  @Test
  void build_staticSourceMissingAField_saysWhichInTheStaticForm() {
    assertThatThrownBy(() -> Snowflake.builder().nodeSource("static:worker=1").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "node = static:worker=1 is invalid; allowed: static: with a value for every node field"
                + " of the layout, e.g. static:datacenter=0..31,worker=0..31 (datacenter has"
                + " none)");
  }

  @Test
  void layout_change_clearsNodeValuesOfTheOldLayout() {
    Snowflake gen =
        Snowflake.builder()
            .node("datacenter", 1)
            .layout("westid")
            .node(Map.of("worker", 1000L))
            .build();
    assertThat(gen.node()).isEqualTo(Map.of("worker", 1000L));
    assertThat(gen.layout().decode(gen.nextId()).field("worker")).isEqualTo(1000);
  }

  @Test
  void durations_outOfRange_throwWithRange() {
    assertThatThrownBy(() -> Snowflake.builder().maxLead(Duration.ofMillis(-1)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("maxLead")
        .hasMessageContaining("0s..1m");
    assertThatThrownBy(() -> Snowflake.builder().maxWait(Duration.ofMinutes(2)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("maxWait");
  }

  @Test
  void clockPolicy_unknownName_throwsListingNames() {
    assertThatThrownBy(() -> Snowflake.builder().clockPolicy("sometimes"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("wait, fail or clockback");
    assertThat(ClockPolicy.named(" Clockback ")).isEqualTo(ClockPolicy.CLOCKBACK);
  }

  @Test
  void nextIds_emptyArray_issuesNothing() {
    Snowflake gen = Snowflake.builder().node("datacenter", 0).node("worker", 0).build();
    long before = gen.nextId();
    gen.nextIds(new long[0]);
    assertThat(gen.nextId()).isGreaterThan(before);
  }

  @Test
  void snowId_next_isPositiveIncreasingAndDecodable() {
    long a = SnowId.next();
    long b = SnowId.next();
    assertThat(a).isPositive();
    assertThat(b).isGreaterThan(a);
    assertThat(SnowId.decode(b).layout()).isEqualTo(Layout.twitter());
    assertThat(SnowId.generator().node()).containsOnlyKeys("datacenter", "worker");
  }
}
