package io.snowid.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.junit.jupiter.api.Test;

/**
 * docs/shardingsphere.md shows what the tests run: its YAML blocks are test resources, verbatim
 * (the files {@link ShardedInsertProcessTest} loads), its table lists the generator's properties,
 * and the error it shows is the one a misspelt {@code node} gets.
 */
class DocPageTest {
  private static final Path PAGE =
      Path.of("").toAbsolutePath().getParent().resolve("docs/shardingsphere.md");
  private static final Pattern FENCE =
      Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```$", Pattern.DOTALL);
  private static final Pattern PROPERTY_ROW = Pattern.compile("(?m)^\\| `([^`]+)` \\|");

  private static List<String> blocks(String lang) throws IOException {
    Matcher m = FENCE.matcher(Files.readString(PAGE));
    List<String> out = new ArrayList<>();
    while (m.find()) {
      if (m.group(1).equals(lang)) {
        out.add(m.group(2));
      }
    }
    return out;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = DocPageTest.class.getResourceAsStream("/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void yamlBlocks_areTheConfigurationsTheProcessTestLoads() throws IOException {
    List<String> expected =
        List.of(
            resource("shardingsphere-postgresql.yaml"), resource("shardingsphere-mariadb.yaml"));

    assertThat(blocks("yaml")).containsExactlyElementsOf(expected);
  }

  @Test
  void propertiesTable_listsEveryPropertyOfTheGenerator() throws IOException {
    Matcher m = PROPERTY_ROW.matcher(Files.readString(PAGE));
    List<String> rows = new ArrayList<>();
    while (m.find()) {
      rows.add(m.group(1));
    }

    assertThat(rows).containsExactlyInAnyOrderElementsOf(Settings.NAMES);
  }

  @Test
  void errorShown_isTheOneAMisspeltNodeGets() throws IOException {
    Properties props = new Properties();
    props.setProperty("nod", "static:worker=1");
    Throwable e =
        catchThrowable(
            () -> TypedSPILoader.getService(KeyGenerateAlgorithm.class, "SNOWID", props));
    String shown =
        blocks("").stream()
            .filter(b -> b.startsWith("Algorithm "))
            .findFirst()
            .orElseThrow()
            .strip()
            .replace("\n", " ");

    assertThat(shown).isEqualTo(e.getMessage());
  }
}
