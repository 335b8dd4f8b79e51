package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** With a token, every request needs {@code Authorization: Bearer <token>}. */
class ServerTokenTest {
  private static final String TOKEN = "s3cret-T0ken_with.symbols~";
  private static SnowIdServer server;
  private static Http http;

  @BeforeAll
  static void start() {
    server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withNode("static:worker=1,datacenter=1")
                .withToken(TOKEN));
    http = new Http(server);
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  private static void assertUnauthorized(HttpResponse<String> r) {
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"snowid\"");
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.body()).isEqualTo("{\"error\":\"missing or wrong bearer token\"}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"id", "ids?count=5", "decode/1541815603606036480", "health", "metrics"})
  void everyEndpoint_withoutToken_returns401(String path) {
    assertUnauthorized(http.get(path));
  }

  @Test
  void unknownPath_withoutToken_returns401NotRevealingRoutes() {
    assertUnauthorized(http.get("nope"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bearer wrong",
        "Bearer " + TOKEN + "x",
        "Bearer s3cret",
        "Basic czNjcmV0",
        "Bearer",
        "Bearer ",
        TOKEN
      })
  void wrongAuthorization_returns401(String header) {
    assertUnauthorized(http.get("id", "Authorization", header));
  }

  @Test
  void rightToken_returns200() {
    HttpResponse<String> r = http.get("id", "Authorization", "Bearer " + TOKEN);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).matches("[0-9]+\n");
  }

  @Test
  void rightToken_schemeInAnyCase_returns200() {
    assertThat(http.get("health", "Authorization", "bearer " + TOKEN).statusCode()).isEqualTo(200);
  }

  @Test
  void token_withSpace_isRejectedWithoutEchoingIt() {
    assertThatThrownBy(() -> ServerConfig.defaults().withToken("two words"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("token")
        .hasMessageNotContaining("two words");
  }

  // An empty SNOWID_TOKEN or --token= is refused, never taken for "no authentication".
  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t"})
  void token_blank_isRefusedNotTakenForNone(String blank) {
    assertThatThrownBy(() -> ServerConfig.defaults().withToken(blank))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("token = (blank) is invalid")
        .hasMessageContaining("leave it unset");
  }

  @Test
  void start_logsWhetherAuthenticationIsOn() {
    String withToken = stderrOf(() -> SnowIdServer.start(config().withToken(TOKEN)).stop());
    String without = stderrOf(() -> SnowIdServer.start(config()).stop());

    assertThat(withToken).contains("auth: bearer token").doesNotContain(TOKEN);
    assertThat(without).contains("auth: none");
  }

  private static ServerConfig config() {
    return ServerConfig.defaults().withPort(0).withNode("static:worker=2,datacenter=1");
  }

  /** What slf4j-simple (which writes to System.err as it is at each call) logged meanwhile. */
  private static String stderrOf(Runnable action) {
    PrintStream saved = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(saved);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void config_toString_hidesTheToken() {
    assertThat(ServerConfig.defaults().withToken(TOKEN).toString())
        .doesNotContain(TOKEN)
        .contains("token=(set)");
  }
}
