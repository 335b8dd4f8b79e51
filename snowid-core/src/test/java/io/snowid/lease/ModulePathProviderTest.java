package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the module path, {@code LeaseCoordinators.open("redis://…")} finds a backend module's provider
 * ({@code io.snowid} declares {@code uses}; without it the lookup throws {@code
 * ServiceConfigurationError: module io.snowid does not declare uses}). Here a backend module of its
 * own (compiled by the test) provides a coordinator; a program on the module path opens it by URI,
 * and the built-in {@code file:} provider, through the service loader.
 */
@Tag("integration")
class ModulePathProviderTest {
  @TempDir Path tmp;

  private static final String MODULE_INFO =
      """
      module io.snowid.example {
        requires io.snowid;
        provides io.snowid.lease.LeaseCoordinatorProvider with example.ExampleProvider;
      }
      """;

  private static final String PROVIDER =
      """
      package example;

      import io.snowid.lease.*;

      public final class ExampleProvider implements LeaseCoordinatorProvider {
        public boolean supports(String uri) { return uri.startsWith("example:"); }

        public LeaseCoordinator open(String uri) {
          return new LeaseCoordinator() {
            public Lease acquire(AcquireRequest r) { throw new UnsupportedOperationException(); }
            public Lease renew(Lease l, LeaseTerms t) { throw new UnsupportedOperationException(); }
            public void release(Lease l, long issuedUpTo) {}
            public LeaseListing list(String ns) { throw new UnsupportedOperationException(); }
            public void releaseAbandoned(String ns, long id) {
              throw new UnsupportedOperationException();
            }
            public String describe() { return "example coordinator for " + uri; }
            public void close() {}
          };
        }
      }
      """;

  private static final String MAIN =
      """
      package example;

      import io.snowid.lease.LeaseCoordinators;

      public final class Main {
        public static void main(String[] args) {
          System.out.println(LeaseCoordinators.open("example:one").describe());
          System.out.println(LeaseCoordinators.open("file:" + args[0]).describe());
        }
      }
      """;

  @Test
  void open_backendModuleOnTheModulePath_isFoundByUri() throws Exception {
    Path core =
        Paths.get(
            LeaseCoordinators.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path src = tmp.resolve("src");
    Files.createDirectories(src.resolve("example"));
    Files.writeString(src.resolve("module-info.java"), MODULE_INFO);
    Files.writeString(src.resolve("example/ExampleProvider.java"), PROVIDER);
    Files.writeString(src.resolve("example/Main.java"), MAIN);
    Path classes = tmp.resolve("classes");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int rc =
        javac.run(
            null,
            null,
            errors,
            "--module-path",
            core.toString(),
            "-d",
            classes.toString(),
            src.resolve("module-info.java").toString(),
            src.resolve("example/ExampleProvider.java").toString(),
            src.resolve("example/Main.java").toString());
    assertThat(rc).as(errors.toString(StandardCharsets.UTF_8)).isZero();

    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    Path leases = tmp.resolve("leases");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "--module-path",
                core + File.pathSeparator + classes,
                "-m",
                "io.snowid.example/example.Main",
                leases.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out.lines())
        .containsExactly("example coordinator for example:one", "file:" + leases.toRealPath());
  }
}
