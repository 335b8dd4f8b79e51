package io.snowid.shardingsphere;

import io.snowid.InvalidSettingException;
import java.util.List;
import java.util.Optional;

/**
 * A property that the {@code SNOWID} key generator does not have. Its value is not repeated: a
 * misspelt {@code node} can hold a password.
 */
final class UnknownPropertyException extends InvalidSettingException {
  private static final long serialVersionUID = 1L;

  UnknownPropertyException(String name, List<String> known, Optional<String> meant) {
    super(
        name,
        "(not shown)",
        String.join(", ", known),
        "unknown property '"
            + name
            + "' of the "
            + SnowIdKeyGenerateAlgorithm.TYPE
            + " key generator"
            + meant.map(m -> "; did you mean " + m + "?").orElse("")
            + " (its properties: "
            + String.join(", ", known)
            + ")");
  }
}
