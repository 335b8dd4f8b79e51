package io.snowid.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidIdException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link IdCodec#detect}: the one form that reads a text, or an error naming the candidates. */
class IdCodecDetectTest {
  private static final long TWEET = 1541815603606036480L;

  @ParameterizedTest
  @CsvSource({
    "1541815603606036480, decimal",
    "0, decimal",
    "18446744073709551615, decimal",
    "1565a11f6217a000, hex",
    "1565A11F6217A000, hex",
    "1ASD13XH1F800, base32",
    "1ASD13XH1F800B, base32check",
    "0bppc0m3ju134, base36",
  })
  void detect_unambiguousForm_returnsThatCodec(String text, String form) {
    IdCodec codec = IdCodec.detect(text);

    assertThat(codec.name()).isEqualTo(form);
    if (!text.equals("0") && !text.startsWith("18446")) {
      assertThat(codec.decode(text)).isEqualTo(TWEET);
    }
  }

  @Test
  void detect_everyDetectedFormOfAnId_readsItBack() {
    for (IdCodec codec : new IdCodec[] {IdCodec.DECIMAL, IdCodec.HEX, IdCodec.BASE32_CHECK}) {
      String text = codec.encode(TWEET);

      assertThat(IdCodec.detect(text)).as(text).isSameAs(codec);
    }
  }

  @Test
  void detect_thirteenSymbols_upperCaseIsBase32AndLowerCaseBase36() {
    // Both forms read 13 symbols in either case; the canonical spelling decides.
    assertThat(IdCodec.detect(IdCodec.BASE32.encode(TWEET))).isSameAs(IdCodec.BASE32);
    assertThat(IdCodec.detect(IdCodec.BASE36.encode(TWEET))).isSameAs(IdCodec.BASE36);
  }

  @Test
  void detect_base64urlOnlySymbols_isBase64url() {
    String text = IdCodec.BASE64URL.encode(-1L); // "__________8": only base64url has '_'

    assertThat(IdCodec.detect(text)).isSameAs(IdCodec.BASE64URL);
  }

  @Test
  void detect_elevenLettersAndDigits_isAmbiguousNamingBothForms() {
    assertThatThrownBy(() -> IdCodec.detect("1ptWyK4WgZU"))
        .isExactlyInstanceOf(InvalidIdException.class)
        .hasMessage(
            "invalid id '1ptWyK4WgZU': ambiguous: it reads as base62 and as base64url; say which"
                + " with the format option");
  }

  @Test
  void detect_neverPicksBase62Legacy() {
    for (long id : new long[] {0, 1, TWEET, Long.MAX_VALUE, -1}) {
      String legacy = IdCodec.BASE62_LEGACY.encode(id);
      try {
        assertThat(IdCodec.detect(legacy)).as(legacy).isNotSameAs(IdCodec.BASE62_LEGACY);
      } catch (InvalidIdException e) {
        assertThat(e).as(legacy).hasMessageNotContaining("legacy");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"01", "18446744073709551616", "99999999999999999999999"})
  void detect_digitsThatAreNoDecimalId_throwTheDecimalError(String text) {
    assertThatThrownBy(() -> IdCodec.detect(text))
        .isInstanceOfSatisfying(
            IdFormatException.class, e -> assertThat(e.codec()).isEqualTo("decimal"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"xyz!", "zzzzzzzzzzzzz", "-5", "1565a11f6217a00"})
  void detect_noFormReadsIt_throwsListingTheForms(String text) {
    assertThatThrownBy(() -> IdCodec.detect(text))
        .isExactlyInstanceOf(InvalidIdException.class)
        .hasMessage(
            "invalid id '"
                + text
                + "': not an id in any text form: expected decimal (1-20 digits), hex (16),"
                + " base32 (13), base32check (14), base36 (13), base62 (11) or base64url (11)");
  }

  @Test
  void detect_longInput_isQuotedShortened() {
    String text = "x".repeat(100);

    assertThatThrownBy(() -> IdCodec.detect(text))
        .hasMessageStartingWith("invalid id '" + "x".repeat(40) + "…': not an id");
  }

  @Test
  void detect_nullOrEmpty_throwsInvalidId() {
    assertThatThrownBy(() -> IdCodec.detect("")).isInstanceOf(InvalidIdException.class);
    assertThatThrownBy(() -> IdCodec.detect(null)).isInstanceOf(InvalidIdException.class);
  }
}
