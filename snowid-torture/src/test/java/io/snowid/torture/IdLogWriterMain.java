package io.snowid.torture;

import java.nio.file.Path;

/** For {@link IdLogTest}: writes IDs 1, 2, 3, … (time 7 µs apiece) until it is killed. */
public final class IdLogWriterMain {
  private IdLogWriterMain() {}

  public static void main(String[] args) throws Exception {
    try (IdLogWriter w = new IdLogWriter(Path.of(args[0]), 0xFFL << 20)) {
      for (long id = 1; ; id++) {
        w.id(id, id * 7_000);
        if (id == 1_000_000) {
          System.out.println("writing");
          System.out.flush();
        }
      }
    }
  }
}
