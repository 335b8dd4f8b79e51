package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A 400 says what a client wrote wrong in the words of the HTTP interface: the query parameter or
 * path, what it may be, an example; a near miss of a parameter name gets "did you mean".
 */
class ServerErrorWordsTest {
  private static SnowIdServer server;
  private static Http http;

  @BeforeAll
  static void start() {
    server =
        SnowIdServer.start(
            ServerConfig.defaults().withPort(0).withNode("static:worker=3,datacenter=1"));
    http = new Http(server);
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "ids|query parameter count is missing; allowed: 1..100000, the number of IDs (e.g."
            + " /ids?count=10)",
        "ids?count=abc|query parameter count = abc is invalid; allowed: 1..100000, the number of"
            + " IDs (e.g. /ids?count=10)",
        "ids?count=0|query parameter count = 0 is invalid; allowed: 1..100000, the number of IDs"
            + " (e.g. /ids?count=10)",
        "ids?cuont=5|unknown query parameter 'cuont'; did you mean count? allowed: count, format",
        "id?fromat=hex|unknown query parameter 'fromat'; did you mean format? allowed: format",
        "id?format=hexa|query parameter format = hexa is invalid; allowed: one of decimal, hex,"
            + " base32, base32check, base36, base62, base62-legacy, base64url; did you mean hex? (e.g."
            + " /id?format=hex)",
        "decode/|no id after /decode/ (e.g. /decode/1541815603606036480)",
        "decode/1?layout=twiter|query parameter layout = twiter is invalid; allowed: a spec string"
            + " or one of twitter, westid,",
        "decode/1?layout=twitter&format=hexx|query parameter format = hexx is invalid; allowed:"
            + " one of decimal,",
        "range?to=2026-11-27|query parameter from is missing; allowed: an ISO-8601 instant"
            + " (2026-11-27T08:00:00Z) or a date (2026-11-27) (e.g."
            + " /range?from=2026-11-27T00:00:00Z&to=2026-11-27T23:59:59.999Z)",
        "range?from=yesterday&to=2026-11-27|query parameter from = yesterday is invalid; allowed:"
            + " an ISO-8601 instant (2026-11-27T08:00:00Z) or a date (2026-11-27)",
        "range?from=2026-11-28&to=2026-11-27|query parameter from = 2026-11-28T00:00:00Z is"
            + " invalid; allowed: an instant not after to (2026-11-27T00:00:00Z)",
        "range?from=2001-01-01&to=2026-11-27|query parameter from = 2001-01-01T00:00:00Z is"
            + " invalid; allowed: 2010-11-04T01:42:54.657Z..2080-07-10T17:30:30.208Z, the lifetime"
            + " of layout",
        "range?from=2026-11-27&to=2026-11-27&layout=int32|layout = time=21,worker=5,sequence=5,",
        "range?from=2016-12-31&to=2016-12-31T23:59:60Z|query parameter to = 2016-12-31T23:59:60Z is"
            + " invalid; allowed: no leap second (:60); an ISO-8601 instant",
        "range?form=2026-11-27|unknown query parameter 'form'; did you mean from? allowed: from, to,"
            + " layout",
      })
  void aBadRequest_isExplainedInTheTermsOfTheHttpInterface(String path, String error) {
    HttpResponse<String> r = http.get(path);

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.body()).startsWith("{\"error\":\"" + error.replace("\"", "\\\""));
    assertThat(r.body()).doesNotContain("= missing").doesNotContain("Exception");
  }
}
