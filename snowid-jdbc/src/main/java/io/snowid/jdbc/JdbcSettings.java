package io.snowid.jdbc;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseOptions;
import io.snowid.lease.Secrets;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A JDBC lease URI (or the options for an application's {@code DataSource}), split into what the
 * driver reads and what the coordinator reads ({@code table}, {@code create}). snowid's lease
 * options ({@code namespace}, {@code ttl}, …) were removed before (see {@link
 * LeaseOptions#base()}).
 *
 * <p>Every parameter is snowid's or one the driver takes ({@link DriverParameters}), and none is
 * given twice: a misspelt {@code namespace=} is an error, not a parameter the driver ignores while
 * the process leases in the default namespace.
 *
 * <p>The driver gets the URL with the query's other parameters exactly as written (passwords
 * included, never decoded or re-encoded: each driver reads its URL its own way), so none of
 * snowid's options reaches the driver and every value reaches it as it would without snowid. The
 * pool masks passwords in the URL it logs; snowid's messages show {@link #describe} and {@link
 * #scrub} every password of the URL out of a driver's message.
 *
 * @param url the JDBC URL without snowid's options; null for an application's DataSource
 * @param dialect the database, by the URL's subprotocol; null for a DataSource (read at open)
 * @param driverParameters the names of the driver's parameters in the query, passwords included
 * @param table the lease table's name, optionally with a schema ({@code leases.snowid_leases})
 * @param create whether snowid creates the table when it is missing
 * @param describe the URL without credentials, query or H2 settings: safe for logs and messages
 */
record JdbcSettings(
    String url,
    Dialect dialect,
    List<String> driverParameters,
    String table,
    boolean create,
    String describe) {
  static final String DEFAULT_TABLE = "snowid_leases";

  static final String FORM =
      "jdbc:postgresql://HOST[:PORT]/DB, jdbc:mariadb://…, jdbc:mysql://… or jdbc:h2:…, with the"
          + " driver's own parameters and the options table=NAME and create=true|false in the query";

  private static final Pattern TABLE =
      Pattern.compile("(?:[A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

  /** The coordinator's own options. */
  private static final List<String> COORDINATOR_OPTIONS = List.of("table", "create");

  /** Every name of snowid's in the query: the lease options and the coordinator's. */
  static final List<String> SNOWID_OPTIONS = snowidOptions();

  JdbcSettings {
    driverParameters = List.copyOf(driverParameters);
  }

  /** Whether a URI is one of ours. */
  static boolean supports(String uri) {
    return Dialect.ofUrl(uri) != null;
  }

  /**
   * Parses a JDBC lease URI (without snowid's lease options).
   *
   * @throws InvalidSettingException naming the option or the form, without a password; for a
   *     password with an unencoded character that makes a driver read a part of it as the host, a
   *     parameter or another part of the URL
   */
  static JdbcSettings parse(String uri) {
    Dialect dialect = Dialect.ofUrl(uri);
    if (dialect == null) {
      throw new InvalidSettingException("node", "(not a JDBC URL of snowid's)", FORM);
    }
    String shown = Secrets.scrub(uri);
    refuseMalformedUserinfo(uri, shown);
    int q = uri.indexOf('?');
    String location = q < 0 ? uri : uri.substring(0, q);
    List<String> names = new ArrayList<>();
    List<String> inUrl = new ArrayList<>();
    Options own = new Options();
    Set<String> given = new HashSet<>();
    if (q >= 0) {
      for (String pair : uri.substring(q + 1).split("&", -1)) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String written = eq < 0 ? pair : pair.substring(0, eq);
        String key = decode(written);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        if (!shown.contains("?" + written) && !shown.contains("&" + written)) {
          throw malformed(shown, "& in a password as %26");
        }
        // the MariaDB/MySQL drivers read names whatever their case: USER= repeats user=
        if (!given.add(dialect == Dialect.POSTGRESQL ? key : key.toLowerCase(Locale.ROOT))) {
          throw givenTwice(key);
        }
        if (own.read(key, value)) {
          continue;
        }
        names.add(key);
        inUrl.add(pair);
      }
    }
    String url = inUrl.isEmpty() ? location : location + "?" + String.join("&", inUrl);
    String describe = describeUrl(uri) + tableSuffix(own.table);
    return new JdbcSettings(url, dialect, names, own.table, own.create, describe);
  }

  /**
   * The options for an application's DataSource: {@code table=NAME&create=true} (a leading {@code
   * ?} is allowed; snowid's lease options may be there too and are left to {@link LeaseOptions}).
   *
   * @throws InvalidSettingException naming an unknown option or a bad value
   */
  static JdbcSettings forDataSource(String options) {
    String query = options == null ? "" : options.strip();
    if (query.startsWith("?")) {
      query = query.substring(1);
    }
    // LeaseOptions takes (and checks) its own keys; what it passes through is ours to read.
    String rest = LeaseOptions.parse("datasource?" + query, Duration.ofSeconds(10)).base();
    Options own = new Options();
    Set<String> given = new HashSet<>();
    int q = rest.indexOf('?');
    if (q >= 0) {
      for (String pair : rest.substring(q + 1).split("&", -1)) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        if (!given.add(key)) {
          throw givenTwice(key);
        }
        if (!own.read(key, eq < 0 ? "" : pair.substring(eq + 1))) {
          throw new InvalidSettingException(
              "options",
              key,
              "table=NAME, create=true|false and snowid's lease options"
                  + didYouMean(key, SNOWID_OPTIONS));
        }
      }
    }
    return new JdbcSettings(
        null, null, List.of(), own.table, own.create, "DataSource" + tableSuffix(own.table));
  }

  private static InvalidSettingException givenTwice(String key) {
    return new InvalidSettingException(
        "node", key, "each parameter once (" + key + " is given twice)");
  }

  /** {@code "; did you mean NAME?"} for a near miss of {@code names}, or "". */
  static String didYouMean(String key, List<String> names) {
    return InvalidSettingException.nearMiss(key, names)
        .map(n -> "; did you mean " + n + "?")
        .orElse("");
  }

  private static List<String> snowidOptions() {
    List<String> names = new ArrayList<>(LeaseOptions.names());
    names.addAll(COORDINATOR_OPTIONS);
    return List.copyOf(names);
  }

  /** This setting with another description (a DataSource's, once its URL is known). */
  JdbcSettings describedAs(String description, Dialect detected) {
    return new JdbcSettings(url, detected, driverParameters, table, create, description);
  }

  /** What a description shows of the options: the table, unless it is the default. */
  String tableSuffix() {
    return tableSuffix(table);
  }

  private static String tableSuffix(String table) {
    return table.equals(DEFAULT_TABLE) ? "" : "?table=" + table;
  }

  /** A message with every password of the URL (and of any URL it quotes) taken out. */
  String scrub(String message) {
    return Secrets.scrub(message, url);
  }

  /**
   * Refuses a {@code //user:password@host} whose password holds an unencoded {@code / ? #}: a
   * driver would read a part of it as the host. {@code shown} is the URI scrubbed.
   */
  private static void refuseMalformedUserinfo(String uri, String shown) {
    int a = uri.indexOf("//");
    if (a < 0) {
      return;
    }
    int end = a + 2;
    while (end < uri.length() && "/?#;".indexOf(uri.charAt(end)) < 0) {
      end++;
    }
    String authority = uri.substring(a + 2, end);
    if (authority.indexOf('(') >= 0 || authority.indexOf('=') >= 0) {
      return; // an address=(…) form: its values are scrubbed as values
    }
    String host = authority.substring(authority.lastIndexOf('@') + 1);
    if (!shown.contains("//" + host)) {
      throw malformed(shown, "/ ? # @ in a user or password as %2F %3F %23 %40");
    }
  }

  private static InvalidSettingException malformed(String shown, String encode) {
    return new InvalidSettingException("node", shown, FORM + ", with " + encode);
  }

  /**
   * A JDBC URL as it may be shown: without its query (credentials and options), its H2 settings
   * ({@code ;PASSWORD=…}) or the credentials of a {@code //user:password@host} form.
   */
  static String describeUrl(String url) {
    String s = Secrets.scrub(url);
    int q = s.indexOf('?');
    if (q >= 0) {
      s = s.substring(0, q);
    }
    if (s.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
      int semi = s.indexOf(';');
      if (semi >= 0) {
        s = s.substring(0, semi);
      }
    }
    return s;
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s; // a stray % is taken as it is, as the drivers do
    }
  }

  /** The coordinator's own options. */
  private static final class Options {
    String table = DEFAULT_TABLE;
    boolean create;

    /** Reads an option of ours; false if the key is not one. */
    boolean read(String key, String value) {
      switch (key) {
        case "table" -> {
          if (!TABLE.matcher(value).matches()) {
            throw new InvalidSettingException(
                "table",
                value,
                "a table name of letters, digits and _ (not starting with a digit, at most 63),"
                    + " optionally after a schema name and a dot");
          }
          table = value;
          return true;
        }
        case "create" -> {
          if (!value.equals("true") && !value.equals("false")) {
            throw new InvalidSettingException("create", value, "true or false");
          }
          create = value.equals("true");
          return true;
        }
        default -> {
          return false;
        }
      }
    }
  }
}
