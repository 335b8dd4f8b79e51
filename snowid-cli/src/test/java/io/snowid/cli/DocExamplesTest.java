package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example in README.md and docs/*.md runs, so the docs cannot teach code that does not
 * compile or throws, a command that fails, or a program with two node sources (which can issue
 * duplicates).
 *
 * <p><b>The convention</b>, for fenced code blocks:
 *
 * <ul>
 *   <li>{@code java}: compiled against snowid-cli's test class path (core, server, redis, jdbc and
 *       the PostgreSQL and MariaDB drivers) and run in a JVM of its own ({@link DocJavaExamples}).
 *       Statements become the body of a {@code main}; their {@code import} lines are kept, and no
 *       other import is added: a block shows what it imports. A block that declares a type is a
 *       source file, run if it has a {@code main}. A block takes its node values from one source
 *       ({@link DocNodeSources}).
 *   <li>{@code sh}, {@code bash}, {@code shell}: every command line that starts with {@code
 *       ./snowid} or {@code curl} runs; {@code console} and unlabelled blocks: the lines that start
 *       with {@code $ ./snowid} or {@code $ curl} ({@link DocShellExamples}). Exit code 0, unless a
 *       marker documents another.
 *   <li>{@code sql}: executed on the local PostgreSQL (database {@code test}), before the Java and
 *       shell blocks, which may need its tables.
 *   <li>Other blocks (xml, properties, json, unlabelled text) are not code and are not run.
 * </ul>
 *
 * <p><b>Markers</b>: HTML comments on the lines just before a fence, one per line.
 *
 * <ul>
 *   <li>{@code <!-- illustrative: why -->}: the block is not run (a build, a unit file, a class
 *       that needs a framework the test class path does not have, a sketch). Keep them few.
 *   <li>{@code <!-- test: "FROM" -> "TO" -->}: the block runs with FROM replaced by TO; {@code
 *       {tmp}} in TO is a new empty directory of the block's own. For a path or a host the test
 *       cannot use as written ({@code /var/lib/snowid}, {@code redis.internal}).
 *   <li>{@code <!-- test: given STATEMENT -->}: a Java statement placed before the block's
 *       statements, for a name the block assumes ({@code dataSource}).
 *   <li>{@code <!-- test: skip `PREFIX` why -->}: the block's commands that start with PREFIX are
 *       not run ({@code ./mvnw}: the build).
 *   <li>{@code <!-- test: exit N: `PREFIX` -->}: commands that start with PREFIX are documented to
 *       exit with N.
 * </ul>
 *
 * <p>A shell command that is neither {@code ./snowid} nor {@code curl} nor skipped fails the test,
 * as does a shell block in which nothing runs and a marker that cannot be read. Every failure is
 * listed with its file and line.
 */
@Tag("integration")
class DocExamplesTest {
  static final Path REPO = Path.of("").toAbsolutePath().getParent();
  static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path work;

  /** The fenced blocks of README.md and docs/*.md, in file order. */
  static List<DocBlock> docs() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(REPO.resolve("README.md"));
    try (Stream<Path> docs = Files.list(REPO.resolve("docs"))) {
      docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<DocBlock> blocks = new ArrayList<>();
    for (Path f : files) {
      blocks.addAll(DocBlock.parse(REPO, f));
    }
    return blocks;
  }

  @Test
  void javaBlocks_compileAndRunWithOneNodeSourceEach() throws Exception {
    List<String> failures = runJava(docs(), work, TIMEOUT);

    assertThat(failures).as(report(failures)).isEmpty();
  }

  @Test
  void shellBlocks_snowidAndCurlLinesExitAsDocumented() throws Exception {
    List<String> failures = runShell(docs(), work, TIMEOUT);

    assertThat(failures).as(report(failures)).isEmpty();
  }

  /** Runs the sql blocks, then the java blocks; every failure. */
  static List<String> runJava(List<DocBlock> blocks, Path work, Duration timeout)
      throws IOException, InterruptedException {
    List<String> failures = new ArrayList<>(runSql(blocks));
    DocJavaExamples java = new DocJavaExamples(work, timeout);
    int ran = 0;
    for (DocBlock b : blocks) {
      failures.addAll(problems(b, "java"));
      if (b.lang().equals("java") && b.illustrative() == null) {
        failures.addAll(java.run(b));
        ran++;
      }
    }
    assertThat(ran).as("java blocks run").isPositive();
    return failures;
  }

  /** Runs the sql blocks, then the shell blocks; every failure. */
  static List<String> runShell(List<DocBlock> blocks, Path work, Duration timeout)
      throws IOException, InterruptedException {
    List<String> failures = new ArrayList<>(runSql(blocks));
    try (DocShellExamples shell = new DocShellExamples(work, timeout)) {
      int ran = 0;
      for (DocBlock b : blocks) {
        if (DocShellExamples.isShell(b)) {
          failures.addAll(problems(b, b.lang()));
        }
        if (DocShellExamples.isShell(b) && b.illustrative() == null) {
          failures.addAll(shell.run(b));
          ran++;
        }
      }
      shell.finish().ifPresent(failures::add);
      assertThat(ran).as("shell blocks run").isPositive();
    }
    return failures;
  }

  /** The unreadable markers of {@code b}, if it is a block of {@code lang}. */
  private static List<String> problems(DocBlock b, String lang) {
    if (!b.lang().equals(lang)) {
      return List.of();
    }
    return b.problems().stream().map(p -> b.file() + ":" + b.line() + ": " + p).toList();
  }

  /** Executes the sql blocks on PostgreSQL's test database; their failures. */
  private static List<String> runSql(List<DocBlock> blocks) {
    List<String> failures = new ArrayList<>();
    for (DocBlock b : blocks) {
      failures.addAll(problems(b, "sql"));
      if (!b.lang().equals("sql") || b.illustrative() != null) {
        continue;
      }
      try (Connection c = DriverManager.getConnection(POSTGRES);
          Statement s = c.createStatement()) {
        s.execute(String.join("\n", b.lines()));
      } catch (SQLException e) {
        failures.add(b.file() + ":" + b.line() + ": fails on PostgreSQL: " + e.getMessage());
      }
    }
    return failures;
  }

  static String report(List<String> failures) {
    return failures.size() + " failing example(s):\n" + String.join("\n", failures);
  }
}
