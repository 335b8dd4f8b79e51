package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link InvalidSettingException#nearMiss}: the "did you mean" of every setting error. */
class NearMissTest {
  private static final List<String> OPTIONS =
      List.of("namespace", "ttl", "skew", "startWait", "instance", "fields", "renew");

  @ParameterizedTest
  @CsvSource({
    "namepsace, namespace", // two neighbours swapped: one edit
    "namespce, namespace", // a letter left out
    "namespacee, namespace", // one too many
    "nemaspace, namespace", // two edits
    "NAMESPACE, namespace", // case is ignored
    "Namespace, namespace",
    "tll, ttl",
    "ttls, ttl",
    "skwe, skew",
    "startwait, startWait",
    "start_wait, startWait",
    "instanse, instance",
    "feilds, fields",
    "field, fields",
    "renwe, renew",
  })
  void nearMiss_misspeltName_isTheNameMeant(String given, String meant) {
    assertThat(InvalidSettingException.nearMiss(given, OPTIONS)).contains(meant);
  }

  @ParameterizedTest
  @ValueSource(strings = {"namespace", "ttl", "color", "sslmode", "", "t", "nmspc", "tt_l_x"})
  void nearMiss_knownOrFarName_isEmpty(String given) {
    assertThat(InvalidSettingException.nearMiss(given, OPTIONS)).isEmpty();
  }

  /** Two edits make another word of a short name: site, type and tier are no misspelt time. */
  @Test
  void nearMiss_shortKnownName_takesOneEditOnly() {
    List<String> reserved = List.of("time", "sequence", "unit", "wrap");
    assertThat(InvalidSettingException.nearMiss("tiem", reserved)).contains("time");
    assertThat(InvalidSettingException.nearMiss("tme", reserved)).contains("time");
    assertThat(InvalidSettingException.nearMiss("warp", reserved)).contains("wrap");
    assertThat(InvalidSettingException.nearMiss("site", reserved)).isEmpty();
    assertThat(InvalidSettingException.nearMiss("type", reserved)).isEmpty();
    assertThat(InvalidSettingException.nearMiss("tier", reserved)).isEmpty();
    assertThat(InvalidSettingException.nearMiss("uid", reserved)).isEmpty();
    assertThat(InvalidSettingException.nearMiss("sequnece", reserved)).contains("sequence");
  }

  @Test
  void nearMiss_severalNear_theNearestThenTheFirst() {
    assertThat(InvalidSettingException.nearMiss("table", List.of("tables", "table_", "tabel")))
        .contains("tables");
    assertThat(InvalidSettingException.nearMiss("sslmod", List.of("sslmodes", "sslmode")))
        .contains("sslmode");
  }

  @Test
  void nearMiss_longInput_isAnsweredWithoutComparingItWhole() {
    assertThat(InvalidSettingException.nearMiss("n".repeat(100_000), OPTIONS)).isEmpty();
  }
}
