package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs test fails for each kind of bad example, naming its file and line, and lists every
 * failure, not only the first (on made-up Markdown files).
 */
@Tag("integration")
class DocExamplesHarnessTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @TempDir Path dir;

  private List<DocBlock> blocks(String markdown) throws Exception {
    Path md = dir.resolve("doc.md");
    Files.writeString(md, markdown);
    return DocBlock.parse(dir, md);
  }

  /**
   * A Quick start-like Java example with two node sources: SnowId's lease directory and another.
   */
  private static final String MIXED_SOURCES =
      """
      <!-- test: "/var/lib/snowid" -> "{tmp}" -->
      ```java
      import io.snowid.DecodedId;
      import io.snowid.SnowId;
      import io.snowid.Snowflake;

      long id = SnowId.next();                       // zero configuration
      DecodedId d = SnowId.decode(id);               // instant, node fields, sequence
      String s = SnowId.nextString("base62");        // 11 characters, sorts like the number

      try (Snowflake gen = Snowflake.builder()       // your own generator
              .layout("twitter")
              .nodeSource("file:/var/lib/snowid")    // or static:worker=3,datacenter=1, redis://…,
                                                     // jdbc:postgresql://…
              .build()) {
        long next = gen.nextId();
      }
      ```
      """;

  @Test
  void javaBlocks_eachFailureNamedWithItsLine_theGoodBlocksPass() throws Exception {
    List<DocBlock> blocks =
        blocks(
            MIXED_SOURCES
                + """

                ```java
                import io.snowid.Snowflake;

                try (Snowflake g = Snowflake.builder().node("datacenter", 1).node("worker", 2).build()) {
                  g.nextId();
                }
                ```

                ```java
                int x = "not a number";
                ```

                ```java
                String s = "a";
                if (!s.isEmpty()) {
                  throw new IllegalStateException("boom");
                }
                ```

                ```java
                Thread t = new Thread(() -> java.util.concurrent.locks.LockSupport.park(), "left-running");
                t.start();
                ```

                ```java
                Snowflake g = Snowflake.builder().build();
                ```

                <!-- illustrative: a sketch -->
                ```java
                class MyCoordinator { … }
                ```

                <!-- illustrative -->
                <!-- test: "nowhere" -> "{tmp}" -->
                ```java
                long x = 1;
                ```
                """);

    List<String> failures = DocExamplesTest.runJava(blocks, dir.resolve("work"), TIMEOUT);

    assertThat(failures)
        .as(DocExamplesTest.report(failures))
        .hasSize(8)
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:2: the example takes node values from 2 sources")
                    .contains(DocNodeSources.FACADE, "\"file:/var/lib/snowid\""))
        .anySatisfy(
            f -> assertThat(f).startsWith("doc.md:29: does not compile: incompatible types"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:35: exited 1: ")
                    .contains("IllegalStateException: boom")
                    .contains("at doc.doc_md_l32.Example.main(Example.java:6)"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:39: did not end within 5 s")
                    .contains("left-running"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:45: does not compile: cannot find symbol")
                    .contains("class Snowflake"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:45: does not compile: cannot find symbol")
                    .contains("variable Snowflake"))
        .anySatisfy(
            f -> assertThat(f).startsWith("doc.md:55: <!-- illustrative --> needs its reason"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:55: the rewrite \"nowhere\" matches nothing in the block"));
  }

  @Test
  void shellBlocks_eachFailureNamedWithItsLine_theGoodLinesPass() throws Exception {
    List<DocBlock> blocks =
        blocks(
            """
            ```sh
            ./snowid decode 1541815603606036480    # a comment
            ./snowid decode not-an-id
            ./mvnw -B verify
            ```

            <!-- test: exit 2: `./snowid decode not-an-id` refused -->
            <!-- test: skip `./mvnw` the build -->
            ```sh
            ./snowid decode not-an-id
            ./mvnw -B verify
            ```

            ```
            $ curl localhost:8080/health
            {"status":"UP"}
            $ curl localhost:8080/nowhere
            $ curl -i 'localhost:8080/ids?count=0'
            HTTP/1.1 400 Bad Request
            $ curl -i 'localhost:8080/ids?count=1'
            HTTP/1.1 400 Bad Request
            ```

            ```sh
            # only a comment
            ```

            ```
            not a transcript: not run
            ```

            <!-- test: skip `./mvnw` -->
            ```sh
            ./snowid layout
            ```
            """);

    List<String> failures = DocExamplesTest.runShell(blocks, dir.resolve("work"), TIMEOUT);

    assertThat(failures)
        .as(DocExamplesTest.report(failures))
        .hasSize(6)
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:3: `./snowid decode not-an-id` exited 2 (expected 0): "))
        .anySatisfy(f -> assertThat(f).startsWith("doc.md:4: `./mvnw -B verify` is not run"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .isEqualTo(
                        "doc.md:17: `curl localhost:8080/nowhere` answered HTTP 404"
                            + " (expected 2xx)"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .isEqualTo(
                        "doc.md:20: `curl -i 'localhost:8080/ids?count=1'` answered HTTP"
                            + " 200 (expected 400)"))
        .anySatisfy(
            f ->
                assertThat(f)
                    .startsWith("doc.md:24: nothing in this block runs: mark it <!-- illustrative"))
        .anySatisfy(f -> assertThat(f).startsWith("doc.md:33: unknown marker <!-- test: skip"));
  }
}
