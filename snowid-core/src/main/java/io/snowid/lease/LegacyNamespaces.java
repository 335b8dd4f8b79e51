package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Refuses to lease beside live leases under the namespace keys of snowid before leases were keyed
 * by ID space: {@code <name>.<hash of the layout's spec>[.<leased field>…][.<fixed field><value>…]}
 * (e.g. {@code default.adc4e56c.worker.datacenter2}). Processes of that form and of this one would
 * not see each other's leases and could share node values. Nothing of that form was released; this
 * check stays until a first release and is the only code that knows the old form.
 */
final class LegacyNamespaces {
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  /** The old form after the name: the spec's hash, then field names (which may hold - and _). */
  private static final Pattern OLD = Pattern.compile("[0-9a-f]{1,8}(\\.[A-Za-z0-9_-]+)*");

  /** The end of every key of this form: the ID space's epoch and unit. */
  private static final Pattern NEW = Pattern.compile(".*-e-?[0-9]+-u[0-9]+(-w)?");

  private LegacyNamespaces() {}

  /** Whether {@code key} has the old form for the namespace name {@code name}. */
  static boolean isLegacy(String key, String name) {
    return key.startsWith(name + ".")
        && OLD.matcher(key.substring(name.length() + 1)).matches()
        && !NEW.matcher(key).matches();
  }

  /**
   * Throws if the coordinator holds a live lease under an old-form key of namespace {@code name}.
   *
   * @throws NodeIdUnavailableException naming the keys, how many leases each holds, and the steps
   */
  static void refuseLive(LeaseCoordinator coordinator, String name) {
    List<String> keys;
    try {
      keys = coordinator.namespaces();
    } catch (RegistryUnavailableException e) {
      throw e; // not answering yet: the start retries it (connectWait)
    } catch (NodeIdUnavailableException e) {
      // A registry too large to list in time (a SCAN of a big shared Redis): the check is for a
      // version never released, and must not keep a fleet from starting. The acquisition that
      // follows fails on its own if the registry is really out of reach.
      LOG.log(
          System.Logger.Level.WARNING,
          "not checked for leases of an earlier snowid: " + Secrets.scrub(e.getMessage()));
      return;
    }
    List<String> live = new ArrayList<>();
    for (String key : keys) {
      if (isLegacy(key, name)) {
        long held =
            coordinator.list(key).leases().stream()
                .filter(i -> i.state() == LeaseInfo.State.HELD)
                .count();
        if (held > 0) {
          live.add(key + " (" + held + " held)");
        }
      }
    }
    if (!live.isEmpty()) {
      throw new NodeIdUnavailableException(
          Secrets.scrub(coordinator.describe())
              + " has live leases of namespace "
              + name
              + " under keys of an earlier snowid ("
              + String.join(", ", live)
              + "), which keyed leases by configuration: its processes and this one would not see"
              + " each other's leases and could share node values. Stop or upgrade those processes"
              + " ('snowid leases --node URI' of that version lists them), let their leases expire,"
              + " then start this one");
    }
  }
}
