package io.snowid.cli;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseNamespace;
import io.snowid.lease.LeaseOptions;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.Secrets;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code snowid leases}: the node ids of a lease coordinator's namespace, who holds them and until
 * when; {@code snowid leases release ID} frees the id of a holder that is gone.
 */
@Command(
    name = "leases",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    subcommands = LeasesCommand.Release.class,
    description = {
      "List the node ids of a lease coordinator: node values, holder instance and host, state"
          + " (HELD, EXPIRED, RELEASED), expiry and high-water mark. Changes nothing.",
      "The namespace is the one a generator with the same --node, --layout and environment"
          + " (SNOWID_<FIELD>_ID) leases from: run it with the service's settings."
    })
final class LeasesCommand extends SnowIdSubcommand {
  @Mixin LayoutOption layout;
  @Mixin NodeOption node;

  @Option(
      names = "--json",
      defaultValue = "${env:SNOWID_JSON:-false}",
      description = "One JSON object: the namespace, the coordinator's clock and the leases.")
  boolean json;

  @Override
  public Integer call() {
    Logs.configure(verbose, verbose);
    Target target = Target.of(node.get(), layout.get());
    LeaseListing listing;
    try (LeaseCoordinator c = target.open()) {
      listing = c.list(target.namespace.key());
      if (json) {
        out().println(json(target, Secrets.scrub(c.describe()), listing));
      } else {
        table(target, Secrets.scrub(c.describe()), listing, out());
      }
    }
    flushOut();
    return 0;
  }

  /** The coordinator and namespace that {@code --node} and {@code --layout} name. */
  record Target(String uri, LeaseNamespace namespace) {
    static Target of(String uri, Layout layout) {
      String lower = uri.toLowerCase(Locale.ROOT);
      if (lower.equals("auto") || lower.startsWith("static:")) {
        throw new InvalidSettingException(
            "node",
            Errors.cut(uri),
            "a lease coordinator URI (file:DIR, redis://…): auto and static: values are not"
                + " leased");
      }
      return new Target(uri, LeaseCoordinators.namespace(uri, layout, Map.of()));
    }

    /** Opens the coordinator, without the URI's lease options (which only the holders use). */
    LeaseCoordinator open() {
      LeaseCoordinatorProvider provider = LeaseCoordinators.provider(uri);
      return provider.open(LeaseOptions.parse(uri, provider.defaultTtl()).base());
    }

    /** The node values of an id; empty for an id outside the namespace's range. */
    Map<String, Long> values(long nodeId) {
      return nodeId >= 0 && nodeId < namespace.size() ? namespace.values(nodeId) : Map.of();
    }
  }

  private static void table(
      Target target, String coordinator, LeaseListing listing, PrintWriter out) {
    Layout layout = target.namespace.layout();
    out.println("namespace    " + target.namespace.key());
    out.println("coordinator  " + coordinator);
    out.println(
        "now          " + Instant.ofEpochMilli(listing.coordinatorNowMillis()) + " (its clock)");
    listing
        .state()
        .ifPresent(
            st -> {
              out.println("limits       " + st.limits());
              out.println("newest write " + time(st.newestWriteMillis()));
              if (st.lostUntilMillis() > listing.coordinatorNowMillis()) {
                out.println(
                    "lost until   "
                        + time(st.lostUntilMillis())
                        + " (a loss of the registry's state was found: no ID until then)");
              }
            });
    out.println();
    if (listing.leases().isEmpty()) {
      out.println("no node id of this namespace has a record");
      return;
    }
    List<String> header = new ArrayList<>(List.of("NODE ID"));
    for (Layout.Field f : layout.nodeFields()) {
      header.add(f.name().toUpperCase(Locale.ROOT));
    }
    header.addAll(List.of("INSTANCE", "HOST", "STATE", "EXPIRES (UTC)", "HIGH-WATER (UTC)"));
    Table table = new Table(header);
    for (LeaseInfo i : listing.leases()) {
      List<String> row = new ArrayList<>(List.of(Long.toString(i.nodeId())));
      Map<String, Long> values = target.values(i.nodeId());
      for (Layout.Field f : layout.nodeFields()) {
        Long v = values.get(f.name());
        row.add(v == null ? "-" : v.toString());
      }
      row.add(i.instance().isEmpty() ? "-" : i.instance());
      row.add(i.host().isEmpty() ? "-" : i.host());
      row.add(i.state().name());
      row.add(time(i.expiresAtMillis()));
      row.add(time(i.highWaterMillis()));
      table.add(row);
    }
    table.print(out);
  }

  /**
   * An instant, or {@code -} for none ({@link Long#MIN_VALUE}) or unknown ({@link Long#MAX_VALUE}).
   */
  private static String time(long millis) {
    return millis == Long.MIN_VALUE || millis == Long.MAX_VALUE
        ? "-"
        : Instant.ofEpochMilli(millis).toString();
  }

