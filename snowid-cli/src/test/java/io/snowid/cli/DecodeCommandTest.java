package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DecodeCommandTest {
  private static final String TWEET = "1541815603606036480";

  @Test
  void decode_tweetId_printsTimeFieldsAndSequenceAsATable() {
    Cli r = Cli.run("decode", "--layout", "twitter", TWEET);

    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.outLines())
        .containsExactly(
            "ID                   TIME (UTC)                DATACENTER  WORKER  SEQUENCE",
            "1541815603606036480  2022-06-28T16:07:40.105Z  11          26      0");
  }

  @Test
  void decode_json_printsOneObjectPerIdWithTheIdAsString() {
    Cli r = Cli.run("decode", "--json", TWEET, "175928847299117063");

    assertThat(r.exit()).isZero();
    assertThat(r.outLines())
        .containsExactly(
            "{\"id\":\"1541815603606036480\",\"timestamp\":\"2022-06-28T16:07:40.105Z\","
                + "\"fields\":{\"datacenter\":11,\"worker\":26},\"sequence\":0}",
            "{\"id\":\"175928847299117063\",\"timestamp\":\"2012-03-03T13:01:20.453Z\","
                + "\"fields\":{\"datacenter\":1,\"worker\":0},\"sequence\":7}");
  }

  @Test
  void decode_discordLayout_readsDiscordsDocumentedExample() {
    Cli r = Cli.run("decode", "--layout", "discord", "--json", "175928847299117063");

    assertThat(r.out())
        .isEqualTo(
            "{\"id\":\"175928847299117063\",\"timestamp\":\"2016-04-30T11:18:25.796Z\","
                + "\"fields\":{\"worker\":1,\"process\":0},\"sequence\":7}\n");
  }

  @ParameterizedTest
  @CsvSource({
    "1565a11f6217a000, hex",
    "1ASD13XH1F800, base32",
    "1ASD13XH1F800B, base32check",
    "0bppc0m3ju134, base36",
    "1ptWyK4WgZU, base62"
  })
  void decode_fixedWidthFormWithItsFormat_decodes(String text, String form) {
    Cli r = Cli.run("decode", "--format", form, "--json", text);

    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("{\"id\":\"1541815603606036480\",");
  }

  @Test
  void decode_lengthOfAFixedWidthForm_exits2WithOneLineNamingTheFormatToPass() {
    Cli r = Cli.run("decode", "1565a11f6217a000");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines())
        .containsExactly(
            "snowid: invalid id '1565a11f6217a000': 16 characters can be hex or decimal, so the"
                + " form is not guessed; pass --format hex");
  }

  @Test
  void decode_elevenCharacters_exits2NamingEachFormatThatReadsIt() {
    Cli r = Cli.run("decode", "1ptWyK4WgZU");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "snowid: invalid id '1ptWyK4WgZU': 11 characters can be base62, base62-legacy,"
                + " base64url or decimal, so the form is not guessed; pass --format base62,"
                + " --format base62-legacy or --format base64url");
  }

  @Test
  void decode_64BitLayout_printsTheIdUnsigned() {
    Cli r = Cli.run("decode", "--layout", "discord", "--format", "hex", "ffffffffffffffff");

    assertThat(r.exit()).isZero();
    assertThat(r.outLines().get(1)).startsWith("18446744073709551615  ");
  }

  @Test
  void decode_oneBadIdAmongGood_exits2AndPrintsNothing() {
    Cli r = Cli.run("decode", TWEET, "not-an-id!", TWEET);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).startsWith("snowid: invalid id 'not-an-id!'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "9223372036854775808",
        "18446744073709551616",
        "01",
        "zzzzzzzzzzzzz",
        "--format hex 1541815603606036480",
        "--layout nope 1",
        "--format nope 1"
      })
  void decode_badInput_exits2WithOneLine(String args) {
    Cli r = Cli.run(("decode " + args).split(" "));

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).startsWith("snowid: ");
  }

  @Test
  void decodeCommand_usesNothingOfTheServerModule() throws IOException {
    try (InputStream in = DecodeCommand.class.getResourceAsStream("DecodeCommand.class")) {
      String constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);

      assertThat(constants).contains("io/snowid/codec/IdCodec").doesNotContain("io/snowid/server");
    }
  }

  @Test
  void decode_noId_exits2WithOneLine() {
    Cli r = Cli.run("decode");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).contains("ID");
  }
}
