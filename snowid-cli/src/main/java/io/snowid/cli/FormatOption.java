package io.snowid.cli;

import io.snowid.codec.IdCodec;
import java.util.Iterator;
import picocli.CommandLine.Option;

/** {@code --format}: a text form of IDs. */
final class FormatOption {
  @Option(
      names = {"-f", "--format"},
      paramLabel = "FORM",
      defaultValue = "${env:SNOWID_FORMAT}",
      completionCandidates = Forms.class,
      description = "The text form: ${COMPLETION-CANDIDATES} (env SNOWID_FORMAT).")
  String format;

  /** The codec named, or {@code fallback} when none was. */
  IdCodec getOr(IdCodec fallback) {
    return format == null || format.isBlank() ? fallback : IdCodec.named(format.trim());
  }

  /** The names of the codecs, for help and shell completion. */
  static final class Forms implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return IdCodec.names().iterator();
    }
  }
}
