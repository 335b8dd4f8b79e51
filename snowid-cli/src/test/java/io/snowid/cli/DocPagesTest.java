package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README stays a page a newcomer reads in minutes, every docs/ page is one click from it, and
 * no link in README.md or docs/*.md leads to a missing file or heading.
 */
class DocPagesTest {
  private static final Path REPO = Path.of("").toAbsolutePath().getParent();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern CELL = Pattern.compile("\\|");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

  @Test
  void readme_fitsOnAPageAndStartsWithTheQuickStart() throws IOException {
    List<String> lines = Files.readAllLines(REPO.resolve("README.md"));

    assertThat(lines.size()).as("README.md lines").isLessThanOrEqualTo(250);
    assertThat(lines.get(0)).isEqualTo("# snowid");
    assertThat(lines.stream().filter(l -> l.startsWith("## ")).findFirst())
        .hasValue("## Quick start");
    List<String> longCells = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("|")) {
        for (String cell : CELL.split(line, -1)) {
          if (cell.strip().length() > 200) {
            longCells.add(cell.strip());
          }
        }
      }
    }
    assertThat(longCells).as("README table cells over 200 characters").isEmpty();
  }

  @Test
  void everyDocsPage_isLinkedFromTheReadme() throws IOException {
    String readme = Files.readString(REPO.resolve("README.md"));

    for (Path page : pages()) {
      if (!page.getFileName().toString().equals("README.md")) {
        assertThat(readme).contains("](" + REPO.relativize(page) + ")");
      }
    }
  }

  @Test
  void everyRelativeLink_leadsToAFileAndHeadingThatExist() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : pages()) {
      for (String target : links(page)) {
        if (target.matches("^[a-z]+:.*")) {
          continue; // https:, mailto:
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(REPO.relativize(page) + ": " + target + " (no such file)");
        } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
          broken.add(REPO.relativize(page) + ": " + target + " (no such heading)");
        }
      }
    }

    assertThat(broken).isEmpty();
  }

  @Test
  void anchors_areGitHubsHeadingIds() {
    assertThat(slug("The lease directory (`file:`)")).isEqualTo("the-lease-directory-file");
    assertThat(slug("On PostgreSQL (or MariaDB/MySQL, H2)"))
        .isEqualTo("on-postgresql-or-mariadbmysql-h2");
    assertThat(slug("JPA / Hibernate")).isEqualTo("jpa--hibernate");
    assertThat(slug("4. The lease")).isEqualTo("4-the-lease");
  }

  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(REPO.resolve("README.md")));
    try (Stream<Path> docs = Files.list(REPO.resolve("docs"))) {
      docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** Link targets outside fenced code blocks. */
  private static List<String> links(Path page) throws IOException {
    List<String> out = new ArrayList<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(page)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        Matcher m = LINK.matcher(line);
        while (m.find()) {
          out.add(m.group(1));
        }
      }
    }
    return out;
  }

  /** The ids GitHub gives the headings of a Markdown file; none for another kind of file. */
  private static Set<String> anchors(Path file) throws IOException {
    Set<String> out = new HashSet<>();
    if (!file.toString().endsWith(".md")) {
      return out;
    }
    boolean fenced = false;
    for (String line : Files.readAllLines(file)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        Matcher m = HEADING.matcher(line);
        if (m.matches()) {
          out.add(slug(m.group(1)));
        }
      }
    }
    return out;
  }

  /** GitHub's heading id: lower case, punctuation dropped, each space a hyphen. */
  static String slug(String heading) {
    return heading
        .strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N} _-]", "")
        .replace(' ', '-');
  }
}
