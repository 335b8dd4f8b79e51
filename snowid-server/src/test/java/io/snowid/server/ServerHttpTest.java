package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.DecodedId;
import io.snowid.Layout;
import io.snowid.codec.IdCodec;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every endpoint and every error path, through HTTP only. */
class ServerHttpTest {
  private static final Layout TWITTER = Layout.twitter();
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

  private static void assertJsonError(HttpResponse<String> r, int status, String containing) {
    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.body()).startsWith("{\"error\":\"").endsWith("\"}").contains(containing);
    assertThat(r.body())
        .doesNotContain("Exception")
        .doesNotContain("\tat ")
        .doesNotContain("jetty");
  }

  private static DecodedId decodeLine(String line, IdCodec codec) {
    return TWITTER.decode(codec.decode(line));
  }

  @Test
  void id_noFormat_returnsOneDecimalIdAsTextWithThisNode() {
    HttpResponse<String> r = http.get("id");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain;charset=utf-8");
    assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(r.body()).matches("[1-9][0-9]{0,18}\n");
    DecodedId d = decodeLine(r.body().strip(), IdCodec.DECIMAL);
    assertThat(d.fields()).containsEntry("worker", 3L).containsEntry("datacenter", 1L);
  }

  @Test
  void id_twoRequests_returnIncreasingIds() {
    long first = Long.parseLong(http.get("id").body().strip());
    long second = Long.parseLong(http.get("id").body().strip());

    assertThat(second).isGreaterThan(first);
  }

  static List<String> formats() {
    return IdCodec.names();
  }

  @ParameterizedTest
  @MethodSource("formats")
  void id_format_returnsThatTextForm(String format) {
    IdCodec codec = IdCodec.named(format);

    HttpResponse<String> r = http.get("id?format=" + format);

    assertThat(r.statusCode()).isEqualTo(200);
    String text = r.body().strip();
    if (codec.fixedWidth()) {
      assertThat(text).hasSize(codec.width());
    }
    assertThat(decodeLine(text, codec).fields()).containsEntry("worker", 3L);
  }

  @Test
  void id_unknownFormat_returns400NamingTheForms() {
    assertJsonError(
        http.get("id?format=base99"), 400, "format = base99 is invalid; allowed: one of");
  }

  @Test
  void id_unknownParameter_returns400() {
    assertJsonError(http.get("id?fromat=hex"), 400, "unknown query parameter 'fromat'");
  }

  @Test
  void healthAndMetrics_anyParameter_returns400NamingIt() {
    assertJsonError(http.get("health?x=1"), 400, "unknown query parameter 'x'; allowed: none");
    assertJsonError(http.get("metrics?name=y"), 400, "unknown query parameter 'name'");
  }

  @Test
  void id_repeatedParameter_returns400() {
    assertJsonError(http.get("id?format=hex&format=hex"), 400, "more than once");
  }

  @Test
  void id_badPercentEncoding_returns400() {
    String answer =
        http.raw("GET /id?format=%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 400 ");
    assertThat(answer).contains("application/json").contains("percent-encoding");
  }

  @Test
  void ids_count_returnsThatManyConsecutiveIncreasingLines() {
    HttpResponse<String> r = http.get("ids?count=5000");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain;charset=utf-8");
    assertThat(r.body()).endsWith("\n");
    long[] ids = r.body().lines().mapToLong(Long::parseLong).toArray();
    assertThat(ids).hasSize(5000);
    for (int i = 1; i < ids.length; i++) {
      assertThat(ids[i]).isGreaterThan(ids[i - 1]);
    }
  }

  @Test
  void ids_maxCountInHex_returnsAllDistinct() {
    HttpResponse<String> r = http.get("ids?count=100000&format=hex");

    assertThat(r.statusCode()).isEqualTo(200);
    List<String> lines = r.body().lines().toList();
    assertThat(lines).hasSize(100_000).doesNotHaveDuplicates();
    assertThat(lines).allMatch(s -> s.matches("[0-9a-f]{16}"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "-1",
        "100001",
        "1000000000",
        "99999999999999999999999999",
        "abc",
        "1e3",
        "",
        "+5",
        "%20%205"
      })
  void ids_badCount_returns400WithTheAllowedRange(String count) {
    assertJsonError(http.get("ids?count=" + count), 400, "allowed: 1..100000");
  }

  @Test
  void ids_noCount_returns400() {
    assertJsonError(http.get("ids"), 400, "query parameter count is missing; allowed: 1..100000");
  }

  @Test
  void range_aDay_returnsTheBoundsOfItsIdsAsJson_andAnIdOfThatDayLiesWithin() {
    HttpResponse<String> r = http.get("range?from=2022-06-28&to=2022-06-28T23:59:59.999Z");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    long first = TWITTER.firstIdAt(Instant.parse("2022-06-28T00:00:00Z"));
    long last = TWITTER.lastIdAt(Instant.parse("2022-06-28T23:59:59.999Z"));
    assertThat(r.body())
        .isEqualTo(
            "{\"from\":\"2022-06-28T00:00:00Z\",\"to\":\"2022-06-28T23:59:59.999Z\","
                + "\"first\":\""
                + first
                + "\",\"last\":\""
                + last
                + "\",\"layout\":\""
                + TWITTER.spec()
                + "\"}");
    assertThat(1541815603606036480L).isBetween(first, last); // a tweet of 2022-06-28
    assertThat(TWITTER.decode(first - 1).instant()).isBefore(Instant.parse("2022-06-28T00:00:00Z"));
    assertThat(TWITTER.decode(last + 1).instant()).isEqualTo(Instant.parse("2022-06-29T00:00:00Z"));
  }

  @Test
  void range_withAnotherLayout_usesIt() {
    HttpResponse<String> r = http.get("range?from=2026-11-27&to=2026-11-27&layout=sonyflake");

    Layout sonyflake = Layout.preset("sonyflake");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .contains(
            "\"first\":\""
                + sonyflake.firstIdAt(Instant.parse("2026-11-27T00:00:00Z"))
                + "\",\"last\":\""
                + sonyflake.lastIdAt(Instant.parse("2026-11-27T00:00:00Z"))
                + "\"");
  }

  @Test
  void decode_tweetId_returnsTimestampFieldsAndSequenceAsJson() {
    HttpResponse<String> r = http.get("decode/1541815603606036480");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.body())
        .isEqualTo(
            "{\"id\":\"1541815603606036480\",\"timestamp\":\"2022-06-28T16:07:40.105Z\","
                + "\"fields\":{\"datacenter\":11,\"worker\":26},\"sequence\":0}");
  }

  @ParameterizedTest
  @CsvSource({
    "1565a11f6217a000, hex",
    "1ASD13XH1F800, base32",
    "1ASD13XH1F800B, base32check",
    "0bppc0m3ju134, base36"
  })
  void decode_fixedWidthFormWithItsFormat_decodes(String text, String form) {
    HttpResponse<String> r = http.get("decode/" + text + "?format=" + form);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).startsWith("{\"id\":\"1541815603606036480\",");
  }

  @Test
  void decode_lengthOfAFixedWidthForm_returns400NamingTheFormatToPass() {
    HttpResponse<String> r = http.get("decode/1565a11f6217a000");

    assertJsonError(r, 400, "");
    assertThat(r.body())
        .isEqualTo(
            "{\"error\":\"invalid id '1565a11f6217a000': 16 characters can be hex or decimal,"
                + " so the form is not guessed; pass ?format=hex\"}");
  }

  @Test
  void decode_elevenCharacters_returns400NamingEachFormatThatReadsIt() {
    assertJsonError(
        http.get("decode/1ptWyK4WgZU"),
        400,
        "11 characters can be base62, base62-legacy, base64url or decimal, so the form is not"
            + " guessed; pass ?format=base62, ?format=base62-legacy or ?format=base64url");
  }

  @Test
  void decode_ambiguousFormWithFormat_decodes() {
    HttpResponse<String> r = http.get("decode/1ptWyK4WgZU?format=base62");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("\"id\":\"1541815603606036480\"");
  }

  @Test
  void decode_discordLayout_readsDiscordsDocumentedExample() {
    HttpResponse<String> r = http.get("decode/175928847299117063?layout=discord");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .isEqualTo(
            "{\"id\":\"175928847299117063\",\"timestamp\":\"2016-04-30T11:18:25.796Z\","
                + "\"fields\":{\"worker\":1,\"process\":0},\"sequence\":7}");
  }

  @Test
  void decode_unsignedIdOf64BitLayout_printsItUnsigned() {
    HttpResponse<String> r = http.get("decode/ffffffffffffffff?layout=discord&format=hex");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).startsWith("{\"id\":\"18446744073709551615\",");
  }

  @Test
  void decode_idAboveLayoutWidth_returns400() {
    assertJsonError(
        http.get("decode/9223372036854775808"),
        400,
        "'9223372036854775808': wider than the 63 bits");
  }

  @ParameterizedTest
  @ValueSource(strings = {"xyz!", "12345678901234567890123", "01", "zzzzzzzzzzzzz", "-5"})
  void decode_unreadableId_returns400(String text) {
    assertJsonError(http.get("decode/" + text), 400, "invalid id");
  }

  @Test
  void decode_wrongFormat_returns400NamingTheCodec() {
    assertJsonError(http.get("decode/1541815603606036480?format=hex"), 400, "hex");
  }

  @Test
  void decode_idLongerThan64_returns400() {
    assertJsonError(http.get("decode/" + "1".repeat(65)), 400, "longer than 64");
  }

  @Test
  void decode_noId_returns400() {
    assertJsonError(http.get("decode/"), 400, "no id");
  }

  @Test
  void decode_unknownLayout_returns400() {
    assertJsonError(http.get("decode/1?layout=nope"), 400, "layout = nope is invalid");
  }

  @Test
  void health_staticNode_returns200WithTheStatus() {
    HttpResponse<String> r = http.get("health");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.body())
        .startsWith("{\"status\":\"UP\",\"held\":true,\"source\":\"static\",")
        .contains("\"values\":{\"datacenter\":1,\"worker\":3}")
        .contains("\"validUntil\":null");
  }

  @Test
  void metrics_afterRequests_exposesPrometheusText() {
    http.get("ids?count=7");
    http.get("nope");

    HttpResponse<String> r = http.get("metrics");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(r.body())
        .contains("# TYPE snowid_ids_issued_total counter")
        .contains("snowid_http_requests_seconds_count{endpoint=\"/ids\",status=\"200\"}")
        .contains("snowid_http_requests_seconds_count{endpoint=\"other\",status=\"404\"}")
        .contains("snowid_http_requests_seconds_bucket{endpoint=\"/ids\",status=\"200\",le=")
        .contains("snowid_generator_waits_total")
        .contains("snowid_clock_steps_total")
        .contains("snowid_lease_renewals_total")
        .contains("snowid_lease_renewal_failures_total")
        .contains("snowid_lease_held 1.0")
        .contains("snowid_layout_lifetime_remaining_years")
        .contains("jvm_memory_used_bytes");
    double issued =
        Double.parseDouble(
            r.body()
                .lines()
                .filter(l -> l.startsWith("snowid_ids_issued_total "))
                .findFirst()
                .orElseThrow()
                .split(" ", -1)[1]);
    assertThat(issued).isGreaterThanOrEqualTo(7);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "nope", "id/", "ids/extra", "ID", "decode", "health/x"})
  void unknownPath_returns404Json(String path) {
    assertJsonError(http.get(path), 404, "no such path");
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
  void wrongMethod_returns405WithAllowGet(String method) {
    HttpResponse<String> r = http.send(method, "id");

    assertJsonError(r, 405, "not allowed; use GET");
    assertThat(r.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void head_returns405WithoutBody() {
    HttpResponse<String> r = http.send("HEAD", "id");

    assertThat(r.statusCode()).isEqualTo(405);
    assertThat(r.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void anyResponse_hasNoServerVersion() {
    HttpResponse<String> r = http.get("id");

    assertThat(r.headers().firstValue("Server")).isEmpty();
    assertThat(r.headers().map().toString()).doesNotContainIgnoringCase("jetty");
  }

  @Test
  void malformedRequestLine_returns400Json() {
    String answer = http.raw("GARBAGE\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 400 ");
    assertThat(answer).contains("Content-Type: application/json").contains("{\"error\":");
    assertThat(answer).doesNotContain("Exception").doesNotContainIgnoringCase("<html");
  }

  @Test
  void headersOver8KiB_returns431Json() {
    String big = "x".repeat(9000);

    String answer = http.raw("GET /id HTTP/1.1\r\nHost: localhost\r\nX-Big: " + big + "\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 431 ");
    assertThat(answer).contains("application/json").contains("{\"error\":");
  }

  @Test
  void uriOver8KiB_returns414Json() {
    String answer =
        http.raw(
            "GET /id?"
                + "a".repeat(9000)
                + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 414 ");
    assertThat(answer).contains("application/json").contains("{\"error\":");
  }

  @Test
  void ambiguousEncodedPath_returns400Json() {
    String answer =
        http.raw("GET /decode/1%2F2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 400 ");
    assertThat(answer).contains("application/json");
  }

  @Test
  void idText_decimalWriter_matchesLongToString() {
    long[] samples = {0, 1, 9, 10, 99, 100, Long.MAX_VALUE, 1541815603606036480L, -1};
    byte[] out = new byte[IdText.capacity(samples.length, null)];

    int len = IdText.lines(samples, null, out);

    String[] lines =
        new String(out, 0, len, java.nio.charset.StandardCharsets.US_ASCII).split("\n");
    assertThat(lines)
        .containsExactly(
            Arrays.stream(samples).mapToObj(Long::toUnsignedString).toArray(String[]::new));
  }
}
