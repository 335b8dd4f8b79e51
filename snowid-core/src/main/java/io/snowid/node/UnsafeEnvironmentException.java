package io.snowid.node;

/**
 * snowid refuses to choose node values by itself where the choice could not be safe: inside
 * Kubernetes, with no StatefulSet ordinal, no explicit node id and no network coordinator, every
 * pod would choose alike. The message names what was found and the settings that make it safe.
 */
public class UnsafeEnvironmentException extends NodeIdUnavailableException {
  private static final long serialVersionUID = 1L;

  private final String environment;
  private final String fix;

  /**
   * @param environment where this runs and how it was recognised, e.g. {@code "a Kubernetes pod
   *     (KUBERNETES_SERVICE_HOST is set)"}
   * @param problem why no safe choice exists there
   * @param fix the settings that would make it safe
   */
  public UnsafeEnvironmentException(String environment, String problem, String fix) {
    super("no safe node id in " + environment + ": " + problem + "; " + fix);
    this.environment = environment;
    this.fix = fix;
  }

  /** Where this runs and how it was recognised. */
  public String environment() {
    return environment;
  }

  /** The settings that would make it safe. */
  public String fix() {
    return fix;
  }
}
