package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A layout spec's names: any name that is not reserved is a node field, so a misspelt reserved name
 * ({@code sequnce}) is refused instead of becoming one.
 */
class LayoutSpecNearMissTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "time=41,sequnce=12,worker=10,epoch=0|layout.sequnce = 12|sequnce: did you mean sequence?",
        "tiem=41,sequence=12,worker=10,epoch=0|layout.tiem = 41|tiem: did you mean time?",
        "time=41,worker=8,clockbak=2,sequence=12,epoch=0|layout.clockbak = 2|"
            + "clockbak: did you mean clockback?",
        "time=41,worker=10,sequence=12,epoc=0|layout.epoc = 0|epoc: did you mean epoch?",
        "time=41,worker=10,sequence=12,epoch=0,unti=1s|layout.unti = 1s|"
            + "unti: did you mean unit?",
        "time=41,worker=10,sequence=12,epoch=0,warp=true|layout.warp = true|"
            + "warp: did you mean wrap?",
        "TIME=41,SEQUNCE=12,WORKER=10,EPOCH=0|layout.sequnce = 12|sequnce: did you mean sequence?",
      })
  void parse_misspeltReservedName_isRefusedNamingIt(String spec, String start, String meant) {
    assertThatThrownBy(() -> Layout.parse(spec))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith(start + " is invalid; allowed: ")
        .hasMessageEndingWith(meant)
        .hasMessageContaining("time, sequence, clockback, epoch, unit, wrap");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "worker",
        "datacenter",
        "process",
        "shard",
        "machine",
        "node",
        "site",
        "type",
        "tier",
        "region"
      })
  void parse_nodeFieldNamedUnlikeAReservedName_isANodeField(String name) {
    Layout l = Layout.parse("time=41," + name + "=10,sequence=12,epoch=0");

    assertThat(l.field(name)).hasValueSatisfying(f -> assertThat(f.isNode()).isTrue());
  }

  @Test
  void parse_everyPreset_stillParses() {
    for (String name : Presets.names()) {
      assertThat(Layout.preset(name).spec()).as(name).isNotBlank();
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "time=41,worker=5,worker=5,sequence=12,epoch=0|layout.worker = 5",
        "time=41,worker=10,sequence=12,epoch=0,epoch=1|layout.epoch = 1",
        "time=41,worker=10,sequence=12,epoch=0,unit=1ms,unit=1s|layout.unit = 1s",
        "time=41,worker=10,sequence=12,epoch=0,WORKER=3|layout.worker = 3",
      })
  void parse_nameGivenTwice_isRefusedNamingIt(String spec, String start) {
    assertThatThrownBy(() -> Layout.parse(spec))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(start + " is invalid; allowed: each name at most once");
  }
}
