package io.snowid;

/** The root of every exception snowid throws on purpose. Unchecked: callers rarely recover. */
public class SnowIdException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SnowIdException(String message) {
    super(message);
  }

  public SnowIdException(String message, Throwable cause) {
    super(message, cause);
  }
}
