package io.snowid.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/** Checks {@code Authorization: Bearer <token>} in time that does not depend on the input. */
final class BearerAuth {
  private static final String SCHEME = "Bearer ";

  private final byte[] expected;

  /** No token: every request passes. */
  BearerAuth(String token) {
    this.expected = token == null ? null : token.getBytes(StandardCharsets.US_ASCII);
  }

  static boolean isValidToken(String token) {
    if (token.isEmpty() || token.length() > 512) {
      return false;
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  boolean allows(Request request) {
    if (expected == null) {
      return true;
    }
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      return false;
    }
    byte[] given = header.substring(SCHEME.length()).trim().getBytes(StandardCharsets.UTF_8);
    // Expected first: MessageDigest.isEqual then takes time proportional to its length only.
    return MessageDigest.isEqual(expected, given);
  }
}
