package io.snowid.zookeeper;

import java.nio.charset.StandardCharsets;

/**
 * The text of snowid's znodes: numbers in decimal, {@code -} for none, fields separated by one
 * space (docs/design.md, "The zookeeper:// backend", table of znodes).
 */
final class Records {
  static final long NONE = Long.MIN_VALUE;

  private Records() {}

  /** An id's record: its last holder, that holder's token ({@code -} once released), marks. */
  record IdRecord(String instance, String token, long highWater, long base, long timeoutMillis) {
    boolean released() {
      return token.equals("-");
    }

    IdRecord releasedWith(long highWater) {
      return new IdRecord(instance, "-", highWater, NONE, timeoutMillis);
    }

    byte[] bytes() {
      return join(instance, token, num(highWater), num(base), num(timeoutMillis));
    }

    static IdRecord parse(byte[] data) {
      String[] f = fields(data, 5);
      return f == null ? null : new IdRecord(f[0], f[1], number(f[2]), number(f[3]), number(f[4]));
    }
  }

  /** A namespace's state: its holders' limits, how many id records it created, lostUntil. */
  record State(long maxTtl, long maxSkew, long records, long lostUntil) {
    byte[] bytes() {
      return join(num(maxTtl), num(maxSkew), num(records), num(lostUntil));
    }

    static State parse(byte[] data) {
      String[] f = fields(data, 4);
      return f == null ? null : new State(number(f[0]), number(f[1]), number(f[2]), number(f[3]));
    }
  }

  /** The registry's node: when a loss of its state was last found, the longest maxTtl asked. */
  record Registry(long lostAt, long maxTtl) {
    byte[] bytes() {
      return join(num(lostAt), num(maxTtl));
    }

    static Registry parse(byte[] data) {
      String[] f = fields(data, 2);
      return f == null ? null : new Registry(number(f[0]), number(f[1]));
    }
  }

  static String num(long n) {
    return n == NONE ? "-" : Long.toString(n);
  }

  static long number(String s) {
    if (s.equals("-")) {
      return NONE;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return NONE;
    }
  }

  static byte[] join(String... fields) {
    return String.join(" ", fields).getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] data) {
    return data == null ? "" : new String(data, StandardCharsets.UTF_8);
  }

  private static String[] fields(byte[] data, int n) {
    if (data == null) {
      return null;
    }
    String[] f = text(data).trim().split(" ");
    return f.length == n ? f : null;
  }
}
