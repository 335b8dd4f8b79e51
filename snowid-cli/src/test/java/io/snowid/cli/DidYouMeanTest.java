package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A misspelt option or command of any command is bad input (exit 2, one line on stderr, nothing on
 * stdout) that names what the user most likely meant; an unknown one without a near miss is still
 * refused, naming what there is.
 */
class DidYouMeanTest {

  private static void assertBadInput(String args, String line) {
    Cli r = Cli.run(args.split(" "));
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).containsExactly(line);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "generate --cout 5|snowid: unknown option '--cout' of snowid generate; did you mean"
            + " --count? (see snowid generate --help)",
        "generate --cout=5|snowid: unknown option '--cout' of snowid generate; did you mean"
            + " --count? (see snowid generate --help)",
        "generate --fromat hex|snowid: unknown option '--fromat' of snowid generate; did you mean"
            + " --format? (see snowid generate --help)",
        "generate --verbos|snowid: unknown option '--verbos' of snowid generate; did you mean"
            + " --verbose? (see snowid generate --help)",
        "decode --jsn 1|snowid: unknown option '--jsn' of snowid decode; did you mean --json?"
            + " (see snowid decode --help)",
        "layout --layuot js53|snowid: unknown option '--layuot' of snowid layout; did you mean"
            + " --layout? (see snowid layout --help)",
        "leases --nod file:/tmp/x|snowid: unknown option '--nod' of snowid leases; did you mean"
            + " --node? (see snowid leases --help)",
        "leases release --nod file:/tmp/x 3|snowid: unknown option '--nod' of snowid leases"
            + " release; did you mean --node? (see snowid leases release --help)",
        "serve --prot 8080|snowid: unknown option '--prot' of snowid serve; did you mean --port?"
            + " (see snowid serve --help)",
        "serve --max-conections 5|snowid: unknown option '--max-conections' of snowid serve; did"
            + " you mean --max-connections? (see snowid serve --help)",
        "bench --thread 2|snowid: unknown option '--thread' of snowid bench; did you mean"
            + " --threads? (see snowid bench --help)",
        "generate-completion --hlep|snowid: unknown option '--hlep' of snowid generate-completion;"
            + " did you mean --help? (see snowid generate-completion --help)",
        "--verison|snowid: unknown option '--verison'; did you mean --version? (see snowid"
            + " --help)",
      })
  void aMisspeltOption_namesTheOptionMeant(String args, String line) {
    assertBadInput(args, line);
  }

  @Test
  void anUnknownOptionWithoutANearMiss_namesTheOptionsThereAre() {
    assertBadInput(
        "bench --xyz",
        "snowid: unknown option '--xyz' of snowid bench; the options are --help, --layout,"
            + " --progress, --seconds, --threads, --verbose, --version (see snowid bench --help)");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "genrate|snowid: unknown command 'genrate'; did you mean generate? (see snowid --help)",
        "decod 1|snowid: unknown command 'decod'; did you mean decode? (see snowid --help)",
        "layuot|snowid: unknown command 'layuot'; did you mean layout? (see snowid --help)",
        "lease|snowid: unknown command 'lease'; did you mean leases? (see snowid --help)",
        "srve|snowid: unknown command 'srve'; did you mean serve? (see snowid --help)",
        "bnech|snowid: unknown command 'bnech'; did you mean bench? (see snowid --help)",
        "leases relase 3|snowid: unknown command 'relase' of snowid leases; did you mean release?"
            + " (see snowid leases --help)",
      })
  void aMisspeltCommand_namesTheCommandMeant(String args, String line) {
    assertBadInput(args, line);
  }

  @Test
  void anUnknownCommandWithoutANearMiss_namesTheCommandsThereAre() {
    assertBadInput(
        "frobnicate",
        "snowid: unknown command 'frobnicate'; the commands are generate, decode, layout, range,"
            + " leases, serve, bench, generate-completion (see snowid --help)");
  }
}
