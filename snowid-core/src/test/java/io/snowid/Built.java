package io.snowid;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The generators a test built, closed after it ({@code @RegisterExtension}): a generator left open
 * holds its node values in the JVM, and the next test that builds the same ones is refused or, if
 * the first one's lease lapsed, starts past what it issued.
 */
final class Built implements AfterEachCallback {
  private final List<Snowflake> generators = new ArrayList<>();

  /** Keeps {@code generator} to close after the test; returns it. */
  Snowflake keep(Snowflake generator) {
    generators.add(generator);
    return generator;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    generators.forEach(Snowflake::close);
    generators.clear();
  }
}
