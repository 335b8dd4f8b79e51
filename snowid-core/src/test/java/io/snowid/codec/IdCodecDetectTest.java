package io.snowid.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidIdException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link IdCodec#detect}: decimal by its length, or an error naming the forms to pass. */
class IdCodecDetectTest {
  private static final long TWEET = 1541815603606036480L;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1541815603606036480",
        "0",
        "7",
        "1234567890",
        "123456789012",
        "18446744073709551615"
      })
  void detect_digitsOfALengthNoFixedFormPrints_isDecimal(String text) {
    assertThat(IdCodec.detect(text)).isSameAs(IdCodec.DECIMAL);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1565a11f6217a000|16 characters can be hex or decimal, so the form is not guessed;"
            + " name the form: hex",
        "1565A11F6217A000|16 characters can be hex or decimal, so the form is not guessed;"
            + " name the form: hex",
        "1234567890123456|16 characters can be hex or decimal, so the form is not guessed;"
            + " name the form: hex or decimal",
        "1ASD13XH1F800B|14 characters can be base32check or decimal, so the form is not guessed;"
            + " name the form: base32check",
        "1ASD13XH1F800|13 characters can be base32, base36 or decimal, so the form is not guessed;"
            + " name the form: base32 or base36",
        "0bppc0m3ju134|13 characters can be base32, base36 or decimal, so the form is not guessed;"
            + " name the form: base36",
        "1ptWyK4WgZU|11 characters can be base62, base62-legacy, base64url or decimal, so the form"
            + " is not guessed; name the form: base62, base62-legacy or base64url",
        "__________8|11 characters can be base62, base62-legacy, base64url or decimal, so the form"
            + " is not guessed; name the form: base64url",
      })
  void detect_lengthOfAFixedWidthForm_isRefusedNamingTheFormsThatReadIt(
      String text, String reason) {
    assertThatThrownBy(() -> IdCodec.detect(text))
        .isInstanceOfSatisfying(
            UndetectedFormException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.input()).isEqualTo(text);
            });
  }

  @Test
  void detect_refused_eachFormItNamesReadsTheTweet() {
    UndetectedFormException e = catchUndetected("1ptWyK4WgZU");

    assertThat(IdCodec.named(e.readers().get(0)).decode("1ptWyK4WgZU")).isEqualTo(TWEET);
    assertThat(e.candidates()).containsExactly("base62", "base62-legacy", "base64url", "decimal");
  }

  @Test
  void reasonWith_namesTheOptionToPassForEachForm() {
    UndetectedFormException e = catchUndetected("1234567890123456");

    assertThat(e.reasonWith("--format "))
        .isEqualTo(
            "16 characters can be hex or decimal, so the form is not guessed;"
                + " pass --format hex or --format decimal");
    assertThat(e.reasonWith("?format=")).endsWith("; pass ?format=hex or ?format=decimal");
  }

  @ParameterizedTest
  @ValueSource(strings = {"01", "18446744073709551616", "99999999999999999999999"})
  void detect_digitsThatAreNoDecimalId_throwTheDecimalError(String text) {
    assertThatThrownBy(() -> IdCodec.detect(text))
        .isInstanceOfSatisfying(
            IdFormatException.class, e -> assertThat(e.codec()).isEqualTo("decimal"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"xyz!", "zzzzzzzzzzzzz", "-5", "1565a11f6217a00", "1565a11f6217a00!"})
  void detect_noFormReadsIt_throwsListingTheForms(String text) {
    assertThatThrownBy(() -> IdCodec.detect(text))
        .isExactlyInstanceOf(InvalidIdException.class)
        .hasMessage(
            "invalid id '"
                + text
                + "': not an id in any text form: expected decimal (1-20 digits), hex (16),"
                + " base32 (13), base32check (14), base36 (13), base62 (11), base62-legacy (11)"
                + " or base64url (11)");
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

  private static UndetectedFormException catchUndetected(String text) {
    try {
      IdCodec.detect(text);
    } catch (UndetectedFormException e) {
      return e;
    }
    throw new AssertionError(text + " was detected");
  }
}
