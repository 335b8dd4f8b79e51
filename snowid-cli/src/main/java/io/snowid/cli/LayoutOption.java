package io.snowid.cli;

import io.snowid.Layout;
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

  /** The names of the presets, for help and shell completion. */
  static final class Presets implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Layout.presetNames().iterator();
    }
  }
}