  private static String json(Target target, String coordinator, LeaseListing listing) {
    StringBuilder sb = new StringBuilder("{");
    field(sb, "namespace", target.namespace.key()).append(',');
    field(sb, "coordinator", coordinator).append(',');
    field(sb, "now", time(listing.coordinatorNowMillis())).append(',');
    listing
        .state()
        .ifPresent(
            st -> {
              sb.append("\"limits\":{");
              field(sb, "maxTtl", LeaseLimits.text(st.limits().maxTtl())).append(',');
              field(sb, "maxSkew", LeaseLimits.text(st.limits().maxSkew())).append("},");
              field(sb, "newestWrite", timeOrNull(st.newestWriteMillis())).append(',');
              field(sb, "lostUntil", timeOrNull(st.lostUntilMillis())).append(',');
            });
    sb.append("\"leases\":[");
    for (LeaseInfo i : listing.leases()) {
      sb.append(sb.charAt(sb.length() - 1) == '[' ? "" : ",").append("{\"nodeId\":");
      sb.append(i.nodeId()).append(",\"values\":{");
      String comma = "";
      for (Map.Entry<String, Long> v : target.values(i.nodeId()).entrySet()) {
        sb.append(comma);
        string(sb, v.getKey()).append(':').append(v.getValue());
        comma = ",";
      }
      sb.append("},");
      field(sb, "instance", i.instance()).append(',');
      field(sb, "host", i.host()).append(',');
      field(sb, "state", i.state().name()).append(',');
      field(sb, "expiresAt", timeOrNull(i.expiresAtMillis())).append(',');
      field(sb, "highWater", timeOrNull(i.highWaterMillis())).append('}');
    }
    return sb.append("]}").toString();
  }

  private static String timeOrNull(long millis) {
    String t = time(millis);
    return t.equals("-") ? null : t;
  }

  private static StringBuilder field(StringBuilder sb, String name, String value) {
    string(sb, name).append(':');
    return value == null ? sb.append("null") : string(sb, value);
  }

  /** A JSON string: quotes, backslashes and control characters escaped. */
  private static StringBuilder string(StringBuilder sb, String s) {
    sb.append('"');
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"');
  }

  /** {@code snowid leases release ID}: frees the id of a holder that is provably gone. */
  @Command(
      name = "release",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Mark a node id released whose holder is gone (killed, or its host lost), keeping its"
            + " high-water mark: the next holder takes it at once and still starts after"
            + " everything the old one may have issued.",
        "Refused (exit code 2) while the holder may be alive: for file:, its lease file is locked"
            + " or its record names a running process whose lease has not expired; for a network"
            + " coordinator, its lease has not expired by the registry's clock."
      })
  static final class Release extends SnowIdSubcommand {
    @Parameters(paramLabel = "ID", description = "The node id, as snowid leases lists it.")
    String id;

    @Mixin LayoutOption layout;
    @Mixin NodeOption node;

    @Override
    public Integer call() {
      Logs.configure(verbose, verbose);
      Target target = Target.of(node.get(), layout.get());
      long size = target.namespace.size();
      long nodeId;
      try {
        nodeId = Long.parseLong(id.trim());
      } catch (NumberFormatException e) {
        nodeId = -1;
      }
      if (nodeId < 0 || nodeId >= size) {
        throw new InvalidSettingException("id", Errors.cut(id), "0.." + (size - 1));
      }
      String key = target.namespace.key();
      String what = "node id " + nodeId + " " + target.values(nodeId) + " of namespace " + key;
      try (LeaseCoordinator c = target.open()) {
        LeaseInfo before = find(c.list(key), nodeId);
        if (before == null) {
          out().println(what + " has no record: nothing to release");
        } else if (before.state() == LeaseInfo.State.RELEASED) {
          out().println(what + " is released already");
        } else {
          try {
            c.releaseAbandoned(key, nodeId);
          } catch (LeaseTakenException e) {
            err()
                .println(
                    "snowid: "
                        + what
                        + " not released: "
                        + e.detail()
                        + "; only the id of a holder that is gone is released");
            err().flush();
            return Errors.BAD_INPUT;
          }
          LeaseInfo after = find(c.list(key), nodeId);
          out()
              .println(
                  "released "
                      + what
                      + "; its high-water mark "
                      + time(after == null ? before.highWaterMillis() : after.highWaterMillis())
                      + " is kept: its next holder starts after it");
        }
      }
      flushOut();
      return 0;
    }

    private static LeaseInfo find(LeaseListing listing, long nodeId) {
      for (LeaseInfo i : listing.leases()) {
        if (i.nodeId() == nodeId) {
          return i;
        }
      }
      return null;
    }
  }
}
