package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The example in {@link DecodedId#toString()}'s Javadoc names the time and fields the ID has: the
 * Javadoc is read from the source and its example decoded.
 */
class DecodedIdDocTest {
  @Test
  void toString_javadocExample_isWhatTheTwitterLayoutPrints() throws Exception {
    String source =
        Files.readString(
            Paths.get("src/main/java/io/snowid/DecodedId.java"), StandardCharsets.UTF_8);
    String javadoc = source.substring(0, source.indexOf("public String toString()"));
    javadoc = javadoc.substring(javadoc.lastIndexOf("/**")).replaceAll("\\s*\\n\\s*\\*\\s*", " ");
    Matcher example = Pattern.compile("\\{@code ([0-9]+ = [^}]+)}").matcher(javadoc);

    assertThat(example.find()).as("an example in: %s", javadoc).isTrue();
    String documented = example.group(1).trim();
    long id = Long.parseLong(documented.substring(0, documented.indexOf(' ')));
    assertThat(Layout.twitter().decode(id).toString()).isEqualTo(documented);
  }
}
