package io.snowid.testkit;

import io.snowid.SnowId;
import io.snowid.Snowflake;
import io.snowid.lease.LeaseLostException;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A process of {@link IssuerJvm}: one or more generators in one JVM, each issuing a fixed number of
 * IDs as fast as it can. Arguments: the count per generator, the output prefix, then one source per
 * generator: {@code snowid} (the process-wide {@link SnowId} generator, configured by {@code
 * -Dsnowid.*} and the environment) or a node URI (a {@code twitter} generator of its own).
 *
 * <p>Builds the generators in order and takes one ID from each (written, once its lease lets it
 * issue), then prints {@code ready NODE_1 ; NODE_2 …}; if one cannot be built it prints {@code
 * refused INDEX CLASS: MESSAGE} (on one line) and exits 3. After a line on standard input each
 * generator issues the rest of its count in a thread of its own, appending every ID to {@code
 * PREFIX.INDEX.ids} as a big-endian long; then it prints {@code issued}. It holds its leases until
 * standard input closes, then closes the generators (releasing them) and exits 0.
 */
public final class IssuerMain {
  private IssuerMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    long count = Long.parseLong(args[0]);
    String prefix = args[1];
    List<Snowflake> generators = new ArrayList<>();
    List<Snowflake> own = new ArrayList<>(); // built here, closed here (SnowId's closes at exit)
    List<DataOutputStream> outputs = new ArrayList<>();
    int exit = 0;
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try {
      List<String> nodes = new ArrayList<>();
      for (int i = 2; i < args.length && exit == 0; i++) {
        int index = i - 2;
        try {
          boolean processWide = args[i].equals("snowid");
          Snowflake gen = processWide ? SnowId.generator() : build(args[i]);
          if (!processWide) {
            own.add(gen);
          }
          generators.add(gen);
          DataOutputStream out =
              new DataOutputStream(
                  new BufferedOutputStream(
                      new FileOutputStream(prefix + "." + index + ".ids"), 1 << 16));
          outputs.add(out);
          out.writeLong(next(gen));
          nodes.add(String.valueOf(gen.node()));
        } catch (RuntimeException e) {
          say(
              "refused "
                  + index
                  + " "
                  + e.getClass().getSimpleName()
                  + ": "
                  + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
          e.printStackTrace();
          exit = 3;
        }
      }
      if (exit == 0) {
        say("ready " + String.join(" ; ", nodes));
        if (in.readLine() != null) {
          issue(generators, outputs, count - 1);
          say("issued");
          while (in.readLine() != null) {
            // hold the leases until the test closes our standard input
          }
        }
      }
    } finally {
      for (DataOutputStream out : outputs) {
        out.close(); // idempotent: flushes what a refused run wrote
      }
      for (Snowflake gen : own) {
        gen.close();
      }
    }
    System.exit(exit);
  }

  private static Snowflake build(String uri) {
    return Snowflake.builder().layout("twitter").nodeSource(uri).build();
  }

  /** Each generator's IDs in a thread of its own, all at once. */
  private static void issue(List<Snowflake> generators, List<DataOutputStream> outputs, long count)
      throws InterruptedException, IOException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int g = 0; g < generators.size(); g++) {
      Snowflake gen = generators.get(g);
      DataOutputStream out = outputs.get(g);
      Thread t =
          new Thread(
              () -> {
                try (out) {
                  for (long n = 0; n < count; n++) {
                    out.writeLong(next(gen));
                  }
                } catch (IOException | InterruptedException | RuntimeException e) {
                  failure.compareAndSet(null, e);
                }
              },
              "issuer-" + g);
      threads.add(t);
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new IOException("a generator failed", failure.get());
    }
  }

  /** As an application would: a fenced generator (a starved renewal thread) is retried. */
  private static long next(Snowflake gen) throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      try {
        return gen.nextId();
      } catch (LeaseLostException e) {
        if (attempt == 0) {
          System.err.println("retrying: " + e.getMessage());
        }
        Thread.sleep(10);
      }
    }
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
