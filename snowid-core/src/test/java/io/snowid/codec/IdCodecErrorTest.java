package io.snowid.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class IdCodecErrorTest {

  static java.util.List<String> names() {
    return IdCodec.names();
  }

  private static IdFormatException decodeFailure(String codecName, String input) {
    IdFormatException e =
        catchThrowableOfType(IdFormatException.class, () -> IdCodec.named(codecName).decode(input));
    assertThat(e).as("%s.decode(%s) must throw IdFormatException", codecName, input).isNotNull();
    return e;
  }

  @ParameterizedTest(name = "{0}: ''{1}'' at {2}: {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "decimal | 18446744073709551616 | 19 | exceeds the unsigned 64-bit maximum",
        "decimal | 99999999999999999999 | 0 | exceeds the unsigned 64-bit maximum",
        "decimal | 123456789012345678901 | -1 | expected 1 to 20 digits, got 21",
        "decimal | +1 | 0 | character '+' (U+002B) is not one of 0-9",
        "decimal | -1 | 0 | character '-' (U+002D) is not one of 0-9",
        "decimal | 007 | 0 | leading zero",
        "decimal | 12 3 | 2 | character ' ' (U+0020)",
        "decimal | 1\u0663 | 1 | U+0663 is not one of 0-9",
        "hex | 7FFFFFFFFFFFFF | -1 | expected 16 characters, got 14",
        "hex | 000000000000000g | 15 | character 'g' (U+0067) is not one of 0-9a-f",
        "hex | 0x00000000000001 | 1 | character 'x'",
        "base32 | G000000000000 | 0 | exceeds the unsigned 64-bit maximum 2^64-1 (FZZZZZZZZZZZZ)",
        "base32 | Z000000000000 | 0 | exceeds the unsigned 64-bit maximum",
        "base32 | 000000000000U | 12 | character 'U' (U+0055) is not one of Crockford",
        "base32 | 0000-0000-0000 | -1 | expected 13 symbols (hyphens aside), got 12",
        "base32check | 7ZZZZZZZZZZZZ6 | 13 | check symbol does not match",
        "base32check | 7ZZZZZZZZZZZZ | -1 | expected 14 symbols (hyphens aside), got 13",
        "base32check | 7ZZZZZZZZZZZZ# | 13 | character '#' (U+0023) is not one of the check symbols",
        "base32check | G0000000000000 | 0 | exceeds the unsigned 64-bit maximum",
        "base32check | 7ZZZZ*ZZZZZZZ5 | 5 | character '*' (U+002A) is not one of Crockford",
        "base36 | zzzzzzzzzzzzz | 0 | exceeds the unsigned 64-bit maximum 2^64-1 (3w5e11264sgsf)",
        "base36 | 3w5e11264sgsg | 12 | exceeds the unsigned 64-bit maximum",
        "base36 | 1y2p0ij32e8e | -1 | expected 13 characters, got 12",
        "base36 | 1y2p0ij32e8e_ | 12 | character '_' (U+005F) is not one of 0-9a-z",
        "base62 | LygHa16AHYG | 10 | exceeds the unsigned 64-bit maximum 2^64-1 (LygHa16AHYF)",
        "base62 | zzzzzzzzzzz | 0 | exceeds the unsigned 64-bit maximum",
        "base62 | AzL8n0Y58m-7 | -1 | expected 11 characters, got 12",
        "base62 | AzL8n0Y58m- | 10 | character '-' (U+002D) is not one of 0-9A-Za-z",
        "base62-legacy | lYGhA16ahyg | 10 | exceeds the unsigned 64-bit maximum",
        "base62-legacy | ZZZZZZZZZZZ | 0 | exceeds the unsigned 64-bit maximum",
        "base64url | f_________9 | 10 | sets bits beyond the 8 bytes",
        "base64url | f_________8x | 11 | a 12th character can only be the padding '='",
        "base64url | f_________8== | -1 | expected 11 characters, or 12 ending in '=', got 13",
        "base64url | f________8 | -1 | expected 11 characters, or 12 ending in '=', got 10",
        "base64url | f____+____8 | 5 | character '+' (U+002B) is not one of A-Za-z0-9-_",
        "base64url | f____/____8 | 5 | character '/' (U+002F)",
      })
  void decode_badInput_throwsIdFormatExceptionNamingCodecInputAndPosition(
      String codec, String input, int position, String reason) {
    IdFormatException e = decodeFailure(codec, input);
    assertThat(e.codec()).isEqualTo(codec);
    assertThat(e.input()).isEqualTo(input);
    assertThat(e.position()).isEqualTo(position);
    assertThat(e.getMessage())
        .contains("'" + input + "'")
        .contains(codec + ": ")
        .contains(reason)
        .contains(position < 0 ? "" : "at position " + position + ": ");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void decode_nullOrEmpty_throwsAtPositionMinusOne(String codec) {
    IdFormatException empty = decodeFailure(codec, "");
    assertThat(empty.position()).isEqualTo(-1);
    assertThat(empty.codec()).isEqualTo(codec);
    assertThat(empty.getMessage()).isEqualTo("invalid id '': " + codec + ": input is empty");

    IdFormatException nul = decodeFailure(codec, null);
    assertThat(nul.position()).isEqualTo(-1);
    assertThat(nul.input()).isEqualTo("null");
    assertThat(nul.getMessage()).isEqualTo("invalid id 'null': " + codec + ": input is null");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void decode_badInput_isAnInvalidIdException(String codec) {
    assertThat(decodeFailure(codec, "?")).isInstanceOf(io.snowid.InvalidIdException.class);
  }
}
