package io.snowid.spring.boot.mybatis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Java blocks of docs/mybatis-plus.md are code that tests run: snowid-cli's docs test cannot
 * compile them (MyBatis-Plus and Spring are not on its class path, so they are marked
 * illustrative), so each must be found, line for line, in a test source of this module or of
 * snowid-mybatis-plus. A line {@code // …} in a block skips lines of the source; blank lines and
 * indentation do not count.
 */
class MybatisPlusDocTest {
  private static final Path REPO = Path.of("").toAbsolutePath().getParent();
  private static final String ELISION = "// …";

  @Test
  void everyJavaBlock_isInATestThatRuns() throws IOException {
    List<List<String>> sources = new ArrayList<>();
    for (Path dir :
        List.of(
            REPO.resolve("snowid-spring-boot-starter/src/test/java"),
            REPO.resolve("snowid-mybatis-plus/src/test/java"))) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          sources.add(codeLines(Files.readAllLines(f)));
        }
      }
    }
    List<List<String>> blocks =
        javaBlocks(Files.readAllLines(REPO.resolve("docs/mybatis-plus.md")));

    assertThat(blocks).hasSizeGreaterThanOrEqualTo(4);
    for (List<String> block : blocks) {
      assertThat(sources)
          .as("a test source with these lines, in this order:%n%s", String.join("\n", block))
          .anyMatch(source -> contains(source, block));
    }
  }

  /** The non-blank lines of each {@code java} block, stripped. */
  private static List<List<String>> javaBlocks(List<String> markdown) {
    List<List<String>> blocks = new ArrayList<>();
    List<String> block = null;
    for (String line : markdown) {
      if (block == null && line.strip().equals("```java")) {
        block = new ArrayList<>();
      } else if (block != null && line.strip().equals("```")) {
        blocks.add(block);
        block = null;
      } else if (block != null && !line.isBlank()) {
        block.add(line.strip());
      }
    }
    return blocks;
  }

  private static List<String> codeLines(List<String> source) {
    return source.stream().filter(l -> !l.isBlank()).map(String::strip).toList();
  }

  /**
   * Whether the runs of {@code block} between its {@code // …} lines are each consecutive lines of
   * {@code source}, in order.
   */
  private static boolean contains(List<String> source, List<String> block) {
    int from = 0;
    List<String> run = new ArrayList<>();
    for (String line : block) {
      if (line.equals(ELISION)) {
        from = find(source, run, from);
        if (from < 0) {
          return false;
        }
        run.clear();
      } else {
        run.add(line);
      }
    }
    return find(source, run, from) >= 0;
  }

  /**
   * The index after the first occurrence of {@code run} in {@code source} at or after {@code from};
   * -1 if none.
   */
  private static int find(List<String> source, List<String> run, int from) {
    if (run.isEmpty()) {
      return from;
    }
    for (int i = from; i + run.size() <= source.size(); i++) {
      if (source.subList(i, i + run.size()).equals(run)) {
        return i + run.size();
      }
    }
    return -1;
  }
}
