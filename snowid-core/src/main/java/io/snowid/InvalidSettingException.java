package io.snowid;

/**
 * A setting (builder option, layout spec part, system property, environment variable) has a value
 * outside its allowed range. Thrown before anything is built or changed.
 */
public class InvalidSettingException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final String setting;
  private final String value;
  private final String allowed;

  /**
   * @param setting the name the user wrote, e.g. {@code "worker"} or {@code "layout.epoch"}
   * @param value the offending value as the user wrote it
   * @param allowed the allowed range or form, e.g. {@code "0..31"}
   */
  public InvalidSettingException(String setting, Object value, String allowed) {
    super(setting + " = " + value + " is invalid; allowed: " + allowed);
    this.setting = setting;
    this.value = String.valueOf(value);
    this.allowed = allowed;
  }

  public String setting() {
    return setting;
  }

  public String value() {
    return value;
  }

  public String allowed() {
    return allowed;
  }
}
