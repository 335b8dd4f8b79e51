package io.snowid.cli;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import picocli.CommandLine.Option;

/** {@code --layout}: a preset name or a spec string. */
final class LayoutOption {
  @Option(
      names = {"-l", "--layout"},
      paramLabel = "LAYOUT",
      defaultValue = "${env:SNOWID_LAYOUT:-twitter}",
      completionCandidates = Presets.class,
      description =
          "A preset (${COMPLETION-CANDIDATES}) or a spec such as"
              + " time=41,worker=10,sequence=12,epoch=2024-01-01T00:00:00Z"
              + " (env SNOWID_LAYOUT; default ${DEFAULT-VALUE}).")
  String layout;

  /** The layout; throws {@link io.snowid.InvalidSettingException} for a bad name or spec. */
  Layout get() {
    return Layout.preset(layout.trim());
  }

  /**
   * The layout, for issuing IDs now: an expired one ({@code baidu}) is bad input, named with its
   * last instant, since it can decode but never generate.
   */
  Layout forGenerating() {
    Layout l = get();
    if (!l.wraps() && l.remainingLifetime(Instant.now()).compareTo(Duration.ZERO) <= 0) {
      throw new InvalidSettingException(
          "layout",
          Errors.cut(layout.trim()),
          "a layout whose last instant is in the future; this one ended at "
              + l.lastInstant()
              + " and can only decode IDs");
    }
    return l;
  }

  /** The names of the presets, for help and shell completion. */
  static final class Presets implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Layout.presetNames().iterator();
    }
  }
}
