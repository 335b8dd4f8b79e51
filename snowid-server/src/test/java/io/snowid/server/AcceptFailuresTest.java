package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AcceptFailuresTest {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final List<String> lines = new ArrayList<>();
  private final AcceptFailures failures =
      new AcceptFailures(Duration.ofSeconds(10), nanos::get, lines::add);

  private static IOException emfile() {
    return new IOException("Too many open files");
  }

  @Test
  void firstFailure_isLoggedAtOnce_withoutAStackTrace() {
    failures.record(emfile());

    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .startsWith(
            "accepting a connection failed 1 time (last: java.io.IOException: Too many open files)")
        .doesNotContain("\tat ");
  }

  @Test
  void failuresWithinTheInterval_areCounted_andLoggedInOneLineAfterIt() {
    failures.record(emfile());
    for (int i = 0; i < 999; i++) {
      nanos.addAndGet(9_000_000L); // 999 failures over 9 s
      failures.record(emfile());
    }
    assertThat(lines).hasSize(1);

    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    failures.record(emfile());

    assertThat(lines).hasSize(2);
    assertThat(lines.get(1))
        .startsWith("accepting a connection failed 1000 times in the last 11 s");
  }

  @Test
  void flush_logsWhatWasCountedOnceTheIntervalPassed_thenNothing() {
    failures.record(emfile());
    failures.record(emfile());
    failures.flush();
    assertThat(lines).hasSize(1);

    nanos.addAndGet(Duration.ofSeconds(10).toNanos());
    failures.flush();
    failures.flush();

    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).startsWith("accepting a connection failed 1 time in the last 10 s");
  }
}
