package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.snowid.lease.LeaseCoordinators;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * snowid-jdbc as a module: a program on the module path that requires {@code io.snowid.jdbc} leases
 * through a {@code jdbc:h2:} URI (found by the core's service loader through the module's {@code
 * provides}) and through {@link JdbcLeaseProvider#open(javax.sql.DataSource, String)}; the H2
 * driver is an automatic module found by {@code java.sql}'s own service lookup.
 */
@Tag("integration")
class JdbcModulePathTest {
  @TempDir Path tmp;

  private static final String MODULE_INFO =
      """
      module example {
        requires io.snowid.jdbc;
      }
      """;

  private static final String MAIN =
      """
      package example;

      import io.snowid.Snowflake;
      import io.snowid.jdbc.JdbcLeaseProvider;
      import io.snowid.lease.LeaseCoordinator;
      import java.sql.DriverManager;

      public final class Main {
        public static void main(String[] args) throws Exception {
          String url = "jdbc:h2:mem:modules;DB_CLOSE_DELAY=-1";
          try (Snowflake gen =
              Snowflake.builder().nodeSource(url + "?create=true&namespace=m&ttl=1s&maxTtl=1s&maxSkew=1s").build()) {
            System.out.println(gen.nodeStatus().source().replaceAll(" node id .*", "") + " "
                + (gen.nextId() > 0));
          }
          javax.sql.DataSource ds = new javax.sql.DataSource() {
            public java.sql.Connection getConnection() throws java.sql.SQLException {
              return DriverManager.getConnection(url);
            }
            public java.sql.Connection getConnection(String u, String p)
                throws java.sql.SQLException {
              return getConnection();
            }
            public java.io.PrintWriter getLogWriter() { return null; }
            public void setLogWriter(java.io.PrintWriter out) {}
            public void setLoginTimeout(int seconds) {}
            public int getLoginTimeout() { return 0; }
            public java.util.logging.Logger getParentLogger() { return null; }
            public <T> T unwrap(Class<T> iface) { return null; }
            public boolean isWrapperFor(Class<?> iface) { return false; }
          };
          try (LeaseCoordinator c = JdbcLeaseProvider.open(ds, "")) {
            System.out.println(c.describe());
          }
        }
      }
      """;

  private static Path locationOf(Class<?> c) throws Exception {
    return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  @Test
  void open_programOnTheModulePath_findsTheProviderAndTheDriver() throws Exception {
    String modulePath =
        String.join(
            File.pathSeparator,
            locationOf(LeaseCoordinators.class).toString(),
            locationOf(JdbcLeaseProvider.class).toString(),
            locationOf(HikariDataSource.class).toString(),
            locationOf(org.slf4j.Logger.class).toString(),
            locationOf(org.h2.Driver.class).toString());
    Path src = tmp.resolve("src");
    Files.createDirectories(src.resolve("example"));
    Files.writeString(src.resolve("module-info.java"), MODULE_INFO);
    Files.writeString(src.resolve("example/Main.java"), MAIN);
    Path classes = tmp.resolve("classes");
    // the javac of this JDK as a process: the tests are compiled into the module, which does not
    // read java.compiler
    Process javac =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "javac").toString(),
                "--module-path",
                modulePath,
                "-d",
                classes.toString(),
                src.resolve("module-info.java").toString(),
                src.resolve("example/Main.java").toString())
            .redirectErrorStream(true)
            .start();
    String compiled = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(javac.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(javac.exitValue()).as(compiled).isZero();

    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    Path err = tmp.resolve("stderr");
    Process p =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "--module-path",
                    modulePath + File.pathSeparator + classes,
                    "-m",
                    "example/example.Main"))
            .redirectError(err.toFile())
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(p.exitValue()).as(out + Files.readString(err)).isZero();
    assertThat(out.lines()).containsExactly("jdbc:h2:mem:modules true", "jdbc:h2:mem:modules");
  }
}
