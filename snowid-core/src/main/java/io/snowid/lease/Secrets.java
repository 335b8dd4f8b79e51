package io.snowid.lease;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials out of what snowid shows: messages, logs, listings and health reports. Every place
 * that prints a node source URI, a coordinator's description or a message that may quote one passes
 * it through {@link #scrub}; what an unauthenticated reader sees names a source by {@link
 * #schemeAndHost}.
 *
 * <p>The forms {@link #scrub} knows, wherever they stand in a text:
 *
 * <ul>
 *   <li>the userinfo of {@code scheme://user:password@host} and {@code scheme://password@host}
 *       ({@code redis://}, {@code rediss://}, {@code redis-sentinel://}, {@code jdbc:mysql://}, …):
 *       removed whole, up to the last {@code @} before the host, so a password with an unencoded
 *       {@code / # ? @ : ; ( )} goes with it; a URI whose host cannot be told loses everything up
 *       to its last {@code @}. An {@code @} in a JDBC URL's query value ({@code
 *       ?user=admin@server}) and in a {@code file:} path is no userinfo's;
 *   <li>the value of every key that names a secret ({@code password}, {@code sslpassword}, {@code
 *       trustStorePassword}, H2's {@code PASSWORD} and {@code FILE_PASSWORD}, any key containing
 *       {@code password}, {@code passwd}, {@code pwd}, {@code secret} or {@code token}, in any
 *       case) in a query ({@code ?k=v&k=v}, a value ends at an {@code &} before the next key),
 *       after {@code ;} (H2, a value ends at a {@code ;} before the next key), in MariaDB's and
 *       MySQL's {@code address=(k=v)(k=v)} and {@code (k=v,k=v)} forms (a value ends at the {@code
 *       )} that closes it; spaces around its {@code =} are the driver's to trim), or standing
 *       alone: replaced by {@code ***}.
 * </ul>
 *
 * <p>The passwords of the URIs given to {@link #scrub(String, String...)} are masked wherever a
 * message quotes them, and so are their pieces between {@code ( ) = , ; & / @ : # ?} of four
 * characters or more (a driver that cannot parse a URI quotes the rest of it); one shorter than
 * eight characters only as a word of its own, so that a short token does not mask every letter it
 * shares with a message. The placeholder {@code redis://[user:password@]host} of help texts is no
 * userinfo.
 */
public final class Secrets {
  private static final String MASK = "***";

  /** A key that names a secret, and its {@code =}. */
  private static final Pattern SECRET_KEY =
      Pattern.compile(
          "(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token)[A-Za-z0-9_.-]*"
              + "\\s*=",
          Pattern.CASE_INSENSITIVE);

  /** Where a next key starts: a name and its {@code =}. */
  private static final Pattern NEXT_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*\\s*=");

  /**
   * Where an address's next property starts: a name of two characters or more and its {@code =}.
   */
  private static final Pattern NEXT_PROPERTY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]+\\s*=");

  /** One host of a list, with its port: {@code db.internal:5432}, {@code [::1]:6379}. */
  private static final String HOST = "(?:\\[[0-9A-Za-z:.%]*\\]|[A-Za-z0-9._~%-]+)(?::[0-9]{1,5})?";

  /** A host list at the start of a text: what follows a userinfo's {@code @}. */
  private static final Pattern HOSTS = Pattern.compile(HOST + "(?:," + HOST + ")*");

  /** What can follow a host list: nothing, or a character no host has. */
  private static final Pattern AFTER_HOSTS = Pattern.compile("[^A-Za-z0-9._~%@&=:\\[-]");

  /** The schemes a URI starts with: {@code redis:}, {@code jdbc:postgresql:}, {@code file:}. */
  private static final Pattern SCHEMES = Pattern.compile("((?:[A-Za-z][A-Za-z0-9+.-]*:)+)(.*)");

  private static final Pattern KEYED_HOST =
      Pattern.compile("(?<=[(,])host=([^(),\\s/]*)", Pattern.CASE_INSENSITIVE);
  private static final Pattern KEYED_PORT =
      Pattern.compile("(?<=[(,])port=([0-9]{1,5})", Pattern.CASE_INSENSITIVE);

  /**
   * A secret shorter than this is masked only where it stands as a word of its own: masking every
   * {@code a} of a message for a token {@code a} would mangle it and show where the token's
   * characters occur.
   */
  private static final int WHOLE_WORD_BELOW = 8;

  /** The characters a driver may split a password at when it quotes a piece of it. */
  private static final Pattern SPLITS = Pattern.compile("[()=,;&/@:#?]");

  /** Pieces of a password shorter than this are not masked alone. */
  private static final int MIN_PIECE = 4;

  /** The userinfo of the placeholder {@code redis://[user:password@]host}, in help texts. */
  private static final String PLACEHOLDER = "[user:password@";

  private Secrets() {}

  /**
   * {@code text} with the credentials of every URI in it removed (see the class comment for the
   * forms), and with every password of {@code uris} (as written and percent-decoded) replaced by
   * {@code ***} wherever it stands, for a message that quotes one alone (a driver's or Lettuce's).
   *
   * @param text a URI, or a message, log line or stack trace that may quote URIs; null is ""
   * @param uris the URIs whose passwords the text may quote alone (the node source a failure is
   *     about); nulls and texts without a password are skipped
   */
  public static String scrub(String text, String... uris) {
    String s = text == null ? "" : text;
    Set<String> secrets = new LinkedHashSet<>();
    for (String uri : uris == null ? new String[0] : uris) {
      if (uri != null) {
        secrets.addAll(passwords(uri));
      }
    }
    List<String> longestFirst = new ArrayList<>(secrets);
    longestFirst.sort(Comparator.comparingInt(String::length).reversed());
    for (String secret : longestFirst) {
      s =
          secret.length() >= WHOLE_WORD_BELOW
              ? s.replace(secret, MASK)
              : s.replaceAll(
                  "(?<![A-Za-z0-9])" + Pattern.quote(secret) + "(?![A-Za-z0-9])",
                  Matcher.quoteReplacement(MASK));
    }
    List<int[]> removed = new ArrayList<>();
    List<int[]> masked = new ArrayList<>();
    find(s, removed, masked);
    return render(s, removed, masked);
  }

  /**
   * Where a node source is, for a reader who may not see more: the scheme and the host (and port)
   * of the URI a text starts with, and the text's further words, scrubbed: {@code
   * redis://10.0.0.5:6379}, {@code jdbc:postgresql://db.internal:5432 node id 3}, {@code
   * jdbc:mariadb://127.0.0.1:3306} for an {@code address=(host=…)(port=…)} form, {@code
   * redis-sentinel://s1:26379,s2:26380}; a URI without a host keeps its path ({@code
   * file:/var/lib/snowid}, {@code jdbc:h2:mem:ids}) without its settings or query. No user,
   * password, database, query or fragment. A text that starts with no URI ({@code static}, {@code
   * system property snowid.worker-id}) is returned {@linkplain #scrub scrubbed}.
   */
  public static String schemeAndHost(String source) {
    // scrubbed first: a masked (password = ***) leaves the address form's ( ) balanced
    String s = scrub(source == null ? "" : source);
    int space = 0;
    while (space < s.length() && !Character.isWhitespace(s.charAt(space))) {
      space++;
    }
    int balanced = 0; // (password = ***) in an address form is one word, if its ( ) balance
    int depth = 0;
    while (balanced < s.length() && (depth > 0 || !Character.isWhitespace(s.charAt(balanced)))) {
      char c = s.charAt(balanced);
      depth = c == '(' ? depth + 1 : c == ')' ? Math.max(0, depth - 1) : depth;
      balanced++;
    }
    if (depth == 0) {
      space = balanced;
    }
    String first = s.substring(0, space);
    String rest = s.substring(space);
    Matcher m = SCHEMES.matcher(first);
    if (!m.matches()) {
      return first + rest;
    }
    String scheme = m.group(1);
    String after = m.group(2);
    if (scheme.equalsIgnoreCase("file:")) {
      return scheme + after.split("[?#]", 2)[0] + rest;
    }
    if (!after.startsWith("//")) {
      int at = after.lastIndexOf('@');
      String path = after.substring(at + 1);
      return scheme + path.split("[;?#]", 2)[0] + rest;
    }
    return scheme + "//" + hosts(after.substring(2)) + rest;
  }

  /** The hosts of an authority (userinfo already removed), keyed forms included. */
  private static String hosts(String authority) {
    int depth = 0;
    int end = 0;
    while (end < authority.length()) {
      char c = authority.charAt(end);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      } else if (depth == 0 && (c == '/' || c == '?' || c == '#' || c == ';')) {
        break;
      }
      end++;
    }
    String region = authority.substring(0, end);
    if (region.indexOf('(') >= 0) {
      List<String> found = new ArrayList<>();
      for (String part : region.split("(?i)(?=address=)|(?<=\\)),(?=\\()")) {
        Matcher h = KEYED_HOST.matcher(part);
        if (h.find()) {
          Matcher p = KEYED_PORT.matcher(part);
          found.add(h.group(1) + (p.find() ? ":" + p.group(1) : ""));
        }
      }
      return String.join(",", found);
    }
    Matcher h = HOSTS.matcher(region);
    return h.lookingAt() ? h.group() : "";
  }

  /** The ranges of {@code s} to remove (userinfo, with its @) and to mask (secret values). */
  private static void find(String s, List<int[]> removed, List<int[]> masked) {
    Matcher k = SECRET_KEY.matcher(s);
    while (k.find()) {
      int start = k.end();
      char context = k.start() == 0 ? ' ' : s.charAt(k.start() - 1);
      while (context == '('
          && start < s.length()
          && (s.charAt(start) == ' ' || s.charAt(start) == '\t')) {
        start++; // (password = value): the driver trims the value; prose "token = x" is no URI
      }
      int end = valueEnd(s, start, context);
      if (end > start) {
        masked.add(new int[] {start, end});
      }
    }
    for (int i = s.indexOf("//"); i >= 0; i = s.indexOf("//", i + 2)) {
      if (schemeIs(s, i, "file:")) {
        continue; // a path: file:///srv/app@blue/leases
      }
      int a = i + 2;
      int e = a;
      while (e < s.length() && !Character.isWhitespace(s.charAt(e))) {
        e++;
      }
      int at = userinfoEnd(s, a, e, masked);
      if (at >= 0 && !(s.startsWith(PLACEHOLDER, a) && at == a + PLACEHOLDER.length() - 1)) {
        removed.add(new int[] {a, at + 1});
      }
    }
  }

  /**
   * Where the value of a secret key that starts at {@code start} ends, by what stands before the
   * key: {@code ?}/{@code &} a query, {@code ;} settings, {@code (} an address, {@code ,} a keyed
   * host list; else the end of the word.
   */
  private static int valueEnd(String s, int start, char context) {
    int end = start;
    while (end < s.length() && !Character.isWhitespace(s.charAt(end))) {
      char c = s.charAt(end);
      boolean nextKey = NEXT_KEY.matcher(s).region(end + 1, s.length()).lookingAt();
      switch (context) {
        case '?', '&' -> {
          if (c == '&' && nextKey) {
            return end;
          }
        }
        case ';' -> {
          if (c == ';' && nextKey) {
            return end;
          }
        }
        case '(', ',' -> {
          if (context == ',' && c == ',' && nextKey) {
            return end;
          }
          if (c == ')' && closes(s, end + 1, context == '(')) {
            return end;
          }
        }
        default -> {
          // a word: to its end
        }
      }
      end++;
    }
    return end;
  }

  /**
   * Whether a {@code )} followed by {@code s[i..]} closes a value: the next key's {@code (} (in an
   * {@code address=(k=v)(k=v)} form), the next address, or the path (after which no {@code )}
   * follows).
   */
  private static boolean closes(String s, int i, boolean address) {
    if (i >= s.length() || Character.isWhitespace(s.charAt(i))) {
      return true;
    }
    char c = s.charAt(i);
    if (c == '(' && address) {
      return NEXT_PROPERTY.matcher(s).region(i + 1, s.length()).lookingAt();
    }
    if (c == ',') {
      return s.startsWith("(", i + 1) || NEXT_KEY.matcher(s).region(i + 1, s.length()).lookingAt();
    }
    if (c == '/') {
      for (int j = i; j < s.length() && !Character.isWhitespace(s.charAt(j)); j++) {
        if (s.charAt(j) == ')') {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * The {@code @} that ends the userinfo of the authority starting at {@code a} (the word ends at
   * {@code e}); -1 if it has none. The last {@code @} outside a secret value that a host list
   * follows, but not one in a query value of a JDBC URL with a plain host and a path ({@code
   * ?user=admin@server}); failing that the last {@code @}, so a malformed userinfo goes whole.
   */
  private static int userinfoEnd(String s, int a, int e, List<int[]> masked) {
    int naive = a;
    while (naive < e && "/?#".indexOf(s.charAt(naive)) < 0) {
      naive++;
    }
    boolean queryMayHoldAt =
        naive < e
            && s.charAt(naive) == '/'
            && HOSTS.matcher(s).region(a, naive).matches()
            && schemeIs(s, a - 2, "jdbc:");
    int last = -1;
    for (int p = e - 1; p >= a; p--) {
      if (s.charAt(p) != '@' || inside(p, masked)) {
        continue;
      }
      Matcher h = HOSTS.matcher(s).region(p + 1, e);
      boolean hosts =
          h.lookingAt() && (h.end() == e || AFTER_HOSTS.matcher(s).region(h.end(), e).lookingAt());
      if (queryMayHoldAt && inQueryValue(s, naive, p) && !(hosts && located(s, h, e))) {
        continue;
      }
      if (hosts) {
        return p;
      }
      if (last < 0) {
        last = p;
      }
    }
    return last;
  }

  /** Whether a host list has a port, or a path, query or more after it: a server's address. */
  private static boolean located(String s, Matcher hosts, int e) {
    return hosts.group().indexOf(':') >= 0
        || (hosts.end() < e && "/?,;".indexOf(s.charAt(hosts.end())) >= 0);
  }

  /** Whether the {@code //} at {@code slashes} follows a scheme that starts with {@code scheme}. */
  private static boolean schemeIs(String s, int slashes, String scheme) {
    int start = slashes;
    while (start > 0 && "+.:-".indexOf(s.charAt(start - 1)) >= 0
        || start > 0 && Character.isLetterOrDigit(s.charAt(start - 1))) {
      start--;
    }
    return s.regionMatches(true, start, scheme, 0, scheme.length());
  }

  /** Whether {@code p} lies in a {@code key=value} of the query that starts after {@code naive}. */
  private static boolean inQueryValue(String s, int naive, int p) {
    int q = s.indexOf('?', naive);
    if (q < 0 || q > p) {
      return false;
    }
    int segment = Math.max(s.lastIndexOf('&', p), q);
    return s.substring(segment + 1, p).indexOf('=') > 0;
  }

  private static boolean inside(int p, List<int[]> ranges) {
    for (int[] r : ranges) {
      if (p >= r[0] && p < r[1]) {
        return true;
      }
    }
    return false;
  }

  /** {@code s} with the removed ranges left out and the masked ones as {@code ***}. */
  private static String render(String s, List<int[]> removed, List<int[]> masked) {
    boolean[] gone = new boolean[s.length()];
    boolean[] mask = new boolean[s.length()];
    for (int[] r : removed) {
      for (int i = r[0]; i < r[1]; i++) {
        gone[i] = true;
      }
    }
    for (int[] r : masked) {
      for (int i = r[0]; i < r[1]; i++) {
        mask[i] = true;
      }
    }
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      if (gone[i]) {
        continue;
      }
      if (mask[i]) {
        if (i == 0 || !mask[i - 1] || gone[i - 1]) {
          sb.append(MASK);
        }
        continue;
      }
      sb.append(s.charAt(i));
    }
    return sb.toString();
  }

  /** The passwords of a URI, as written and percent-decoded: what {@link #find} takes out. */
  private static List<String> passwords(String uri) {
    List<int[]> removed = new ArrayList<>();
    List<int[]> masked = new ArrayList<>();
    find(uri, removed, masked);
    List<String> found = new ArrayList<>();
    boolean redis = uri.toLowerCase(Locale.ROOT).startsWith("redis");
    for (int[] r : removed) {
      String userinfo = uri.substring(r[0], r[1] - 1);
      int colon = userinfo.indexOf(':');
      if (colon >= 0) {
        add(found, userinfo.substring(colon + 1));
      }
      if (colon >= 0 || redis) {
        add(found, userinfo); // Lettuce reads a userinfo without : as the password
      }
    }
    for (int[] r : masked) {
      add(found, uri.substring(r[0], r[1]));
    }
    return found;
  }

  private static void add(List<String> found, String password) {
    if (password.isEmpty()) {
      return;
    }
    found.add(password);
    for (String piece : SPLITS.split(password)) {
      if (piece.length() >= MIN_PIECE && piece.length() < password.length()) {
        found.add(piece); // a driver that could not parse the URI may quote the rest of it
      }
    }
    try {
      String decoded = URLDecoder.decode(password, StandardCharsets.UTF_8);
      if (!decoded.isEmpty()) {
        found.add(decoded);
      }
    } catch (IllegalArgumentException e) {
      // a stray %: the password as written is all there is
    }
  }
}
