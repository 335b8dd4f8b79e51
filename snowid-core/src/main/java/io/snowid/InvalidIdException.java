package io.snowid;

/** An ID (a number or its text form) that cannot belong to the layout or format it was read as. */
public class InvalidIdException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final String input;
  private final String reason;

  public InvalidIdException(String input, String reason) {
    super("invalid id '" + input + "': " + reason);
    this.input = input;
    this.reason = reason;
  }

  /** The rejected input, as given. */
  public String input() {
    return input;
  }

  /** Why it was rejected. */
  public String reason() {
    return reason;
  }
}
