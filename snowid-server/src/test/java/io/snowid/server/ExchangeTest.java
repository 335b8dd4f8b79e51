package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * The request's callback completes once, and a response is written at most once and never after the
 * request ended: writing or completing a request Jetty had already failed is what corrupted its
 * connection state ("already released" buffers) under the pipelined-batch attack.
 */
class ExchangeTest {
  private final List<String> completions = new ArrayList<>();
  private final InFlight inFlight = new InFlight();
  private final Exchange exchange =
      new Exchange(
          Callback.from(() -> completions.add("succeeded"), x -> completions.add("failed")),
          inFlight,
          null);

  @Test
  void claim_once_thenNoSecondResponse() {
    assertThat(exchange.claim()).isTrue();
    assertThat(exchange.claim()).isFalse();
  }

  @Test
  void abandoned_noResponseIsClaimed_andTheCallbackFailsOnce() {
    exchange.abandon(new IOException("gone"));
    exchange.abandon(new IOException("gone again"));

    assertThat(exchange.claim()).isFalse();
    exchange.failed(new IOException("late write failure"));
    assertThat(completions).containsExactly("failed");
    assertThat(inFlight.current()).isZero();
  }

  @Test
  void abandonWhileTheResponseIsWritten_isLeftToTheWrite() {
    assertThat(exchange.claim()).isTrue();

    exchange.abandon(new IOException("failure listener"));
    exchange.succeeded();
    exchange.failed(new IOException("a failure after the write completed"));

    assertThat(completions).containsExactly("succeeded");
    assertThat(inFlight.current()).isZero();
  }
}
