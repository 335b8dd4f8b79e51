package io.snowid.server;

/** A request that gets an error status and a JSON message; carries no stack trace. */
final class HttpError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  HttpError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  int status() {
    return status;
  }

  static HttpError badRequest(String message) {
    return new HttpError(400, message);
  }
}
