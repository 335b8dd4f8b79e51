package io.snowid.lease;

import io.snowid.InvalidSettingException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What to tell a user whose node URI no provider on the class path opens: the schemes that are
 * there, the one a misspelt scheme most likely means, and the module that brings a scheme that is
 * not there. Schemes are written as the user writes them: {@code file:}, {@code redis://}, {@code
 * jdbc:postgresql:}.
 */
final class Schemes {
  /** Schemes of snowid's own modules, and the Maven coordinates that bring each. */
  private static final Map<String, String> MODULES = modules();

  /** A scheme's name (RFC 3986), or with {@code jdbc:} its sub-protocol too. */
  private static final String WORD = "[a-z][a-z0-9+.-]*(?::[a-z][a-z0-9+.-]*)?";

  private Schemes() {}

  private static Map<String, String> modules() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String s : List.of("redis://", "rediss://", "redis-sentinel://")) {
      m.put(s, "io.snowid:snowid-redis");
    }
    for (String s : List.of("jdbc:postgresql:", "jdbc:mariadb:", "jdbc:mysql:", "jdbc:h2:")) {
      m.put(s, "io.snowid:snowid-jdbc");
    }
    m.put("zookeeper://", "io.snowid:snowid-zookeeper");
    m.put("zk://", "io.snowid:snowid-zookeeper");
    m.put("etcd://", "io.snowid:snowid-etcd");
    return m;
  }

  /**
   * The allowed form for a URI that no provider supports.
   *
   * @param uri the URI as given
   * @param available the schemes of the providers found
   */
  static String unsupported(String uri, Collection<String> available) {
    TreeSet<String> here = new TreeSet<>(available);
    String schemesHere =
        "a node URI of a scheme on the class path (" + String.join(", ", here) + ")";
    String given = schemeOf(uri);
    String module = MODULES.get(given);
    if (module != null && !here.contains(given)) {
      return schemesHere + "; " + given + " needs the module " + module + " on the class path";
    }
    String name = given.isEmpty() ? uri.toLowerCase(Locale.ROOT).trim() : bare(given);
    if (!name.matches(WORD)) {
      return schemesHere;
    }
    Optional<String> near = suggest(name, here);
    if (near.isPresent()) {
      return schemesHere + "; did you mean " + near.get() + "?";
    }
    List<String> elsewhere = new ArrayList<>(MODULES.keySet());
    elsewhere.removeAll(here);
    return suggest(name, elsewhere)
        .map(
            s ->
                schemesHere
                    + "; did you mean "
                    + s
                    + "? It needs the module "
                    + MODULES.get(s)
                    + " on the class path")
        .orElse(schemesHere);
  }

  /**
   * The scheme a URI starts with, lower case, as a user writes it: {@code redis://} for {@code
   * redis://h}, {@code jdbc:oracle:} for {@code jdbc:oracle:thin:@h}, {@code file:} for {@code
   * file:/d}; empty if it has none.
   */
  static String schemeOf(String uri) {
    String lower = uri.toLowerCase(Locale.ROOT);
    int colon = lower.indexOf(':');
    if (colon <= 0 || !lower.substring(0, colon).matches(WORD)) {
      return "";
    }
    String scheme = lower.substring(0, colon + 1);
    if (scheme.equals("jdbc:")) {
      int next = lower.indexOf(':', colon + 1);
      return next < 0 ? scheme : lower.substring(0, next + 1);
    }
    return lower.startsWith("//", colon + 1) ? scheme + "//" : scheme;
  }

  /**
   * The scheme of {@code known} that the bare name {@code name} means: the same name written with
   * other punctuation ({@code redis:} for {@code redis://}), else its nearest near miss.
   */
  private static Optional<String> suggest(String name, Collection<String> known) {
    for (String k : known) {
      if (bare(k).equals(name)) {
        return Optional.of(k);
      }
    }
    List<String> bare = new ArrayList<>();
    for (String k : known) {
      bare.add(bare(k));
    }
    return InvalidSettingException.nearMiss(name, bare)
        .map(b -> known.stream().filter(k -> bare(k).equals(b)).findFirst().orElseThrow());
  }

  private static String bare(String scheme) {
    return scheme.replace("//", "").replaceAll(":$", "");
  }
}
