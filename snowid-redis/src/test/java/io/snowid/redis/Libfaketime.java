package io.snowid.redis;

import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;

/** libfaketime, which the clock-step tests preload into a child JVM to step its wall clock. */
final class Libfaketime {
  static final Path LIBRARY = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

  private Libfaketime() {}

  /**
   * Fails the test when libfaketime is missing and CI is true (CI installs it: .ci/services.sh);
   * skips it otherwise.
   */
  static void require() {
    if (!Files.isReadable(LIBRARY)) {
      String why =
          "libfaketime is not installed ("
              + LIBRARY
              + " is missing): apt-get install faketime. This test steps a process's wall clock"
              + " with it.";
      if ("true".equals(System.getenv("CI"))) {
        fail(why + " CI=true: failing instead of skipping.");
      }
      assumeThat(false).as(why + " Skipped since CI is not true.").isTrue();
    }
  }
}
