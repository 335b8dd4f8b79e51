package io.snowid.codec;

import java.util.SplittableRandom;

/** Seeds for randomized codec tests: {@code -Dsnowid.seed=N} replays a run; the seed is printed. */
final class TestSeeds {
  private TestSeeds() {}

  static long seed(Class<?> test) {
    long seed = Long.getLong("snowid.seed", System.nanoTime());
    System.out.println(
        test.getSimpleName()
            + ": snowid.seed="
            + seed
            + " (replay with -Dsnowid.seed="
            + seed
            + ")");
    return seed;
  }

  /**
   * Runs {@code body} on a fresh thread and rethrows what it throws. Exceptions thrown there have
   * short stack traces, which makes tests that provoke millions of them several times faster.
   */
  static void onShortStack(Runnable body) {
    Throwable[] thrown = new Throwable[1];
    Thread thread = new Thread(body, "codec-test");
    thread.setUncaughtExceptionHandler((t, e) -> thrown[0] = e);
    thread.start();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
    if (thrown[0] instanceof Error) {
      throw (Error) thrown[0];
    }
    if (thrown[0] != null) {
      throw new AssertionError(thrown[0]);
    }
  }

  /**
   * A random long biased towards the interesting places: all 64 bits, every magnitude, small
   * values, the neighbourhoods of 2^63 and 2^64-1, and Snowflake-like non-negative values.
   */
  static long randomId(SplittableRandom r) {
    return switch (r.nextInt(8)) {
      case 0 -> r.nextLong();
      case 1 -> r.nextLong() >>> r.nextInt(64);
      case 2 -> r.nextInt(1000);
      case 3 -> -1L - r.nextInt(1000);
      case 4 -> Long.MAX_VALUE + r.nextInt(-1000, 1000);
      default -> r.nextLong() & Long.MAX_VALUE;
    };
  }

  /** The canonical form of {@code text} for {@code codec}, computed independently of the codec. */
  static String canonical(IdCodec codec, String text) {
    return switch (codec.name()) {
      case "hex", "base36" -> asciiLower(text);
      case "base32", "base32check" -> crockford(text);
      case "base64url" -> text.length() == 12 && text.endsWith("=") ? text.substring(0, 11) : text;
      default -> text;
    };
  }

  private static String asciiLower(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      sb.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
    }
    return sb.toString();
  }

  private static String crockford(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      char u = c >= 'a' && c <= 'z' ? (char) (c - 32) : c;
      if (u == '-') {
        continue;
      }
      sb.append(u == 'I' || u == 'L' ? '1' : u == 'O' ? '0' : u);
    }
    return sb.toString();
  }
}
