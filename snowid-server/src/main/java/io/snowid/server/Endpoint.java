package io.snowid.server;

/** The routes, as named in metrics. */
enum Endpoint {
  ID("/id"),
  IDS("/ids"),
  DECODE("/decode"),
  RANGE("/range"),
  HEALTH("/health"),
  METRICS("/metrics"),
  OTHER("other"),
  /** Refused by Jetty before routing: malformed (400), URI or headers too long (414, 431), … */
  REJECTED("rejected");

  static final String DECODE_PREFIX = "/decode/";

  final String tag;

  Endpoint(String tag) {
    this.tag = tag;
  }

  static Endpoint of(String path) {
    if (path == null) {
      return OTHER;
    }
    return switch (path) {
      case "/id" -> ID;
      case "/ids" -> IDS;
      case "/range" -> RANGE;
      case "/health" -> HEALTH;
      case "/metrics" -> METRICS;
      default -> path.startsWith(DECODE_PREFIX) ? DECODE : OTHER;
    };
  }
}
