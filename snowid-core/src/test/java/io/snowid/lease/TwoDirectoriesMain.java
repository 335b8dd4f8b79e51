package io.snowid.lease;

import io.snowid.SnowId;
import io.snowid.Snowflake;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * One process of {@link TwoLeaseDirectoriesTest}: a generator, either the process-wide one of
 * {@link SnowId} (its directory from {@code -Dsnowid.node}) or one built on a {@code file:} URI.
 * Takes its first ID (once its lease lets it issue), prints {@code ready <node values>}, waits for
 * a line on its standard input, then takes IDs for a second in bursts; writes them all to a file as
 * big-endian longs. Arguments: {@code snowid} or the URI, and the output file.
 */
public final class TwoDirectoriesMain {
  private TwoDirectoriesMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    boolean processWide = args[0].equals("snowid");
    try (Snowflake gen =
            processWide ? null : Snowflake.builder().layout("twitter").nodeSource(args[0]).build();
        DataOutputStream data =
            new DataOutputStream(
                new BufferedOutputStream(new FileOutputStream(args[1]), 1 << 16))) {
      Snowflake g = processWide ? SnowId.generator() : gen;
      data.writeLong(processWide ? SnowId.next() : g.nextId()); // once its lease lets it issue
      System.out.println("ready " + g.node());
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      long until = System.nanoTime() + 1_000_000_000L;
      while (System.nanoTime() < until) {
        for (int i = 0; i < 200; i++) {
          data.writeLong(processWide ? SnowId.next() : g.nextId());
        }
        Thread.sleep(1);
      }
    }
  }
}
