package io.snowid;

import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.locks.LockSupport;

/**
 * A process of {@link SharedDirectoryAttackTest}: issues IDs from {@link SnowId#next()} with the
 * node its system properties give, printing {@code ok <node>} and then one ID a line. With {@code
 * until <file>} it issues one ID every 100 µs until that file appears, carrying on through a lost
 * lease as a server would; with {@code count <n>} it issues n IDs as fast as it can and exits.
 */
public final class SharedLeaseIssuerMain {
  private SharedLeaseIssuerMain() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false);
    long first;
    try {
      first = SnowId.next();
    } catch (SnowIdException e) {
      out.println("refused " + e.getClass().getSimpleName() + ": " + e.getMessage());
      out.flush();
      System.exit(3);
      return;
    }
    out.println("ok " + SnowId.generator().node());
    out.println(first);
    out.flush();
    if (args[0].equals("count")) {
      long n = Long.parseLong(args[1]);
      for (long i = 1; i < n; i++) {
        out.println(SnowId.next());
      }
    } else {
      Path stop = Paths.get(args[1]);
      for (long i = 1; !Files.exists(stop); i++) {
        try {
          out.println(SnowId.next());
        } catch (SnowIdException e) {
          LockSupport.parkNanos(10_000_000L); // fenced: what a server does between requests
        }
        if (i % 1000 == 0) {
          out.flush();
        }
        LockSupport.parkNanos(100_000L);
      }
    }
    out.flush();
    System.exit(0); // the facade's hook releases the lease
  }
}
