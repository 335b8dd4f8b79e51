package io.snowid.lease;

import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import io.snowid.node.HostEnvironment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Settings of a lease, read from the query of a coordinator URI: {@code
 * file:/var/lib/snowid?namespace=orders&ttl=10s&skew=1s}. Other keys stay in {@link #base()} for
 * the coordinator, which rejects those it does not know (with a "did you mean" for a misspelt lease
 * option: {@link #names()}, {@link io.snowid.InvalidSettingException#nearMiss}). A lease option
 * given twice is an error.
 *
 * @param base the URI without the lease options (what the coordinator itself reads)
 * @param namespace ids are unique within a namespace; default {@code default}
 * @param ttl how long a lease lives without renewal; renewed every third of it
 * @param skew the largest difference allowed between the coordinator's clock and this one
 * @param startWait how long a new holder may wait for its clock to pass the high-water mark
 * @param instance the identity that gets its previous id back after a restart
 * @param fields the node fields to lease; empty for the coordinator's default
 * @param renewEvery how often the lease is renewed; default a third of {@code ttl}, at most half
 * @param limits {@code maxTtl} (default 30 s) and {@code maxSkew} (default 5 s): the bounds every
 *     holder of the namespace is held to, {@code ttl} and {@code skew} within them; the default
 *     {@code startWait} is the wait after a registry's loss under them, {@link
 *     LeaseLimits#lossWait()}
 * @param connectWait how long a lease that starts retries a registry that does not answer yet
 *     (connection refused or timed out, still starting); default {@link #DEFAULT_CONNECT_WAIT},
 *     allowed 0 (fail at once) to 10 min; an unknown host or a refused password fails at once
 */
public record LeaseOptions(
    String base,
    String namespace,
    Duration ttl,
    Duration skew,
    Duration startWait,
    String instance,
    List<String> fields,
    Duration renewEvery,
    LeaseLimits limits,
    Duration connectWait) {
  /** How long a starting lease waits for a registry that does not answer yet, by default. */
  public static final Duration DEFAULT_CONNECT_WAIT = Duration.ofSeconds(30);

  private static final List<String> NAMES =
      List.of(
          "namespace",
          "ttl",
          "skew",
          "startWait",
          "instance",
          "fields",
          "renew",
          "maxTtl",
          "maxSkew",
          "connectWait");
  static final String KEYS = String.join(", ", NAMES);

  public LeaseOptions {
    fields = List.copyOf(fields);
  }

  /**
   * The names of the lease options, for a coordinator that names the one an unknown key of its
   * query misspells.
   */
  public static List<String> names() {
    return NAMES;
  }

  /**
   * Splits a coordinator URI into its base and lease options. Reads the whole query before anything
   * is opened.
   *
   * @param defaultTtl the coordinator's default lease time
   * @throws InvalidSettingException naming the option and its allowed range, or an option given
   *     twice
   */
  public static LeaseOptions parse(String uri, Duration defaultTtl) {
    int q = uri.indexOf('?');
    String base = q < 0 ? uri : uri.substring(0, q);
    String namespace = "default";
    Duration ttl = defaultTtl;
    Duration skew = Duration.ofSeconds(1);
    Duration startWait = null;
    Duration renew = null;
    Duration maxTtl = LeaseLimits.DEFAULT.maxTtl();
    Duration maxSkew = LeaseLimits.DEFAULT.maxSkew();
    Duration connectWait = DEFAULT_CONNECT_WAIT;
    String instance = defaultInstance();
    List<String> fields = new ArrayList<>();
    List<String> passThrough = new ArrayList<>();
    Set<String> given = new HashSet<>();
    if (q >= 0) {
      for (String pair : uri.substring(q + 1).split("&", -1)) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        if (NAMES.contains(key) && !given.add(key)) {
          throw new InvalidSettingException(
              key, value, "one " + key + "= in the URI (" + key + " is given twice)");
        }
        switch (key) {
          case "namespace" -> namespace = name("namespace", value);
          case "ttl" -> ttl = duration("ttl", value, Duration.ofMillis(300), Duration.ofHours(1));
          case "skew" -> skew = duration("skew", value, Duration.ZERO, Duration.ofMinutes(1));
          case "startWait" ->
              startWait = duration("startWait", value, Duration.ZERO, Duration.ofMinutes(10));
          case "instance" -> instance = name("instance", value);
          case "renew" ->
              renew = duration("renew", value, Duration.ofMillis(10), Duration.ofHours(1));
          case "maxTtl" ->
              maxTtl = duration("maxTtl", value, LeaseLimits.MIN_TTL, LeaseLimits.MAX_TTL);
          case "maxSkew" ->
              maxSkew = duration("maxSkew", value, Duration.ZERO, LeaseLimits.MAX_SKEW);
          case "connectWait" ->
              connectWait = duration("connectWait", value, Duration.ZERO, Duration.ofMinutes(10));
          case "fields" -> fields.addAll(Arrays.asList(value.split(",", -1)));
          default -> passThrough.add(pair);
        }
      }
    }
    if (!passThrough.isEmpty()) {
      base = base + "?" + String.join("&", passThrough);
    }
    LeaseLimits limits = new LeaseLimits(maxTtl, maxSkew);
    if (ttl.compareTo(maxTtl) > 0) {
      throw new InvalidSettingException(
          "ttl",
          LeaseLimits.text(ttl),
          "at most maxTtl "
              + LeaseLimits.text(maxTtl)
              + " (raise maxTtl on every holder of the namespace: after a registry loses its"
              + " state, newcomers wait maxTtl + 2 × maxSkew + 1s)");
    }
    if (skew.compareTo(maxSkew) > 0) {
      throw new InvalidSettingException(
          "skew",
          LeaseLimits.text(skew),
          "at most maxSkew "
              + LeaseLimits.text(maxSkew)
              + " (raise maxSkew on every holder of the namespace: after a registry loses its"
              + " state, newcomers wait maxTtl + 2 × maxSkew + 1s)");
    }
    if (startWait == null) {
      startWait = limits.lossWait();
    }
    if (renew == null) {
      renew = ttl.dividedBy(3);
    } else if (renew.compareTo(ttl.dividedBy(2)) > 0) {
      throw new InvalidSettingException(
          "renew",
          Durations.format(renew),
          "at most half the ttl "
              + Durations.format(ttl)
              + ", so that one failed renewal is survived");
    }
    return new LeaseOptions(
        base, namespace, ttl, skew, startWait, instance, fields, renew, limits, connectWait);
  }

  /** Host name and main class (or jar) of this process: stable across restarts of one service. */
  static String defaultInstance() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      host = HostEnvironment.system().hostName();
    }
    if (host.isEmpty()) {
      host = "localhost";
    }
    String command = System.getProperty("sun.java.command", "java").trim();
    int space = command.indexOf(' ');
    String main = space < 0 ? command : command.substring(0, space);
    main = main.substring(main.lastIndexOf('/') + 1);
    String id = (host + ":" + main).replaceAll("[^A-Za-z0-9._:-]", "_");
    return id.length() > 100 ? id.substring(0, 100) : id;
  }

  private static String name(String key, String value) {
    if (!LeaseNames.OPTION.matcher(value).matches()) {
      throw new InvalidSettingException(key, value, "1 to 100 of " + LeaseNames.CHARACTERS);
    }
    return value;
  }

  static Duration duration(String key, String value, Duration min, Duration max) {
    Duration d =
        Durations.parse(value)
            .orElseThrow(
                () ->
                    new InvalidSettingException(
                        key, value, "a duration like 500ms, 1.5s, 10s, 1m30s or 1h"));
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new InvalidSettingException(
          key, value, LeaseLimits.text(min) + " to " + LeaseLimits.text(max));
    }
    return d;
  }
}
