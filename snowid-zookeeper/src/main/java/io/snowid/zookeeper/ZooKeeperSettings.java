package io.snowid.zookeeper;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseOptions;
import io.snowid.lease.Secrets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ZooKeeper lease URI: the ensemble, the chroot under which every node lives, and the digest
 * credentials. snowid's lease options ({@code namespace}, {@code ttl}, …) were removed before
 * ({@link LeaseOptions#base()}); any other option is an error.
 *
 * @param connectString the ensemble as the ZooKeeper client reads it, {@code h1:2181,h2:2181}
 * @param root the chroot, an absolute path ({@code /snowid} by default)
 * @param digest {@code user:password} for ZooKeeper's digest authentication, or null; never shown
 * @param describe the URI without credentials: safe for logs and messages
 * @param uri the URI as given, never shown (its password is scrubbed from client messages)
 */
record ZooKeeperSettings(
    String connectString, String root, String digest, String describe, String uri) {
  static final String FORM =
      "zookeeper://[user:password@]host[:port][,host[:port]]…[/chroot] (zk:// alike), with"
          + " snowid's lease options only ("
          + String.join(", ", LeaseOptions.names())
          + ")";
  static final String DEFAULT_ROOT = "/snowid";

  private static final Pattern SCHEME = Pattern.compile("(zookeeper|zk)://(.*)", Pattern.DOTALL);
  private static final Pattern HOST =
      Pattern.compile("([A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+\\])(?::([0-9]{1,5}))?");
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

  /** Whether a URI is one of ours. */
  static boolean supports(String uri) {
    return SCHEME.matcher(uri).matches();
  }

  /**
   * Parses a ZooKeeper lease URI (without snowid's lease options).
   *
   * @throws InvalidSettingException naming the form, the part that is wrong, and for an unknown
   *     option the one it most likely means; never the password
   */
  static ZooKeeperSettings parse(String uri) {
    Matcher m = SCHEME.matcher(uri);
    if (!m.matches()) {
      throw new InvalidSettingException("node", "(not a ZooKeeper URI)", FORM);
    }
    String rest = m.group(2);
    int q = rest.indexOf('?');
    if (q >= 0) {
      rejectOptions(rest.substring(q + 1), uri);
      rest = rest.substring(0, q);
    }
    int at = rest.lastIndexOf('@');
    String digest = null;
    if (at >= 0) {
      String userinfo = rest.substring(0, at);
      int colon = userinfo.indexOf(':');
      if (colon <= 0 || colon == userinfo.length() - 1 || userinfo.matches("(?s).*[/?#@].*")) {
        throw new InvalidSettingException(
            "node",
            Secrets.scrub(uri),
            FORM + ", with a user and a password (user:password@), / ? # @ percent-encoded");
      }
      digest = decode(userinfo);
      rest = rest.substring(at + 1);
    }
    int slash = rest.indexOf('/');
    String hosts = slash < 0 ? rest : rest.substring(0, slash);
    String root = slash < 0 ? DEFAULT_ROOT : rest.substring(slash);
    List<String> servers = new ArrayList<>();
    for (String h : hosts.split(",", -1)) {
      Matcher hm = HOST.matcher(h);
      if (!hm.matches() || (hm.group(2) != null && Integer.parseInt(hm.group(2)) > 65535)) {
        throw new InvalidSettingException(
            "node", Secrets.scrub(uri), FORM + " (host[:port] expected, found \"" + h + "\")");
      }
      servers.add(hm.group(1) + ":" + (hm.group(2) == null ? "2181" : hm.group(2)));
    }
    if (root.equals("/")) {
      root = DEFAULT_ROOT;
    }
    if (root.endsWith("/")) {
      root = root.substring(0, root.length() - 1);
    }
    for (String segment : root.substring(1).split("/", -1)) {
      if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
        throw new InvalidSettingException(
            "chroot",
            root,
            "an absolute path of names of 1 to 100 of A-Z a-z 0-9 . _ : - (not . or ..), like"
                + " /snowid or /apps/orders/snowid");
      }
    }
    String connect = String.join(",", servers);
    return new ZooKeeperSettings(
        connect,
        root,
        digest,
        "zookeeper://" + connect + (root.equals(DEFAULT_ROOT) ? "" : root),
        uri);
  }

  private static void rejectOptions(String query, String uri) {
    for (String pair : query.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = Secrets.scrub(eq < 0 ? pair : pair.substring(0, eq), uri);
      throw new InvalidSettingException(
          "node",
          key,
          "an option of "
              + FORM
              + InvalidSettingException.nearMiss(key, LeaseOptions.names())
                  .map(n -> "; did you mean " + n + "?")
                  .orElse(""));
    }
  }

  private static String decode(String s) {
    try {
      return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s;
    }
  }

  /** The digest credentials as ZooKeeper's {@code addAuthInfo} takes them. */
  byte[] auth() {
    return digest.getBytes(StandardCharsets.UTF_8);
  }

  /** A message with the URI's password taken out. */
  String scrub(String message) {
    return Secrets.scrub(message, uri);
  }

  /** Never the password. */
  @Override
  public String toString() {
    return describe;
  }
}
