package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The checker must catch what it claims to catch, or every test built on it proves nothing. */
class IdCheckerTest {

  @Test
  void check_atomicCounter_isClean() {
    AtomicLong counter = new AtomicLong();
    assertThat(IdChecker.check(counter::incrementAndGet, 4, 10_000).clean()).isTrue();
  }

  @Test
  void check_duplicateIds_areCountedAndFailTheAssertion() {
    AtomicLong counter = new AtomicLong();
    IdChecker.Report r = IdChecker.check(() -> counter.incrementAndGet() / 2, 2, 1000);
    assertThat(r.duplicates()).isGreaterThan(0);
    assertThatThrownBy(r::assertClean)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("duplicate");
  }

  @Test
  void analyse_perThreadDecrease_isAnOrderViolation() {
    long[][] ids = {{5, 3}};
    long[][] starts = {{0, 2}};
    long[][] ends = {{1, 3}};
    IdChecker.Report r = IdChecker.analyse(ids, starts, ends);
    assertThat(r.orderViolations()).isEqualTo(1);
  }

  @Test
  void analyse_smallerIdAfterAnotherThreadsCompletedCall_isARealTimeViolation() {
    // thread 0 takes 10 in [0,1]; thread 1 starts at 2, after that returned, and gets 7
    long[][] ids = {{10}, {7}};
    long[][] starts = {{0}, {2}};
    long[][] ends = {{1}, {3}};
    IdChecker.Report r = IdChecker.analyse(ids, starts, ends);
    assertThat(r.orderViolations()).isZero();
    assertThat(r.duplicates()).isZero();
    assertThat(r.realTimeViolations()).isEqualTo(1);
  }

  @Test
  void analyse_overlappingCallsInEitherOrder_areFine() {
    long[][] ids = {{10}, {7}};
    long[][] starts = {{0}, {1}};
    long[][] ends = {{3}, {2}};
    assertThat(IdChecker.analyse(ids, starts, ends).clean()).isTrue();
  }

  @Test
  void check_sourceThrows_failsWithTheCause() {
    assertThatThrownBy(
            () ->
                IdChecker.check(
                    () -> {
                      throw new IllegalStateException("boom");
                    },
                    2,
                    10))
        .isInstanceOf(AssertionError.class)
        .hasRootCauseMessage("boom");
  }
}
