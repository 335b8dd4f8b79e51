package io.snowid;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of docs/design.md section 2, checked on the compiled classes: a dependency that points
 * up a layer (a cycle) fails, and so does a public type in an exported package that is not in the
 * published API list ({@code public-api.txt} beside this test).
 */
class ArchitectureTest {
  /** The classes of {@code io.snowid} that build on the layers below: the generator and facade. */
  private static final Set<String> GENERATOR =
      Set.of(
          "Snowflake",
          "SnowflakeBuilder",
          "SnowflakeSettings",
          "SnowId",
          "NodeBinding",
          "NodeSources",
          "Int32Generator");

  private static Path classes;
  private static JavaClasses all;

  @BeforeAll
  static void importMainClasses() throws URISyntaxException {
    classes = Path.of(Layout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    all = new ClassFileImporter().importPath(classes);
    assertThat(all.contain(Snowflake.class)).as("imported %s", classes).isTrue();
  }

  @Test
  void dependencies_pointDownTheLayers() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("base")
        .definedBy(rootPackage(false))
        .layer("codec")
        .definedBy("io.snowid.codec..")
        .layer("node types")
        .definedBy(nodeTypes())
        .layer("node sources")
        .definedBy("io.snowid.node.internal..")
        .layer("node chain")
        .definedBy(nodeChain())
        .layer("lease")
        .definedBy("io.snowid.lease..")
        .layer("generator")
        .definedBy(rootPackage(true))
        .whereLayer("generator")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("lease")
        .mayOnlyBeAccessedByLayers("generator")
        .whereLayer("node chain")
        .mayOnlyBeAccessedByLayers("lease", "generator")
        .whereLayer("node sources")
        .mayOnlyBeAccessedByLayers("node chain", "lease")
        .whereLayer("node types")
        .mayOnlyBeAccessedByLayers("node sources", "node chain", "lease", "generator")
        .whereLayer("codec")
        .mayOnlyBeAccessedByLayers("generator")
        .check(all);
  }

  @Test
  void exportedPackages_publishOnlyTheListedApi() throws IOException {
    Set<String> exported;
    try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
      exported =
          ModuleDescriptor.read(in).exports().stream()
              .map(ModuleDescriptor.Exports::source)
              .collect(Collectors.toSet());
    }
    assertThat(exported).doesNotContain("io.snowid.node.internal");
    Set<String> published = new TreeSet<>();
    for (JavaClass c : all) {
      if (c.isTopLevelClass()
          && c.getModifiers().contains(JavaModifier.PUBLIC)
          && exported.contains(c.getPackageName())) {
        published.add(c.getName());
      }
    }
    Set<String> listed = new TreeSet<>();
    try (InputStream in = ArchitectureTest.class.getResourceAsStream("public-api.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          listed.add(line.trim());
        }
      }
    }
    assertThat(published)
        .as(
            "public types of the exported packages: a type that only another snowid package needs"
                + " is package-private or lives in a non-exported package; a new API type goes"
                + " into public-api.txt")
        .containsExactlyElementsOf(listed);
  }

  /** {@code io.snowid} itself (not its subpackages): its generator classes, or the rest. */
  private static DescribedPredicate<JavaClass> rootPackage(boolean generator) {
    return DescribedPredicate.describe(
        generator ? "the generator classes of io.snowid" : "io.snowid's values, time and errors",
        c ->
            c.getPackageName().equals("io.snowid")
                && GENERATOR.contains(topLevel(c).getSimpleName()) == generator);
  }

  private static DescribedPredicate<JavaClass> nodeTypes() {
    return DescribedPredicate.describe(
        "io.snowid.node's types",
        c ->
            c.getPackageName().equals("io.snowid.node")
                && !topLevel(c).getSimpleName().equals("NodeIdChain"));
  }

  private static DescribedPredicate<JavaClass> nodeChain() {
    return DescribedPredicate.describe(
        "io.snowid.node.NodeIdChain",
        c -> topLevel(c).getName().equals("io.snowid.node.NodeIdChain"));
  }

  private static JavaClass topLevel(JavaClass c) {
    JavaClass t = c;
    while (t.getEnclosingClass().isPresent()) {
      t = t.getEnclosingClass().get();
    }
    return t;
  }
}
