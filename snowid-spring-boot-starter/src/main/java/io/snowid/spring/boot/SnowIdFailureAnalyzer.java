package io.snowid.spring.boot;

import io.snowid.InvalidSettingException;
import io.snowid.SnowIdException;
import io.snowid.lease.Secrets;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Says why the application did not start when snowid could not build its generator: a setting no
 * one handles, or no node id to be had (a lease coordinator out of reach, every id held).
 */
final class SnowIdFailureAnalyzer extends AbstractFailureAnalyzer<SnowIdException> {
  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, SnowIdException cause) {
    String description =
        "snowid could not start its ID generator: " + Secrets.scrub(cause.getMessage());
    if (cause instanceof InvalidSettingException s) {
      return new FailureAnalysis(
          description,
          "Correct "
              + s.setting()
              + " (now "
              + Secrets.scrub(s.value())
              + "); allowed: "
              + Secrets.scrub(s.allowed())
              + ".",
          cause);
    }
    return new FailureAnalysis(
        description,
        "Make the node source of "
            + nodeProperty(rootFailure)
            + " reachable, or choose another one: without a node id"
            + " no ID can be issued safely, so the application does not start.",
        cause);
  }

  /** {@code snowid.node}, or a named generator's node when its bean failed. */
  private static String nodeProperty(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BeanCreationException b
          && b.getBeanName() != null
          && b.getBeanName().startsWith("snowIdNode.")) {
        return GeneratorNames.prefix(b.getBeanName().substring("snowIdNode.".length())) + "node";
      }
    }
    return "snowid.node";
  }
}
