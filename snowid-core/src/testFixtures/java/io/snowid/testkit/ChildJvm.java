package io.snowid.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Real JVMs for tests that need processes (OS file locks are per process; SIGKILL and SIGSTOP act
 * on processes): the JVM that runs the test, with the test's class path.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * A process builder for {@code java [jvmOptions] -cp <this class path> main args…}; the caller
   * sets redirects and starts it.
   */
  public static ProcessBuilder of(Class<?> main, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  /**
   * The IDs a process wrote to a file as big-endian longs; a torn last one (the process was killed
   * mid-write) is left out.
   */
  public static long[] readIds(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    ByteBuffer buf = ByteBuffer.wrap(bytes, 0, bytes.length / 8 * 8);
    long[] ids = new long[bytes.length / 8];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = buf.getLong();
    }
    return ids;
  }
}
