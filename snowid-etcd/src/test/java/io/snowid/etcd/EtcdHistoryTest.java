package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What one client concludes from the revisions and cluster ids of etcd's answers. */
class EtcdHistoryTest {
  private static final long CLUSTER = 7;
  private static final long SECOND = 1_000_000_000L;

  /** A history whose last answer, at {@code revision}, arrived at {@code atNanos}. */
  private static EtcdHistory answeredAt(long revision, long atNanos) {
    EtcdHistory h = new EtcdHistory();
    assertThat(h.answered(h.sent(), CLUSTER, revision, atNanos)).isNull();
    return h;
  }

  @Test
  void answerBelowTheRevisionSeenWhenSent_isARollbackDatedByTheLastAnswerBeforeIt() {
    EtcdHistory h = answeredAt(100, 5 * SECOND);

    EtcdHistory.Loss loss = h.answered(h.sent(), CLUSTER, 90, 9 * SECOND);

    assertThat(loss.why()).contains("went back from 100 to 90");
    assertThat(loss.dated()).isTrue();
    assertThat(loss.answeredNanos()).isEqualTo(5 * SECOND);
    assertThat(h.unrecorded()).isSameAs(loss);
    assertThat(h.answered(h.sent(), CLUSTER, 91, 10 * SECOND)).as("the new history").isNull();
  }

  // Two answers judged out of order (the later arrival took the lock first) moved the time of the
  // newest answer back: a rollback found next was dated before the answer that proves it.
  @Test
  void answersJudgedOutOfOrder_theTimeOfTheNewestNeverGoesBack() {
    EtcdHistory h = new EtcdHistory();
    EtcdHistory.Sent first = h.sent();
    assertThat(h.answered(first, CLUSTER, 200, 6 * SECOND)).isNull();
    assertThat(h.answered(first, CLUSTER, 150, 5 * SECOND)).isNull();

    EtcdHistory.Loss loss = h.answered(h.sent(), CLUSTER, 190, 9 * SECOND);

    assertThat(loss.answeredNanos()).isEqualTo(6 * SECOND);
  }

  // Requests in flight when one answer found a rollback were answered from the new history below
  // what they had seen: each was a rollback found anew, dated by the first one's arrival in the
  // new history, and the process recorded the loss again.
  @Test
  void answerToARequestSentBeforeARollbackWasFound_showsThatRollbackAsFound() {
    EtcdHistory h = answeredAt(1_000, 5 * SECOND);
    EtcdHistory.Sent a = h.sent();
    EtcdHistory.Sent b = h.sent();
    EtcdHistory.Loss found = h.answered(a, CLUSTER, 850, 9 * SECOND);

    assertThat(h.answered(b, CLUSTER, 860, 10 * SECOND)).isSameAs(found);
    assertThat(h.unrecorded()).isSameAs(found);
    assertThat(h.answered(h.sent(), CLUSTER, 851, 11 * SECOND))
        .as("the revision stayed the new history's")
        .isNull();
  }

  @Test
  void answerToARequestSentBeforeARollbackWasFound_withoutOne_movesNothing() {
    EtcdHistory h = answeredAt(1_000, 5 * SECOND);
    EtcdHistory.Sent b = h.sent();
    h.answered(h.sent(), CLUSTER, 850, 9 * SECOND);

    assertThat(h.answered(b, CLUSTER, 1_005, 10 * SECOND)).isNull();

    assertThat(h.answered(h.sent(), CLUSTER, 851, 11 * SECOND))
        .as("an answer that may be the old history's late one does not raise the revision")
        .isNull();
  }

  @Test
  void anotherClusterId_isARollbackThatTellsNoTime() {
    EtcdHistory h = answeredAt(100, 5 * SECOND);

    EtcdHistory.Loss loss = h.answered(h.sent(), CLUSTER + 1, 50, 9 * SECOND);

    assertThat(loss.why()).contains("cluster id 8 after 7");
    assertThat(loss.dated()).isFalse();
    assertThat(loss.knownAt(new EtcdHistory.Reading(1_000_000, 9 * SECOND)))
        .isEqualTo(Long.MAX_VALUE);
    assertThat(h.clusterId()).isEqualTo(CLUSTER + 1);
  }

  @Test
  void knownAt_isTheHoldersClockWhenTheAnswerArrived_roundedUp() {
    EtcdHistory.Loss loss = new EtcdHistory.Loss("", true, 3 * SECOND);

    assertThat(loss.knownAt(new EtcdHistory.Reading(50_000, 5 * SECOND))).isEqualTo(48_001);
  }

  // A holder paused between reading its clock and calling dated a rollback early by the pause.
  @Test
  void reading_isTheLaterOfTheHoldersClockAndTheSystemClock() {
    long before = System.currentTimeMillis();

    assertThat(EtcdHistory.Reading.now(before - 60_000).millis()).isGreaterThanOrEqualTo(before);
    assertThat(EtcdHistory.Reading.now(before + 60_000).millis()).isEqualTo(before + 60_000);
  }

  @Test
  void recorded_clearsOnlyTheLossRecorded() {
    EtcdHistory h = answeredAt(100, 5 * SECOND);
    EtcdHistory.Loss first = h.answered(h.sent(), CLUSTER, 90, 9 * SECOND);
    h.answered(h.sent(), CLUSTER, 95, 10 * SECOND);
    EtcdHistory.Loss second = h.answered(h.sent(), CLUSTER, 80, 11 * SECOND);

    h.recorded(first);
    assertThat(h.unrecorded()).isSameAs(second);
    h.recorded(second);
    assertThat(h.unrecorded()).isNull();
  }

  @Test
  void recordGoneFromTheHistory_isARollbackDatedByItsWritesAnswer_unlessAnotherClusterAnswers() {
    EtcdToken token = new EtcdToken("r", 9, 40, 3 * SECOND, CLUSTER);

    assertThat(
            token.writeGone("gone", CLUSTER).knownAt(new EtcdHistory.Reading(50_000, 5 * SECOND)))
        .isEqualTo(48_001);
    assertThat(token.writeGone("gone", CLUSTER + 1).dated()).isFalse();
  }
}
