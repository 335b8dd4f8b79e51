package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An operator sees who holds which node id ({@code snowid leases}) and frees the id of a holder
 * that is gone ({@code snowid leases release}), never a live one's. The holder is a real {@code
 * snowid serve} process, killed with SIGKILL.
 */
class LeasesCommandTest {
  private static final Pattern HIGH_WATER = Pattern.compile("\"highWater\":\"([^\"]+)\"");

  @TempDir Path dir;

  /**
   * A network coordinator records the namespace's limits and newest write (docs/design.md, "A
   * registry that lost its state"): the listing shows them, in the table and in JSON.
   */
  @Tag("integration")
  @Test
  void leases_onRedis_showsTheNamespacesLimitsAndNewestWrite() {
    String node =
        "redis://127.0.0.1:6379?prefix=snowid-test-leases-"
            + System.nanoTime()
            + "&namespace=ops&ttl=1s&maxTtl=1s&skew=500ms&maxSkew=500ms";
    try (io.snowid.Snowflake ids = io.snowid.Snowflake.builder().nodeSource(node).build()) {
      ids.nextId(); // a new prefix: after maxTtl + 2 × maxSkew + 1 s

      Cli table = Cli.run("leases", "--node", node);
      Cli json = Cli.run("leases", "--node", node, "--json");

      assertThat(table.exit()).as(table.err()).isZero();
      assertThat(table.out())
          .contains("limits       maxTtl 1s, maxSkew 500ms")
          .containsPattern("newest write 20\\d\\d-");
      assertThat(json.out())
          .contains("\"limits\":{\"maxTtl\":\"1s\",\"maxSkew\":\"500ms\"},\"newestWrite\":\"20");
    }
  }

  /** A lease directory records them too, in the namespace's terms and marks file. */
  @Test
  void leases_onALeaseDirectory_showsTheNamespacesLimitsAndNewestWrite() {
    String node =
        "file:" + dir.resolve("leases") + "?namespace=ops&ttl=1s&maxTtl=2s&skew=0s&maxSkew=0s";
    try (io.snowid.Snowflake ids = io.snowid.Snowflake.builder().nodeSource(node).build()) {
      Cli table = Cli.run("leases", "--node", node);

      assertThat(table.exit()).as(table.err()).isZero();
      assertThat(table.out())
          .contains("limits       maxTtl 2s, maxSkew 0s")
          .containsPattern("newest write 20\\d\\d-");
    }
  }

  @Tag("integration")
  @Test
  void leases_liveHolderThenKilled_listsItAndReleasesItsIdOnlyOnceItIsGone() throws Exception {
    String node = "file:" + dir.resolve("leases") + "?namespace=ops";
    ServeProcess serve = ServeProcess.start(dir, "--node", node);
    try {
      String health = get(serve, "health");
      Matcher values = Pattern.compile("\"values\":(\\{[^}]*})").matcher(health);
      assertThat(values.find()).as(health).isTrue();
      // the node id is the packed node value: datacenter * 32 + worker in twitter's layout
      Matcher dc = Pattern.compile("\"datacenter\":(\\d+)").matcher(values.group(1));
      Matcher wk = Pattern.compile("\"worker\":(\\d+)").matcher(values.group(1));
      assertThat(dc.find() && wk.find()).as(health).isTrue();
      String id = Long.toString(Long.parseLong(dc.group(1)) * 32 + Long.parseLong(wk.group(1)));

      Cli table = Cli.run("leases", "--node", node);
      Cli json = Cli.run("leases", "--node", node, "--json");

      assertThat(table.exit()).isZero();
      assertThat(table.out())
          .contains("namespace    ops.t41-n10-s12-e1288834974657-u1")
          .contains("NODE ID  DATACENTER  WORKER  INSTANCE")
          .containsPattern(
              "\\n" + id + " +[0-9]+ +0 +\\S+:io\\.snowid\\.cli\\.SnowIdCommand +\\S+ +HELD ");
      assertThat(json.exit()).isZero();
      assertThat(json.out())
          .startsWith("{\"namespace\":\"ops.t41-n10-s12-e1288834974657-u1")
          .contains("\"leases\":[{\"nodeId\":" + id + ",\"values\":" + values.group(1) + ",")
          .contains("\"state\":\"HELD\"");

      Cli refused = Cli.run("leases", "release", "--node", node, id);

      assertThat(refused.exit()).isEqualTo(2);
      assertThat(refused.out()).isEmpty();
      assertThat(refused.errLines())
          .singleElement()
          .asString()
          .startsWith("snowid: node id " + id + " ")
          .contains("not released: its lease file is locked by a live process")
          .contains("io.snowid.cli.SnowIdCommand");
      assertThat(Cli.run("leases", "--node", node).out()).contains(" HELD ");

      serve.process.destroyForcibly(); // SIGKILL: no release
      assertThat(serve.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String beforeRelease = Cli.run("leases", "--node", node, "--json").out();
      assertThat(beforeRelease).contains("\"state\":\"EXPIRED\"");

      Cli released = Cli.run("leases", "release", "--node", node, id);

      assertThat(released.exit()).isZero();
      assertThat(released.err()).isEmpty();
      assertThat(released.out()).startsWith("released node id " + id + " ").contains("is kept");
      String after = Cli.run("leases", "--node", node, "--json").out();
      assertThat(after).contains("\"state\":\"RELEASED\"").contains("\"expiresAt\":null");
      assertThat(highWater(after)).isEqualTo(highWater(beforeRelease));
      Cli again = Cli.run("leases", "release", "--node", node, id);
      assertThat(again.exit()).isZero();
      assertThat(again.out()).contains("is released already");
    } finally {
      serve.close();
    }
  }

  private static String highWater(String json) {
    Matcher m = HIGH_WATER.matcher(json);
    assertThat(m.find()).as(json).isTrue();
    return m.group(1);
  }

  private static String get(ServeProcess serve, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(serve.base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void leases_emptyNamespace_saysSoAndCreatesNothing() throws Exception {
    Cli r = Cli.run("leases", "--node", "file:" + dir + "?namespace=nobody", "--layout", "westid");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("namespace    nobody.")
        .contains("no node id of this namespace has a record");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("nobody"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"auto", "static:worker=1,datacenter=1"})
  void leases_nodeWithoutLeases_exits2WithOneLine(String node) {
    Cli r = Cli.run("leases", "--node", node);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().contains("a lease coordinator URI");
  }

  @ParameterizedTest
  @ValueSource(strings = {"32", "-1", "x"})
  void leasesRelease_idOutsideTheNamespace_exits2NamingTheRange(String id) {
    Cli r = Cli.run("leases", "release", "--node", "file:" + dir, "--layout", "js53", id);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .isEqualTo("snowid: id = " + id + " is invalid; allowed: 0..31");
  }
}
