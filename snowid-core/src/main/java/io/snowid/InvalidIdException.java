package io.snowid;

/** An ID (a number or its text form) that cannot belong to the layout or format it was read as. */
public class InvalidIdException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final String input;

  public InvalidIdException(String input, String reason) {
    super("invalid id '" + input + "': " + reason);
    this.input = input;
  }

  /** The rejected input, as given. */
  public String input() {
    return input;
  }
}
