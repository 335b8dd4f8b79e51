package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad input is exit code 2 and one line on stderr that names the input and what would be allowed,
 * for every kind of input: numbers picocli converts, IDs too wide for the layout, an expired
 * layout, a lease directory that is a file, an address that does not resolve, a spec with a typo, a
 * value given twice, input of any length.
 */
class ErrorContractTest {
  @TempDir Path dir;

  private static void assertBadInput(Cli r, String line) {
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).containsExactly(line);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "generate -n abc|snowid: count = abc is invalid; allowed: 1..10000000",
        "generate -n 99999999999999999999|"
            + "snowid: count = 99999999999999999999 is invalid; allowed: 1..10000000",
        "serve --port abc|snowid: port = abc is invalid; allowed: 0..65535",
        "serve --stop-timeout soon|snowid: stop-timeout = soon is invalid; allowed: 0..600",
        "serve --backlog many|snowid: backlog = many is invalid; allowed: 1..65535",
        "serve --max-connections 0|snowid: max-connections = 0 is invalid; allowed: 1..1000000",
        "serve --max-connections lots|"
            + "snowid: max-connections = lots is invalid; allowed: 1..1000000",
        "serve --header-timeout 10s|snowid: header-timeout = 10s is invalid; allowed: 1..600",
        "serve --header-timeout 601|snowid: header-timeout = 601 is invalid; allowed: 1..600",
        "serve --idle-timeout 0|snowid: idle-timeout = 0 is invalid; allowed: 1..3600",
        "serve --max-reserved-ahead 60001|"
            + "snowid: max-reserved-ahead = 60001 is invalid; allowed: 1..60000",
        "serve --max-reserved-ahead 0.5|"
            + "snowid: max-reserved-ahead = 0.5 is invalid; allowed: 1..60000",
        "bench -t x|snowid: threads = x is invalid; allowed: 1..256",
        "bench -s 1.5|snowid: seconds = 1.5 is invalid; allowed: 1..600",
      })
  void numberOption_notANumberOrOutOfRange_namesTheInputAndTheRange(String args, String line) {
    assertBadInput(Cli.run(args.split(" ")), line);
  }

  @Test
  void decode_decimalAtOrAbove2To63_namesTheInputNotMinusOne() {
    Cli r = Cli.run("decode", "18446744073709551615");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err())
        .contains("'18446744073709551615'")
        .contains("0..9223372036854775807")
        .doesNotContain("'-1'");
  }

  @Test
  void decode_hexAbove63Bits_namesTheTextAsGiven() {
    Cli r = Cli.run("decode", "--format", "hex", "8000000000000000");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("'8000000000000000'").doesNotContain("-9223372036854775808");
  }

  @Test
  void generate_expiredLayout_exits2NamingItsEnd() {
    Cli r = Cli.run("generate", "--layout", "baidu", "--node", "static:worker=1");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err())
        .startsWith("snowid: layout = baidu is invalid")
        .contains("2024-11-20")
        .doesNotContain("Exception");
  }

  @Test
  void generate_nodeDirectoryIsARegularFile_exits2WithOneLine() throws IOException {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");

    Cli r = Cli.run("generate", "--node", "file:" + file);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).contains(file.toString()).contains("regular file");
  }

  @Test
  void serve_unresolvableBind_exits2BeforeTakingALease() throws IOException {
    Path leases = dir.resolve("leases");

    Cli r =
        Cli.run(
            "serve", "--bind", "no-such-host.invalid", "--port", "0", "--node", "file:" + leases);

    assertBadInput(
        r,
        "snowid: bind = no-such-host.invalid is invalid; allowed: an IP address or a host name"
            + " that resolves");
    assertThat(leaseFiles(leases)).isZero();
  }

  @Test
  void serve_addressOfAnotherHost_exits2BeforeTakingALease() throws IOException {
    Path leases = dir.resolve("leases");

    Cli r = Cli.run("serve", "--bind", "192.0.2.1", "--port", "0", "--node", "file:" + leases);

    assertBadInput(
        r, "snowid: bind = 192.0.2.1 is invalid; allowed: an address of this host (or 0.0.0.0)");
    assertThat(leaseFiles(leases)).isZero();
  }

  private static long leaseFiles(Path leases) throws IOException {
    if (!Files.exists(leases)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(leases)) {
      return files.filter(f -> f.toString().endsWith(".lease")).count();
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // a typo in a reserved name: named with the name meant, not as a missing sequence
        "time=41,worker=10,sequnce=12|layout.sequnce = 12 is invalid; allowed: time, sequence,",
        // a typo in "epoch": named as such, not as a field without a width
        "time=41,worker=10,sequence=12,epoc=0|layout.epoc = 0 is invalid; allowed: time, sequence,",
        // a field's own mistake before the missing epoch
        "time=41,worker=x,sequence=12|layout.worker = x is invalid; allowed: a bit width",
        // and with only the epoch missing, that is what is named
        "time=41,worker=10,sequence=12|layout.epoch = missing"
      })
  void layout_specWithoutEpoch_namesItsFirstRealMistake(String spec, String named) {
    Cli r = Cli.run("layout", "--layout", spec);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().startsWith("snowid: " + named);
  }

  @Test
  void decode_tenThousandCharacterInput_echoesItCutOnOneShortLine() {
    String huge = "1".repeat(10_000);

    Cli r = Cli.run("decode", huge);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().hasSizeLessThan(400).contains("10000");
  }

  @Test
  void generate_staticFieldGivenTwice_isRefusedNamingIt() {
    Cli r = Cli.run("generate", "--layout", "westid", "--node", "static:worker=1,worker=2");

    assertBadInput(
        r,
        "snowid: node worker = 2 is invalid; allowed: one value per field (worker is given twice)");
  }
}
