package io.snowid;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A process of {@link NodeEnvironmentProcessTest} and {@link SeveralUsersTest}: takes one ID from
 * {@link SnowId#next()} with whatever node values its environment gives, as a one-shot program
 * would, and prints {@code ok <id> <node values>}, or {@code refused <exception>: <message>} (exit
 * code 3). With an argument, it then keeps its lease until that file appears.
 */
public final class NodeEnvironmentMain {
  private NodeEnvironmentMain() {}

  public static void main(String[] args) throws InterruptedException {
    long id;
    try {
      id = SnowId.next();
    } catch (SnowIdException e) {
      System.out.println("refused " + e.getClass().getSimpleName() + ": " + e.getMessage());
      System.out.flush();
      System.exit(3);
      return;
    }
    System.out.println("ok " + id + " " + SnowId.generator().node());
    System.out.flush();
    if (args.length > 0) {
      Path stop = Paths.get(args[0]);
      while (!Files.exists(stop)) {
        Thread.sleep(20);
      }
    }
    System.exit(0); // the facade's hook releases the lease
  }
}
