package io.snowid.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One of the lease scripts ({@code acquire}, {@code renew}, {@code release}, and for operators
 * {@code list} and {@code abandon}): the shared prelude {@code common.lua} and the script's own
 * body, with the SHA-1 that {@code EVALSHA} names it by.
 */
record LeaseScript(String name, String text, String sha) {
  static final LeaseScript ACQUIRE = load("acquire");
  static final LeaseScript RENEW = load("renew");
  static final LeaseScript RELEASE = load("release");
  static final LeaseScript LIST = load("list");
  static final LeaseScript ABANDON = load("abandon");

  private static LeaseScript load(String name) {
    String text = resource("common") + "\n" + resource(name);
    return new LeaseScript(name, text, sha1(text));
  }

  private static String resource(String name) {
    try (InputStream in = LeaseScript.class.getResourceAsStream(name + ".lua")) {
      if (in == null) {
        throw new IllegalStateException("missing resource io/snowid/redis/" + name + ".lua");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required of every JDK", e);
    }
  }
}
