package io.snowid.redis;

import io.lettuce.core.RedisURI;
import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseOptions;
import io.snowid.lease.Secrets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Redis lease URI, split into what Lettuce reads (host, port, database, credentials, TLS,
 * sentinels and Lettuce's own query options) and what the coordinator reads ({@code prefix}, {@code
 * wait}). snowid's lease options ({@code namespace}, {@code ttl}, …) were removed before (see
 * {@link io.snowid.lease.LeaseOptions#base()}).
 *
 * @param redisUri what Lettuce connects to
 * @param describe the URI without credentials or options: safe for logs and messages
 * @param prefix the first part of every key's hash tag, {@code {PREFIX:NAMESPACE}}
 * @param waitReplicas how many replicas must acknowledge a grant or renewal before it counts (0:
 *     none)
 * @param uri the URI as given, whose passwords must never appear in a message (null for an
 *     application's client); never shown
 */
record RedisSettings(
    RedisURI redisUri, String describe, String prefix, int waitReplicas, String uri) {
  static final String FORM =
      "redis://[user:password@]host[:port][/db], rediss://… (TLS) or"
          + " redis-sentinel://host[:port][,host[:port]]…?sentinelMasterId=NAME, with the options"
          + " prefix=NAME, wait=0..16 and Lettuce's "
          + String.join(", ", lettuceOptions());

  private static final Pattern SCHEME =
      Pattern.compile("(rediss?(?:-sentinel)?)://(.*)", Pattern.DOTALL);
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

  private static List<String> lettuceOptions() {
    return List.of("timeout", "database", "clientName", "sentinelMasterId", "verifyPeer");
  }

  /** Whether a URI is one of ours. */
  static boolean supports(String uri) {
    return SCHEME.matcher(uri).matches();
  }

  /**
   * Parses a Redis lease URI (without snowid's lease options).
   *
   * @throws InvalidSettingException naming the form, without the password; for a user or password
   *     with an unencoded {@code / ? # @}, which Lettuce would read in part as the host
   */
  static RedisSettings parse(String uri) {
    Matcher m = SCHEME.matcher(uri);
    if (!m.matches()) {
      throw new InvalidSettingException("node", "(not a Redis URI)", FORM);
    }
    String scheme = m.group(1);
    String rest = m.group(2);
    int at = rest.lastIndexOf('@');
    if (at >= 0 && rest.substring(0, at).matches("(?s).*[/?#@].*")) {
      throw new InvalidSettingException(
          "node",
          Secrets.scrub(uri),
          FORM + ", with / ? # @ in the user and password percent-encoded (%2F %3F %23 %40)");
    }
    int q = rest.indexOf('?');
    String location = q < 0 ? rest : rest.substring(0, q);
    Options o = options(q < 0 ? "" : rest.substring(q + 1), true, uri);
    List<String> passThrough = o.passThrough();
    String lettuceUri =
        scheme
            + "://"
            + location
            + (passThrough.isEmpty() ? "" : "?" + String.join("&", passThrough));
    RedisURI redisUri;
    try {
      redisUri = RedisURI.create(lettuceUri);
    } catch (RuntimeException e) {
      throw new InvalidSettingException(
          "node", Secrets.scrub(uri), FORM + " (" + Secrets.scrub(e.getMessage(), uri) + ")");
    }
    if (passThrough.stream().noneMatch(p -> p.startsWith("timeout="))) {
      redisUri.setTimeout(Duration.ofSeconds(5)); // Lettuce's 60 s would bound connecting only
    }
    return new RedisSettings(
        redisUri, describe(scheme, redisUri, o.prefix()), o.prefix(), o.waitReplicas(), uri);
  }

  /** What a coordinator on an application's own client reads: {@code prefix} and {@code wait}. */
  static final String CLIENT_FORM = "prefix=NAME&wait=0..16 (both optional)";

  /**
   * The options of a coordinator on an application's own Lettuce client: a query of {@code prefix}
   * and {@code wait} only (the client says where Redis is and how to connect).
   *
   * @throws InvalidSettingException naming an unknown or malformed option
   */
  static RedisSettings forClient(String query) {
    Options o = options(query == null ? "" : query, false, null);
    String describe =
        "redis (the application's connection"
            + (o.prefix().equals("snowid") ? "" : ", prefix=" + o.prefix())
            + ")";
    return new RedisSettings(null, describe, o.prefix(), o.waitReplicas(), null);
  }

  /** The coordinator's own options of a query, and (for a URI) what passes on to Lettuce. */
  private record Options(String prefix, int waitReplicas, List<String> passThrough) {}

  private static Options options(String query, boolean uri, String source) {
    String prefix = "snowid";
    int wait = 0;
    List<String> passThrough = new ArrayList<>();
    Set<String> lettuce = Set.copyOf(lettuceOptions());
    Set<String> given = new HashSet<>();
    for (String pair : query.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      if (!given.add(key)) {
        String named = Secrets.scrub(key, source);
        throw new InvalidSettingException(
            "node", named, "each option once (" + named + " is given twice)");
      }
      if (key.equals("prefix")) {
        if (!NAME.matcher(value).matches()) {
          throw new InvalidSettingException("prefix", value, "1 to 100 of A-Z a-z 0-9 . _ : -");
        }
        prefix = value;
      } else if (key.equals("wait")) {
        if (!value.matches("[0-9]{1,2}") || Integer.parseInt(value) > 16) {
          throw new InvalidSettingException("wait", value, "0..16 replicas");
        }
        wait = Integer.parseInt(value);
      } else if (uri && (lettuce.contains(key) || key.equals("db"))) {
        passThrough.add(pair);
      } else if (uri) {
        throw new InvalidSettingException(
            "node",
            Secrets.scrub(key, source),
            "an option of " + FORM + didYouMean(key, URI_OPTIONS));
      } else {
        throw new InvalidSettingException(
            "node",
            key,
            "an option of the application's Redis connection: "
                + CLIENT_FORM
                + didYouMean(key, List.of("prefix", "wait")));
      }
    }
    return new Options(prefix, wait, passThrough);
  }

  /**
   * Every name a Redis URI's query may hold: snowid's lease options (read before), the
   * coordinator's and Lettuce's.
   */
  private static final List<String> URI_OPTIONS = uriOptions();

  private static List<String> uriOptions() {
    List<String> names = new ArrayList<>(LeaseOptions.names());
    names.addAll(List.of("prefix", "wait", "db"));
    names.addAll(lettuceOptions());
    return List.copyOf(names);
  }

  private static String didYouMean(String key, List<String> names) {
    return InvalidSettingException.nearMiss(key, names)
        .map(n -> "; did you mean " + n + "?")
        .orElse("");
  }

  private static String describe(String scheme, RedisURI uri, String prefix) {
    StringBuilder sb = new StringBuilder(scheme).append("://");
    if (uri.getSentinels().isEmpty()) {
      sb.append(uri.getHost()).append(':').append(uri.getPort());
    } else {
      List<String> hosts = new ArrayList<>();
      for (RedisURI s : uri.getSentinels()) {
        hosts.add(s.getHost() + ":" + s.getPort());
      }
      sb.append(String.join(",", hosts));
    }
    if (uri.getDatabase() != 0) {
      sb.append('/').append(uri.getDatabase());
    }
    List<String> shown = new ArrayList<>();
    if (uri.getSentinelMasterId() != null) {
      shown.add("sentinelMasterId=" + uri.getSentinelMasterId());
    }
    if (!prefix.equals("snowid")) {
      shown.add("prefix=" + prefix);
    }
    if (!shown.isEmpty()) {
      sb.append('?').append(String.join("&", shown));
    }
    return sb.toString();
  }

  /** A message with every password of the URI (and of any URI it quotes) taken out. */
  String scrub(String message) {
    return Secrets.scrub(message, uri);
  }
}
