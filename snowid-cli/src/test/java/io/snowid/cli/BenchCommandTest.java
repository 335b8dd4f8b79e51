package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BenchCommandTest {

  @Test
  void bench_oneSecond_printsRateAsAFractionOfTheCap() {
    Cli r = Cli.run("bench", "--seconds", "1", "--threads", "2", "--no-progress");

    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("cap           4,096,000 IDs/s per node")
        .contains("threads       2");
    Matcher ids = Pattern.compile("IDs           ([0-9,]+)").matcher(r.out());
    Matcher fraction = Pattern.compile("of the cap    ([0-9.]+)").matcher(r.out());
    assertThat(ids.find()).isTrue();
    assertThat(fraction.find()).isTrue();
    assertThat(Long.parseLong(ids.group(1).replace(",", ""))).isPositive();
    // a generator can never beat its layout's cap by more than the rounding of one second
    assertThat(Double.parseDouble(fraction.group(1))).isGreaterThan(0).isLessThan(1.01);
  }

  /**
   * IDs issued after the window's end are not counted (whole blocks finished after the end time
   * would let many threads report more than the cap). Here the ID source stops answering the moment
   * the window ends (its clock is the test's): the count is at most what was issued by then, and
   * the measurement returns without waiting for every worker's block to finish.
   */
  @Test
  void measure_idsIssuedAfterTheEnd_areNotCounted() throws Exception {
    AtomicLong issued = new AtomicLong();
    CountDownLatch ended = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    LongSupplier source =
        () -> {
          if (ended.getCount() == 0) {
            awaitQuietly(release);
          }
          return issued.incrementAndGet();
        };
    AtomicLong nanos = new AtomicLong();
    long windowMillis = 2000;
    BenchCommand.Run.Clock clock =
        new BenchCommand.Run.Clock() {
          @Override
          public long nanoTime() {
            return nanos.get();
          }

          @Override
          public void sleepMillis(long millis) throws InterruptedException {
            Thread.sleep(20); // real time for the workers to issue some IDs
            if (nanos.addAndGet(millis * 1_000_000) >= (500 + windowMillis) * 1_000_000) {
              ended.countDown(); // the window is over: no ID is issued from now on
            }
          }
        };
    BenchCommand.Run run = new BenchCommand.Run(source, () -> 0, 8, clock);
    try {
      BenchCommand.Result r =
          CompletableFuture.supplyAsync(
                  () -> {
                    try {
                      return run.measure(windowMillis, null);
                    } catch (InterruptedException e) {
                      throw new IllegalStateException(e);
                    }
                  })
              .get(60, TimeUnit.SECONDS);

      assertThat(r.ids()).isPositive().isLessThanOrEqualTo(issued.get());
      assertThat(r.seconds()).isEqualTo(windowMillis / 1000.0);
    } finally {
      release.countDown();
      run.close();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void bench_progress_writesProgressLinesToStderr() {
    Cli r = Cli.run("bench", "--seconds", "1", "--progress", "--layout", "js53");

    assertThat(r.exit()).isZero();
    assertThat(r.err()).contains("\rbench: ").contains("IDs/s");
    assertThat(r.out()).contains("cap           128,000 IDs/s per node");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--threads 0", "--threads 257", "--seconds 0", "--seconds 601", "-l no"})
  void bench_badInput_exits2WithOneLine(String args) {
    Cli r = Cli.run(("bench " + args).split(" "));

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
  }
}
