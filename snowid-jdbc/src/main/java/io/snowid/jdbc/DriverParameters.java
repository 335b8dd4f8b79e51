package io.snowid.jdbc;

import io.snowid.InvalidSettingException;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parameters of a JDBC lease URI that are not snowid's: each must be one the driver takes, so
 * that a misspelt {@code namespace=} is an error instead of a parameter the driver ignores while
 * the process leases in the default namespace. Checked before any connection.
 *
 * <p>What a driver takes is what it lists in {@link Driver#getPropertyInfo}, compared as the driver
 * compares: exactly for PostgreSQL (pgjdbc lists every property it has and reads each by its exact
 * name), ignoring case for the others. The MariaDB driver takes a few names more than it lists
 * ({@link #MARIADB_UNLISTED}). H2 lists nothing and reads no query at all: its settings follow
 * {@code ;} in the URL (a query parameter would become part of the database's name), and it refuses
 * a setting it does not know itself, before it opens a database ({@link #refusedSetting}).
 */
final class DriverParameters {
  /**
   * Parameters the MariaDB driver reads but does not list: the switch that lets it take {@code
   * jdbc:mysql:} URLs, the deprecated TLS switches it still maps to {@code sslMode} (its {@code
   * Configuration.handleLegacySslSettings}) and the MySQL Connector/J names it reads as aliases
   * (its {@code OptionAliases}). It compares names ignoring case.
   */
  private static final List<String> MARIADB_UNLISTED =
      List.of(
          "permitMysqlScheme",
          "useSsl",
          "trustServerCertificate",
          "disableSslHostnameVerification",
          "clientCertificateKeyStoreUrl",
          "clientCertificateKeyStorePassword",
          "clientCertificateKeyStoreType",
          "trustCertificateKeyStoreUrl",
          "trustCertificateKeyStorePassword",
          "trustCertificateKeyStoreType",
          "nullCatalogMeansCurrent",
          "databaseTerm");

  /** H2's error code for a {@code ;KEY=value} setting it does not know. */
  private static final int H2_UNSUPPORTED_SETTING = 90113;

  private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

  private DriverParameters() {}

  /**
   * Refuses the first parameter of {@code settings} that {@code driver} does not take.
   *
   * @param driver the driver of the URL; null if there is none on the class path: then only a
   *     misspelling of snowid's options (and on H2 any parameter) is refused, and the missing
   *     driver is the caller's error
   * @throws InvalidSettingException naming the parameter, with a "did you mean" among snowid's
   *     names and the driver's
   */
  static void require(JdbcSettings settings, Driver driver) {
    Dialect dialect = settings.dialect();
    List<String> takes =
        dialect == Dialect.H2 || driver == null ? List.of() : takenBy(driver, settings.url());
    if (takes == null) {
      return; // the driver cannot read the URL: it says why when connecting, before any lease
    }
    boolean ignoreCase = dialect != Dialect.POSTGRESQL;
    for (String key : settings.driverParameters()) {
      if (takes.stream().anyMatch(t -> ignoreCase ? t.equalsIgnoreCase(key) : t.equals(key))) {
        continue;
      }
      List<String> names = new ArrayList<>(JdbcSettings.SNOWID_OPTIONS);
      names.addAll(takes);
      String meant = JdbcSettings.didYouMean(key, names);
      if (driver == null && dialect != Dialect.H2 && meant.isEmpty()) {
        continue; // perhaps the driver's: the missing driver is the error
      }
      String own = "snowid's options " + String.join(", ", JdbcSettings.SNOWID_OPTIONS);
      String allowed =
          dialect == Dialect.H2
              ? own
                  + " (H2 reads no other query parameter: its own settings follow ; in the URL,"
                  + " as in jdbc:h2:mem:ids;DB_CLOSE_DELAY=-1)"
              : own + " and the parameters the " + dialect + " driver" + declared(driver, takes);
      throw new InvalidSettingException("node", key, allowed + meant);
    }
  }

  private static String declared(Driver driver, List<String> takes) {
    if (driver == null) {
      return " declares";
    }
    return " " + driver.getClass().getName() + " declares" + (takes.isEmpty() ? " (none)" : "");
  }

  /** What {@code driver} takes, or null if it cannot read the URL (a value it refuses). */
  private static List<String> takenBy(Driver driver, String url) {
    List<String> names = new ArrayList<>();
    try {
      for (DriverPropertyInfo info : driver.getPropertyInfo(url, new Properties())) {
        names.add(info.name);
      }
    } catch (SQLException | RuntimeException e) {
      return null;
    }
    if (driver.getClass().getName().startsWith("org.mariadb.jdbc.")) {
      names.addAll(MARIADB_UNLISTED);
    }
    return names;
  }

  /**
   * An H2 setting after {@code ;} that H2 refused when connecting ({@code ;NAMEPSACE=orders}, or
   * snowid's {@code ;namespace=orders}, which belongs in the query), as a setting error naming it;
   * null if {@code e} is something else.
   */
  static InvalidSettingException refusedSetting(JdbcSettings settings, Throwable e) {
    if (settings.dialect() != Dialect.H2) {
      return null;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getErrorCode() == H2_UNSUPPORTED_SETTING) {
        Matcher m = QUOTED.matcher(String.valueOf(sql.getMessage()));
        String name = m.find() ? asWritten(settings.url(), m.group(1)) : "(a setting after ;)";
        return new InvalidSettingException(
            "node",
            name,
            "H2's own settings after ; and snowid's options "
                + String.join(", ", JdbcSettings.SNOWID_OPTIONS)
                + " in the query (?namespace=NAME&table=NAME)"
                + JdbcSettings.didYouMean(name, JdbcSettings.SNOWID_OPTIONS));
      }
    }
    return null;
  }

  /** An H2 setting's name as the URL writes it (H2 names it in upper case). */
  private static String asWritten(String url, String upper) {
    int q = url.indexOf('?');
    for (String part : (q < 0 ? url : url.substring(0, q)).split(";")) {
      int eq = part.indexOf('=');
      String key = (eq < 0 ? part : part.substring(0, eq)).strip();
      if (key.equalsIgnoreCase(upper)) {
        return key;
      }
    }
    return upper;
  }
}
