package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.node.NodeIdUnavailableException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The retries of a start whose registry does not answer yet (real coordinators: their tests). */
class ConnectWaitTest {
  @Test
  void retry_registryAnswersOnTheThirdAttempt_returnsItsValue() {
    AtomicInteger attempts = new AtomicInteger();

    String started =
        ConnectWait.retry(
            Duration.ofSeconds(30),
            () -> {
              if (attempts.incrementAndGet() < 3) {
                throw new RegistryUnavailableException("registry at x cannot be reached");
              }
              return "lease";
            });

    assertThat(started).isEqualTo("lease");
    assertThat(attempts).hasValue(3);
  }

  @Test
  void retry_zeroWait_triesOnceAndThrowsTheFailureAsItWas() {
    AtomicInteger attempts = new AtomicInteger();
    RegistryUnavailableException refused = new RegistryUnavailableException("refused");

    assertThatThrownBy(
            () ->
                ConnectWait.retry(
                    Duration.ZERO,
                    () -> {
                      attempts.incrementAndGet();
                      throw refused;
                    }))
        .isSameAs(refused);
    assertThat(attempts).hasValue(1);
  }

  @Test
  void retry_otherFailure_endsAtOnce() {
    AtomicInteger attempts = new AtomicInteger();

    assertThatThrownBy(
            () ->
                ConnectWait.retry(
                    Duration.ofMinutes(10),
                    () -> {
                      attempts.incrementAndGet();
                      throw new NodeIdUnavailableException("password refused");
                    }))
        .hasMessage("password refused");
    assertThat(attempts).hasValue(1);
  }

  @Test
  void retry_neverAnswers_givesUpAfterTheWaitNamingIt() {
    AtomicInteger attempts = new AtomicInteger();

    assertThatThrownBy(
            () ->
                ConnectWait.retry(
                    Duration.ofMillis(300),
                    () -> {
                      attempts.incrementAndGet();
                      throw new RegistryUnavailableException("registry at x cannot be reached");
                    }))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageStartingWith("registry at x cannot be reached (no answer within connectWait")
        .hasMessageContaining("raise it with connectWait=")
        .hasCauseInstanceOf(RegistryUnavailableException.class);
    assertThat(attempts.get()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void retry_interruptedWhileWaiting_throwsTheLastFailureKeepingTheInterrupt() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(
              () ->
                  ConnectWait.retry(
                      Duration.ofMinutes(10),
                      () -> {
                        throw new RegistryUnavailableException("refused");
                      }))
          .hasMessage("refused");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
