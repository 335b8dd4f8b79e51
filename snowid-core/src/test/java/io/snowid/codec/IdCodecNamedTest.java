package io.snowid.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.SnowId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdCodecNamedTest {

  @Test
  void names_all_inStableOrder() {
    assertThat(IdCodec.names())
        .containsExactly(
            "decimal",
            "hex",
            "base32",
            "base32check",
            "base36",
            "base62",
            "base62-legacy",
            "base64url");
  }

  @Test
  void named_eachName_returnsTheCodecOfThatName() {
    for (String name : IdCodec.names()) {
      assertThat(IdCodec.named(name).name()).isEqualTo(name);
    }
    assertThat(IdCodec.named("hex")).isSameAs(IdCodec.HEX);
    assertThat(IdCodec.named("base62-legacy")).isSameAs(IdCodec.BASE62_LEGACY);
  }

  @ParameterizedTest
  @CsvSource({"DECIMAL, decimal", "Hex, hex", "BASE32Check, base32check", "Base64URL, base64url"})
  void named_anyCase_findsTheCodec(String asked, String name) {
    assertThat(IdCodec.named(asked).name()).isEqualTo(name);
  }

  @Test
  void named_misspelt_namesTheFormMeant_butAnotherRadixIsNoMisspelling() {
    assertThatThrownBy(() -> IdCodec.named("hexa"))
        .hasMessageEndingWith(", base64url; did you mean hex?");
    assertThatThrownBy(() -> IdCodec.named("base64-url"))
        .hasMessageEndingWith("; did you mean base64url?");
    assertThatThrownBy(() -> IdCodec.named("base58")).hasMessageEndingWith(", base64url");
  }

  @Test
  void named_unknown_throwsInvalidSettingListingTheNames() {
    assertThatThrownBy(() -> IdCodec.named("base58"))
        .isInstanceOfSatisfying(
            InvalidSettingException.class,
            e -> {
              assertThat(e.setting()).isEqualTo("format");
              assertThat(e.value()).isEqualTo("base58");
              assertThat(e.allowed())
                  .isEqualTo(
                      "one of decimal, hex, base32, base32check, base36, base62, base62-legacy,"
                          + " base64url");
            })
        .hasMessageContaining("format = base58");
    assertThatThrownBy(() -> IdCodec.named(null)).isInstanceOf(InvalidSettingException.class);
    assertThatThrownBy(() -> IdCodec.named(" hex")).isInstanceOf(InvalidSettingException.class);
  }

  @Test
  void nextString_unknownFormat_throwsInvalidSetting() {
    assertThatThrownBy(() -> SnowId.nextString("base99"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("base99");
  }

  @Test
  void nextString_base62_decodesToAPositiveIdOfTheGenerator() {
    String text = SnowId.nextString("BASE62");
    long id = IdCodec.BASE62.decode(text);
    assertThat(text).hasSize(11);
    assertThat(id).isPositive();
    assertThat(SnowId.next()).isGreaterThan(id);
  }
}
