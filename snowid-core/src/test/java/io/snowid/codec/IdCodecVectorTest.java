package io.snowid.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Known encodings. From the seed document (westid README): 2^63-1 is {@code 1y2p0ij32e8e7} in
 * base36, {@code f_________8=} in base64url and {@code aZl8N0y58M7} in base62 with the 0-9a-zA-Z
 * alphabet (our base62-legacy); its HEX there, {@code 7FFFFFFFFFFFFF}, has 14 digits and is wrong.
 * All other vectors were computed independently with Python 3 arbitrary-precision integers:
 * repeated divmod by the radix over the alphabet for hex/base32/base36/base62, {@code v % 37}
 * indexed into {@code 0-9A-Z*~$=U} for the base32 check symbol, {@code
 * base64.urlsafe_b64encode(v.to_bytes(8, 'big'))} for base64url, and {@code str(v)} for decimal;
 * negative longs as {@code v + 2**64}.
 */
class IdCodecVectorTest {

  @ParameterizedTest(name = "{0}({1}) = {2}")
  @CsvSource({
    "decimal, 0, 0",
    "decimal, 1, 1",
    "decimal, 9223372036854775807, 9223372036854775807",
    "decimal, -9223372036854775808, 9223372036854775808",
    "decimal, -1, 18446744073709551615",
    "decimal, 1541815603606036480, 1541815603606036480",
    "hex, 0, 0000000000000000",
    "hex, 1, 0000000000000001",
    "hex, 9223372036854775807, 7fffffffffffffff",
    "hex, -9223372036854775808, 8000000000000000",
    "hex, -1, ffffffffffffffff",
    "hex, 1541815603606036480, 1565a11f6217a000",
    "base32, 0, 0000000000000",
    "base32, 1, 0000000000001",
    "base32, 9223372036854775807, 7ZZZZZZZZZZZZ",
    "base32, -9223372036854775808, 8000000000000",
    "base32, -1, FZZZZZZZZZZZZ",
    "base32, 1541815603606036480, 1ASD13XH1F800",
    "base32check, 0, 00000000000000",
    "base32check, 1, 00000000000011",
    "base32check, 9223372036854775807, 7ZZZZZZZZZZZZ5",
    "base32check, -9223372036854775808, 80000000000006",
    "base32check, -1, FZZZZZZZZZZZZB",
    "base32check, 1541815603606036480, 1ASD13XH1F800B",
    "base36, 0, 0000000000000",
    "base36, 1, 0000000000001",
    "base36, 9223372036854775807, 1y2p0ij32e8e7",
    "base36, -9223372036854775808, 1y2p0ij32e8e8",
    "base36, -1, 3w5e11264sgsf",
    "base36, 1541815603606036480, 0bppc0m3ju134",
    "base62, 0, 00000000000",
    "base62, 1, 00000000001",
    "base62, 9223372036854775807, AzL8n0Y58m7",
    "base62, -9223372036854775808, AzL8n0Y58m8",
    "base62, -1, LygHa16AHYF",
    "base62, 1541815603606036480, 1ptWyK4WgZU",
    "base62-legacy, 0, 00000000000",
    "base62-legacy, 1, 00000000001",
    "base62-legacy, 9223372036854775807, aZl8N0y58M7",
    "base62-legacy, -9223372036854775808, aZl8N0y58M8",
    "base62-legacy, -1, lYGhA16ahyf",
    "base62-legacy, 1541815603606036480, 1PTwYk4wGzu",
    "base64url, 0, AAAAAAAAAAA",
    "base64url, 1, AAAAAAAAAAE",
    "base64url, 9223372036854775807, f_________8",
    "base64url, -9223372036854775808, gAAAAAAAAAA",
    "base64url, -1, __________8",
    "base64url, 1541815603606036480, FWWhH2IXoAA",
  })
  void encodeAndDecode_knownVector_matches(String codecName, long id, String text) {
    IdCodec codec = IdCodec.named(codecName);
    assertThat(codec.encode(id)).isEqualTo(text);
    assertThat(codec.decode(text)).isEqualTo(id);
    if (codec.fixedWidth()) {
      assertThat(text).hasSize(codec.width());
    }
  }

  @ParameterizedTest(name = "{0}.decode({1}) = {2}")
  @CsvSource({
    "base64url, f_________8=, 9223372036854775807",
    "base64url, __________8=, -1",
    "hex, 7FFFFFFFFFFFFFFF, 9223372036854775807",
    "hex, 1565A11F6217a000, 1541815603606036480",
    "base36, 1Y2P0IJ32E8E7, 9223372036854775807",
    "base32, 7zzzzzzzzzzzz, 9223372036854775807",
    "base32, 1asd-13xh-1f800, 1541815603606036480",
    "base32, iASD13XHlF8oo, 1541815603606036480",
    "base32, LASD13XH1F8O0, 1541815603606036480",
    "base32check, 1asd-13xh-1f80-0b, 1541815603606036480",
    "base32check, 7zzzzzzzzzzzz5, 9223372036854775807",
  })
  void decode_alternativeSpelling_givesTheSameId(String codecName, String text, long id) {
    assertThat(IdCodec.named(codecName).decode(text)).isEqualTo(id);
  }

  @ParameterizedTest(name = "base32check({0}) = {1}")
  @CsvSource({
    "32, 0000000000010*",
    "33, 0000000000011~",
    "34, 0000000000012$",
    "35, 0000000000013=",
    "36, 0000000000014U",
    "37, 00000000000150",
  })
  void encode_base32checkHighCheckValues_useTheExtraSymbols(long id, String text) {
    assertThat(IdCodec.BASE32_CHECK.encode(id)).isEqualTo(text);
    assertThat(IdCodec.BASE32_CHECK.decode(text.toLowerCase(Locale.ROOT))).isEqualTo(id);
  }
}
