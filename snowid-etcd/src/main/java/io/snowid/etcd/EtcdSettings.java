package io.snowid.etcd;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseOptions;
import io.snowid.lease.Secrets;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An etcd lease URI, {@code etcd://[user:password@]host:port[,host:port…][?prefix=NAME]}, without
 * snowid's lease options (read before, {@link LeaseOptions#base()}).
 *
 * @param endpoints {@code http://host:port} of each member, as jetcd takes them
 * @param user the etcd user, or null without authentication
 * @param password the user's password (null without); never shown
 * @param prefix the first part of every key, {@code PREFIX/…}
 * @param describe the URI without credentials: safe for logs and messages
 * @param uri the URI as given, whose password must never appear in a message; never shown
 */
record EtcdSettings(
    List<String> endpoints,
    String user,
    String password,
    String prefix,
    String describe,
    String uri) {
  static final String FORM =
      "etcd://[user:password@]host:port[,host:port]…, with the option prefix=NAME";

  private static final Pattern SCHEME =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://(.*)", Pattern.DOTALL);
  private static final Pattern HOST_PORT =
      Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):([0-9]{1,5})");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");
  private static final List<String> OPTIONS = List.of("prefix");

  /** Whether a URI is one of ours. */
  static boolean supports(String uri) {
    return uri.startsWith("etcd://") || uri.startsWith("etcds://");
  }

  /**
   * Parses an etcd lease URI.
   *
   * @throws InvalidSettingException naming the form, the option or the host, never the password
   */
  static EtcdSettings parse(String uri) {
    Matcher m = SCHEME.matcher(uri);
    if (!m.matches() || !supports(uri)) {
      throw new InvalidSettingException("node", Secrets.scrub(uri), FORM);
    }
    if (m.group(1).equals("etcds")) {
      throw new InvalidSettingException(
          "node",
          Secrets.scrub(uri),
          FORM
              + " (TLS is not supported yet: reach etcd over a private network or a local TLS"
              + " proxy)");
    }
    String rest = m.group(2);
    int q = rest.indexOf('?');
    String authority = q < 0 ? rest : rest.substring(0, q);
    String query = q < 0 ? "" : rest.substring(q + 1);
    if (authority.endsWith("/")) {
      authority = authority.substring(0, authority.length() - 1);
    }
    String user = null;
    String password = null;
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      String credentials = authority.substring(0, at);
      authority = authority.substring(at + 1);
      int colon = credentials.indexOf(':');
      if (colon <= 0 || credentials.matches("(?s).*[/?#@].*")) {
        throw new InvalidSettingException(
            "node",
            Secrets.scrub(uri),
            FORM + ", credentials as user:password with / ? # @ percent-encoded (%2F %3F %23 %40)");
      }
      user = decode(credentials.substring(0, colon), uri);
      password = decode(credentials.substring(colon + 1), uri);
    }
    List<String> endpoints = new ArrayList<>();
    List<String> hosts = new ArrayList<>();
    for (String hostPort : authority.split(",", -1)) {
      Matcher hp = HOST_PORT.matcher(hostPort);
      if (!hp.matches() || Integer.parseInt(hp.group(2)) > 65535) {
        throw new InvalidSettingException(
            "node",
            Secrets.scrub(uri),
            FORM
                + " (each member as host:port, e.g. 127.0.0.1:2379; got \""
                + Secrets.scrub(hostPort, uri)
                + "\")");
      }
      endpoints.add("http://" + hostPort);
      hosts.add(hostPort);
    }
    String prefix = "snowid";
    Set<String> given = new HashSet<>();
    for (String pair : query.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      if (!given.add(key)) {
        throw new InvalidSettingException(
            "node", Secrets.scrub(key, uri), "each option once (" + key + " is given twice)");
      }
      if (key.equals("prefix")) {
        if (!NAME.matcher(value).matches()) {
          throw new InvalidSettingException("prefix", value, "1 to 100 of A-Z a-z 0-9 . _ -");
        }
        prefix = value;
      } else {
        throw new InvalidSettingException(
            "node", Secrets.scrub(key, uri), "an option of " + FORM + didYouMean(key));
      }
    }
    String describe =
        "etcd://" + String.join(",", hosts) + (prefix.equals("snowid") ? "" : "?prefix=" + prefix);
    return new EtcdSettings(List.copyOf(endpoints), user, password, prefix, describe, uri);
  }

  private static String decode(String s, String uri) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(
          "node", Secrets.scrub(uri), FORM + " (a malformed %-escape in the credentials)");
    }
  }

  private static String didYouMean(String key) {
    List<String> names = new ArrayList<>(LeaseOptions.names());
    names.addAll(OPTIONS);
    return InvalidSettingException.nearMiss(key, names)
        .map(n -> "; did you mean " + n + "?")
        .orElse("");
  }

  /** A message with the URI's password taken out. */
  String scrub(String message) {
    return Secrets.scrub(message, uri);
  }

  /** Never the password: a record's default toString would print it. */
  @Override
  public String toString() {
    return describe;
  }
}
