package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Help, version, completion and the error contract shared by all commands. */
class CommandLineTest {

  @Test
  void version_printsTheProjectVersion() {
    Cli r = Cli.run("--version");

    assertThat(r.exit()).isZero();
    assertThat(r.outLines().get(0)).matches("snowid [0-9]+\\.[0-9]+\\.[0-9]+.*");
  }

  @Test
  void help_listsEveryCommand() {
    Cli r = Cli.run("--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("generate")
        .contains("decode")
        .contains("layout")
        .contains("serve")
        .contains("bench")
        .contains("leases")
        .contains("generate-completion");
  }

  @ParameterizedTest
  @ValueSource(strings = {"generate", "decode", "layout", "leases", "serve", "bench"})
  void commandHelp_namesTheEnvironmentVariables(String command) {
    Cli r = Cli.run(command, "--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("SNOWID_LAYOUT");
  }

  @Test
  void serveHelp_namesEveryServiceVariable() {
    assertThat(Cli.run("serve", "--help").out())
        .contains("SNOWID_BIND")
        .contains("SNOWID_PORT")
        .contains("SNOWID_NODE")
        .contains("SNOWID_TOKEN")
        .contains("SNOWID_STOP_TIMEOUT")
        .contains("default 127.0.0.1")
        .doesNotContain("--hello");
  }

  @Test
  void completion_printsABashScriptForSnowid() {
    Cli r = Cli.run("generate-completion");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("complete -F").contains("snowid").contains("decode");
  }

  @Test
  void noCommand_printsUsage() {
    Cli r = Cli.run();

    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("Usage: snowid");
  }

  @ParameterizedTest
  @ValueSource(strings = {"frobnicate", "--bogus", "-x"})
  void unknownCommandOrOption_exits2WithOneLine(String arg) {
    Cli r = Cli.run(arg);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).startsWith("snowid: ");
  }

  // An unknown command lists the commands, not only "Unmatched argument at index 0".
  @Test
  void unknownCommand_listsTheCommandsOnOneLine() {
    Cli r = Cli.run("frobnicate");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "snowid: unknown command 'frobnicate'; the commands are generate, decode, layout, range,"
                + " leases, serve, bench, generate-completion (see snowid --help)");
  }

  @Test
  void unknownSubcommand_listsThatCommandsSubcommands() {
    Cli r = Cli.run("leases", "frobnicate");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "snowid: unknown command 'frobnicate' of snowid leases; the commands are release (see"
                + " snowid leases --help)");
  }
}
