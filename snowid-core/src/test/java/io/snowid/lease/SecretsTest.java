package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SecretsTest {
  /**
   * Letters that only passwords use: no scheme, key, host, user or database name below has one, so
   * any of them in a scrubbed text is a piece of a password.
   */
  private static final String SECRET_LETTERS = "xzGJNQTVXZ";

  private static final String SPECIALS = "/#@:;()?&=%0123456789";

  private static final List<String> HOSTS =
      List.of("db.internal", "127.0.0.1", "cache-1.local", "[::1]", "mariadb-2.svc");
  private static final List<String> USERS = List.of("app", "root", "svc");
  private static final List<String> DATABASES = List.of("test", "ids", "app");
  private static final List<String> PASSWORD_KEYS =
      List.of(
          "password",
          "PASSWORD",
          "sslpassword",
          "sslKeyPassword",
          "trustStorePassword",
          "keyStorePassword",
          "clientCertificateKeyStorePassword");

  /** A URL in one form, its password, and what must survive scrubbing. */
  private record Case(String url, String password, List<String> kept) {}

  /** One form: a URL around a password, from random host, port, user and database. */
  private interface Form {
    Case make(Random r, String password);
  }

  private static final List<Form> FORMS =
      List.of(
          // userinfo, every character raw: a password with / # ? @ : ; ( ) makes the URI malformed
          (r, pw) -> userinfo(r, "redis://", pw, true),
          (r, pw) -> userinfo(r, "rediss://", pw, true),
          (r, pw) -> userinfo(r, "jdbc:mysql://", pw, true),
          (r, pw) -> userinfo(r, "jdbc:mariadb://", pw, true),
          (r, pw) -> userinfo(r, "redis://", pw, false), // redis://password@host
          (r, pw) -> {
            String h1 = pick(r, HOSTS);
            String h2 = pick(r, HOSTS);
            int p1 = port(r);
            int p2 = port(r);
            String user = r.nextBoolean() ? "" : pick(r, USERS) + ":";
            String tail = r.nextBoolean() ? "/0#mymaster" : "/0?sentinelMasterId=mymaster";
            return new Case(
                "redis-sentinel://" + user + pw + "@" + h1 + ":" + p1 + "," + h2 + ":" + p2 + tail,
                pw,
                List.of(h1 + ":" + p1 + "," + h2 + ":" + p2 + "/0", "mymaster"));
          },
          // a key in the query: & (which ends a value for every driver) percent-encoded
          (r, pw) -> {
            String host = pick(r, HOSTS);
            int port = port(r);
            String db = pick(r, DATABASES);
            String key = pick(r, PASSWORD_KEYS);
            String user = pick(r, USERS);
            String before = r.nextBoolean() ? "user=" + user + "&" : "";
            String after = r.nextBoolean() ? "&sslmode=require" : "";
            String value = pw.replace("&", "%26");
            String scheme = pick(r, List.of("jdbc:postgresql://", "jdbc:mariadb://", "redis://"));
            return new Case(
                scheme + host + ":" + port + "/" + db + "?" + before + key + "=" + value + after,
                value,
                List.of(
                    host + ":" + port + "/" + db + "?" + before + key + "=***" + after, scheme));
          },
          // H2's settings: a password cannot hold ; there
          (r, pw) -> {
            String host = pick(r, HOSTS);
            String db = pick(r, DATABASES);
            String value = pw.replace(";", "");
            String key = r.nextBoolean() ? "PASSWORD" : "FILE_PASSWORD";
            String more = r.nextBoolean() ? ";DB_CLOSE_DELAY=-1" : "";
            return new Case(
                "jdbc:h2:tcp://" + host + "/" + db + ";USER=sa;" + key + "=" + value + more,
                value,
                List.of("jdbc:h2:tcp://" + host + "/" + db + ";USER=sa;" + key + "=***" + more));
          },
          // MariaDB's address form, one or two addresses
          (r, pw) -> {
            String h1 = pick(r, HOSTS);
            int p1 = port(r);
            String db = pick(r, DATABASES);
            String second =
                r.nextBoolean()
                    ? ""
                    : ",address=(host=" + pick(r, HOSTS) + ")(port=" + port(r) + ")";
            String first =
                "address=(host=" + h1 + ")(port=" + p1 + ")(user=" + pick(r, USERS) + ")";
            String eq = r.nextBoolean() ? "=" : " = "; // the driver trims the value
            return new Case(
                "jdbc:mariadb://" + first + "(password" + eq + pw + ")" + second + "/" + db,
                pw,
                List.of(first + "(password" + eq + "***)" + second + "/" + db));
          },
          // MySQL's keyed host form
          (r, pw) -> {
            String h1 = pick(r, HOSTS);
            int p1 = port(r);
            String db = pick(r, DATABASES);
            return new Case(
                "jdbc:mysql://(host=" + h1 + ",port=" + p1 + ",password=" + pw + ")/" + db,
                pw,
                List.of("(host=" + h1 + ",port=" + p1 + ",password=***)/" + db));
          });

  private static Case userinfo(Random r, String scheme, String pw, boolean withUser) {
    String host = pick(r, HOSTS);
    int port = port(r);
    String db = pick(r, DATABASES);
    String user = withUser ? pick(r, USERS) + ":" : "";
    boolean withPort = r.nextBoolean();
    String at = host + (withPort ? ":" + port : "");
    return new Case(scheme + user + pw + "@" + at + "/" + db, pw, List.of(scheme + at + "/" + db));
  }

  @Test
  void scrub_everyForm_randomPasswords_neverShown_andTheRestKept() {
    Random r = new Random(0x5ec7e75L);
    for (int i = 0; i < 2_000; i++) {
      String pw = password(r);
      Case c = FORMS.get(i % FORMS.size()).make(r, pw);
      String out = Secrets.scrub(c.url());
      assertNoPassword(out, c, "scrub of " + c.url());
      for (String kept : c.kept()) {
        assertThat(out).as("scrub of %s", c.url()).contains(kept);
      }
      // in a message, beside other words
      String message = "cannot reach " + c.url() + " (connection refused)";
      String scrubbed = Secrets.scrub(message);
      assertNoPassword(scrubbed, c, "message " + message);
      assertThat(scrubbed).startsWith("cannot reach ").endsWith(" (connection refused)");
      // a driver's message that quotes the password alone
      String quoted = Secrets.scrub("bad password " + c.password() + " for user", c.url());
      assertNoPassword(quoted, c, "quoted, with the URL " + c.url());
      // for the unauthenticated
      String where = Secrets.schemeAndHost(c.url() + " node id 3");
      assertNoPassword(where, c, "schemeAndHost of " + c.url());
      assertThat(where).endsWith(" node id 3");
    }
  }

  private static void assertNoPassword(String out, Case c, String what) {
    assertThat(out).as(what).doesNotContain(c.password());
    for (char ch : SECRET_LETTERS.toCharArray()) {
      assertThat(out)
          .as("%s: a piece of the password %s", what, c.password())
          .doesNotContain("" + ch);
    }
  }

  @Test
  void scrub_malformedUserinfo_removedWhole() {
    assertThat(Secrets.scrub("redis://:S3cr3t/pw@127.0.0.1:16393 is invalid"))
        .isEqualTo("redis://127.0.0.1:16393 is invalid");
    assertThat(Secrets.scrub("redis://:ab#cd@h:1")).isEqualTo("redis://h:1");
    assertThat(Secrets.scrub("redis://u:a@b/c?d@cache:6379/2")).isEqualTo("redis://cache:6379/2");
    assertThat(Secrets.scrub("jdbc:mysql://root:p(w);x@db:3306/app"))
        .isEqualTo("jdbc:mysql://db:3306/app");
    // no host after any @: everything up to the last goes
    assertThat(Secrets.scrub("redis://u:secret@@")).isEqualTo("redis://");
  }

  @Test
  void scrub_namedForms() {
    assertThat(
            Secrets.scrub(
                "jdbc:mariadb://address=(host=127.0.0.1)(port=3306)(user=root)(password=S3cr3t)/test"))
        .isEqualTo(
            "jdbc:mariadb://address=(host=127.0.0.1)(port=3306)(user=root)(password=***)/test");
    assertThat(Secrets.scrub("jdbc:h2:tcp://db/ids;USER=sa;PASSWORD=a;FILE_PASSWORD=b"))
        .isEqualTo("jdbc:h2:tcp://db/ids;USER=sa;PASSWORD=***;FILE_PASSWORD=***");
    assertThat(Secrets.scrub("jdbc:postgresql://h/db?user=a&sslpassword=k&password=s&ssl=true"))
        .isEqualTo("jdbc:postgresql://h/db?user=a&sslpassword=***&password=***&ssl=true");
    assertThat(Secrets.scrub("jdbc:postgresql://h/db?password=s&y=1"))
        .isEqualTo("jdbc:postgresql://h/db?password=***&y=1");
    assertThat(Secrets.scrub("redis-sentinel://pw@s1:26379,s2:26380/0#mymaster"))
        .isEqualTo("redis-sentinel://s1:26379,s2:26380/0#mymaster");
    assertThat(Secrets.scrub("no uri here, password 42")).isEqualTo("no uri here, password 42");
    assertThat(Secrets.scrub("file:///srv/app@blue/leases"))
        .isEqualTo("file:///srv/app@blue/leases");
    assertThat(Secrets.scrub(null)).isEmpty();
  }

  /** An @ in a JDBC URL's query (Azure's user=admin@server) is not a userinfo's. */
  @Test
  void scrub_atInAJdbcQuery_keepsTheHost() {
    assertThat(
            Secrets.scrub(
                "jdbc:postgresql://pg.example:5432/app?user=admin@pg&password=s&sslmode=require"))
        .isEqualTo(
            "jdbc:postgresql://pg.example:5432/app?user=admin@pg&password=***&sslmode=require");
    assertThat(Secrets.scrub("jdbc:postgresql://pg:5432/app?password=s&user=admin@pg"))
        .isEqualTo("jdbc:postgresql://pg:5432/app?password=***&user=admin@pg");
  }

  @Test
  void scrub_passwordsOfTheUris_quotedAlone() {
    assertThat(Secrets.scrub("auth failed for s3cr@t and s3cr%40t", "redis://u:s3cr%40t@h:1"))
        .isEqualTo("auth failed for *** and ***");
    assertThat(Secrets.scrub("Access denied for user 'root'", "jdbc:mariadb://root@h/db"))
        .as("a JDBC user is no secret")
        .isEqualTo("Access denied for user 'root'");
    assertThat(Secrets.scrub("NOAUTH pw-1", "redis://pw-1@h")).isEqualTo("NOAUTH ***");
  }

  @Test
  void scrub_addressFormWithSpacesAroundTheEquals_masked() {
    String uri = "jdbc:mariadb://address=(host=127.0.0.1)(port=3306)(password = Zq20Leak)/db";

    assertThat(Secrets.scrub(uri)).doesNotContain("Zq20Leak").contains("(password = ***)/db");
    assertThat(Secrets.schemeAndHost(uri + " node id 0"))
        .isEqualTo("jdbc:mariadb://127.0.0.1:3306 node id 0");
  }

  @Test
  void scrub_pieceOfAPasswordQuotedByADriver_masked() {
    String uri = "jdbc:mariadb://address=(host=h)(port=1)(password=Zq4)Leak)/db";

    assertThat(Secrets.scrub("expected key=value pairs, found Leak)", uri))
        .isEqualTo("expected key=value pairs, found ***)");
  }

  @Test
  void scrub_helpTextWithTheUserinfoPlaceholder_kept() {
    String help = "allowed: redis://[user:password@]host[:port][/db]";

    assertThat(Secrets.scrub(help)).isEqualTo(help);
    assertThat(Secrets.scrub("redis://[user:S3cret@]host:6379")).doesNotContain("S3cret");
  }

  @Test
  void scrub_shortSecret_maskedOnlyAsAWordOfItsOwn() {
    assertThat(Secrets.scrub("Unmatched argument at index 2: 'b'", "--token=a"))
        .isEqualTo("Unmatched argument at index 2: 'b'");
    assertThat(Secrets.scrub("bad token 'a'", "--token=a")).isEqualTo("bad token '***'");
    assertThat(Secrets.scrub("token = (blank) is invalid", "--token="))
        .as("prose, no URI: the setting's placeholder stays")
        .isEqualTo("token = (blank) is invalid");
  }

  @Test
  void schemeAndHost_namesTheServerOnly() {
    assertThat(Secrets.schemeAndHost("redis://u:pw@10.0.0.5:6379/2?prefix=x"))
        .isEqualTo("redis://10.0.0.5:6379");
    assertThat(Secrets.schemeAndHost("jdbc:postgresql://db.internal:5432/app?table=t node id 0"))
        .isEqualTo("jdbc:postgresql://db.internal:5432 node id 0");
    assertThat(
            Secrets.schemeAndHost(
                "jdbc:mariadb://address=(host=127.0.0.1)(port=3306)(user=root)(password=S3cr3t)/test"))
        .isEqualTo("jdbc:mariadb://127.0.0.1:3306");
    assertThat(Secrets.schemeAndHost("jdbc:mysql://(host=a,port=1,password=p),(host=b,port=2)/db"))
        .isEqualTo("jdbc:mysql://a:1,b:2");
    assertThat(Secrets.schemeAndHost("redis-sentinel://s1:26379,s2:26380/1?sentinelMasterId=m"))
        .isEqualTo("redis-sentinel://s1:26379,s2:26380");
    assertThat(Secrets.schemeAndHost("file:/var/lib/snowid node id 4"))
        .isEqualTo("file:/var/lib/snowid node id 4");
    assertThat(Secrets.schemeAndHost("file:///srv/app@blue/leases?ttl=5s"))
        .isEqualTo("file:///srv/app@blue/leases");
    assertThat(Secrets.schemeAndHost("jdbc:h2:mem:ids;PASSWORD=x?table=t"))
        .isEqualTo("jdbc:h2:mem:ids");
    assertThat(Secrets.schemeAndHost("static")).isEqualTo("static");
    assertThat(Secrets.schemeAndHost("system property snowid.worker-id"))
        .isEqualTo("system property snowid.worker-id");
  }

  private static String password(Random r) {
    int length = 6 + r.nextInt(11);
    StringBuilder sb = new StringBuilder();
    boolean letter = false;
    for (int i = 0; i < length; i++) {
      boolean secretLetter = r.nextInt(2) == 0;
      letter |= secretLetter;
      String from = secretLetter ? SECRET_LETTERS : SPECIALS;
      sb.append(from.charAt(r.nextInt(from.length())));
    }
    if (!letter) {
      sb.append(SECRET_LETTERS.charAt(r.nextInt(SECRET_LETTERS.length())));
    }
    return sb.toString();
  }

  private static int port(Random r) {
    return 1024 + r.nextInt(60_000);
  }

  private static <T> T pick(Random r, List<T> from) {
    return from.get(r.nextInt(from.size()));
  }
}
