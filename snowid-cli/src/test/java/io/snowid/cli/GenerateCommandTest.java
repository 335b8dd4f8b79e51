package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.codec.IdCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GenerateCommandTest {
  private static final String NODE = "static:worker=3,datacenter=1";

  @TempDir Path leases;

  @Test
  void generate_n5_printsFiveIncreasingDecimalIdsOfThisNode() {
    Cli r = Cli.run("generate", "-n", "5", "--node", NODE);

    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    List<String> lines = r.outLines();
    assertThat(lines).hasSize(5).allMatch(s -> s.matches("[1-9][0-9]*"));
    long previous = 0;
    for (String line : lines) {
      long id = Long.parseLong(line);
      assertThat(id).isGreaterThan(previous);
      assertThat(Layout.twitter().decode(id).fields())
          .containsEntry("worker", 3L)
          .containsEntry("datacenter", 1L);
      previous = id;
    }
  }

  @Test
  void generate_noCount_printsOneId() {
    assertThat(Cli.run("generate", "--node", NODE).outLines()).hasSize(1);
  }

  @Test
  void generate_formatAndLayout_printsThatFormOfThatLayout() {
    Cli r =
        Cli.run(
            "generate",
            "-n",
            "3",
            "--format",
            "base62",
            "--layout",
            "westid",
            "--node",
            "static:worker=1000");

    assertThat(r.exit()).isZero();
    for (String line : r.outLines()) {
      assertThat(line).hasSize(11);
      assertThat(Layout.preset("westid").decode(IdCodec.BASE62.decode(line)).fields())
          .containsEntry("worker", 1000L);
    }
  }

  @Test
  void generate_twoConcurrentRunsOnOneLeaseDirectory_neverCollide() {
    String node = "file:" + leases;
    CompletableFuture<Cli> a = CompletableFuture.supplyAsync(() -> gen(node));
    CompletableFuture<Cli> b = CompletableFuture.supplyAsync(() -> gen(node));

    List<String> all = new ArrayList<>(a.join().outLines());
    all.addAll(b.join().outLines());

    assertThat(a.join().exit()).isZero();
    assertThat(b.join().exit()).isZero();
    assertThat(all).hasSize(40_000).doesNotHaveDuplicates();
  }

  @Test
  void generate_freshLeaseDirectory_saysInOneStderrLineHowLongAndWhyItWaits() {
    Cli first = Cli.run("generate", "-n", "2", "--node", "file:" + leases + "?ttl=2s");

    assertThat(first.exit()).isZero();
    assertThat(first.outLines()).hasSize(2);
    assertThat(first.errLines()).hasSize(1);
    assertThat(first.err())
        .matches(
            "snowid: waiting [12](\\.[0-9])?s: the first ID waits until 20[0-9-]+T[0-9:.]+Z: node id [0-9]+"
                + " has no readable lease record here .*one lease time \\(2s\\).*\\R")
        .contains("docs/node-ids.md#why-the-first-id-may-wait");

    // a restart takes its released id back at once: nothing to wait for, nothing said
    Cli again = Cli.run("generate", "-n", "2", "--node", "file:" + leases + "?ttl=2s");
    assertThat(again.exit()).isZero();
    assertThat(again.err()).isEmpty();
  }

  private static Cli gen(String node) {
    return Cli.run("generate", "-n", "20000", "--node", node);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "-n 0",
        "-n -3",
        "-n 10000001",
        "-n abc",
        "--format base99",
        "--layout nope",
        "--layout time=41,sequence=12,epoch=2999-01-01T00:00:00Z",
        "--node static:worker=99,datacenter=1",
        "--node static:bogus",
        "--node gopher://x",
        "--nope",
        "extra-argument"
      })
  void generate_badInput_exits2WithOneLineOnStderrAndNoOutput(String args) {
    List<String> argv = new ArrayList<>(List.of("generate", "--node", NODE));
    argv.addAll(List.of(args.split(" ")));

    Cli r = Cli.run(argv.toArray(String[]::new));

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).startsWith("snowid: ").doesNotContain("\tat ");
  }

  /** Bad input, exit 2 naming the field: not "snowid: NullPointerException", exit 1. */
  @Test
  void generate_fileFieldsLeavingTheDatacenterWithoutValue_exits2NamingIt() {
    Cli r = Cli.run("generate", "--node", "file:" + leases + "?fields=worker");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .startsWith("snowid: fields = file:" + leases + "?fields=worker is invalid")
        .endsWith("datacenter has none (add it to fields=, or set snowid.datacenter-id)");
  }

  @Test
  void generate_badCount_namesTheSettingAndRange() {
    assertThat(Cli.run("generate", "-n", "0", "--node", NODE).err())
        .isEqualTo("snowid: count = 0 is invalid; allowed: 1..10000000\n");
  }

  @Test
  void generate_badInputWithVerbose_printsTheStackTrace() {
    Cli r = Cli.run("generate", "--format", "base99", "--verbose", "--node", NODE);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines().get(0)).startsWith("snowid: format = base99 is invalid");
    assertThat(r.err()).contains("\tat io.snowid.cli.GenerateCommand.call");
  }

  @Test
  void generate_int32_printsPositive32BitIdsOfThisWorker() {
    Cli r = Cli.run("generate", "-n", "100", "--layout", "int32", "--node", "static:worker=4");

    assertThat(r.exit()).isZero();
    List<Long> ids = r.outLines().stream().map(Long::parseLong).toList();
    assertThat(ids)
        .hasSize(100)
        .doesNotHaveDuplicates()
        .allMatch(id -> id > 0 && id <= Integer.MAX_VALUE);
    assertThat(ids).allMatch(id -> ((id >>> 5) & 31) == 4);
  }
}
