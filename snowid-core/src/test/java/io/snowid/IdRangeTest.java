package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link IdRange}: the text a user gives for a stretch of time, and the range it names. */
class IdRangeTest {
  private static final Layout TWITTER = Layout.preset("twitter");

  @Test
  void aDate_isItsMidnightUtc_andAnInstantIsReadInEitherCase() {
    assertThat(IdRange.instant("from", "2026-11-27")).isEqualTo("2026-11-27T00:00:00Z");
    assertThat(IdRange.instant("from", " 2026-11-27t08:00:00.5z "))
        .isEqualTo("2026-11-27T08:00:00.500Z");
  }

  @Test
  void aLeapSecond_isRefused_insteadOfReadAsTheNextMinutesStart() {
    assertThatThrownBy(() -> IdRange.instant("to", "2016-12-31T23:59:60Z"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "to = 2016-12-31T23:59:60Z is invalid; allowed: no leap second (:60); "
                + IdRange.INSTANT_FORMS);
  }

  @Test
  void textThatIsNoInstant_isRefusedNamingTheSettingAndTheForms() {
    assertThatThrownBy(() -> IdRange.instant("from", "yesterday"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("from = yesterday is invalid; allowed: " + IdRange.INSTANT_FORMS);
  }

  @Test
  void aRange_isTheFirstIdOfFromsUnitToTheLastIdOfTosUnit() {
    Instant from = Instant.parse("2022-06-28T00:00:00Z");
    Instant to = Instant.parse("2022-06-28T23:59:59.999Z");

    IdRange range = IdRange.of(TWITTER, from, to);

    assertThat(range.first()).isEqualTo(TWITTER.firstIdAt(from));
    assertThat(range.last()).isEqualTo(TWITTER.lastIdAt(to));
    assertThat(range.toString()).isEqualTo("id BETWEEN " + range.first() + " AND " + range.last());
    assertThat(range.toJson())
        .isEqualTo(
            "{\"from\":\"2022-06-28T00:00:00Z\",\"to\":\"2022-06-28T23:59:59.999Z\",\"first\":\""
                + range.first()
                + "\",\"last\":\""
                + range.last()
                + "\",\"layout\":\""
                + TWITTER.spec()
                + "\"}");
  }

  @Test
  void fromAfterTo_isRefusedNamingFrom() {
    Instant to = Instant.parse("2026-11-27T00:00:00Z");

    assertThatThrownBy(() -> IdRange.of(TWITTER, to.plusMillis(1), to))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "from = 2026-11-27T00:00:00.001Z is invalid; allowed: an instant not after to"
                + " (2026-11-27T00:00:00Z)");
  }

  @Test
  void anEndOutsideTheLifetime_isRefusedNamingThatEnd() {
    Instant beforeEpoch = TWITTER.epoch().minusMillis(1);
    Instant afterLast = TWITTER.lastInstant().plusMillis(1);

    assertThatThrownBy(
            () -> IdRange.of(TWITTER, beforeEpoch, Instant.parse("2026-11-27T00:00:00Z")))
        .isInstanceOf(InvalidSettingException.class)
        .extracting(e -> ((InvalidSettingException) e).setting())
        .isEqualTo("from");
    assertThatThrownBy(() -> IdRange.of(TWITTER, Instant.parse("2026-11-27T00:00:00Z"), afterLast))
        .isInstanceOf(InvalidSettingException.class)
        .extracting(e -> ((InvalidSettingException) e).setting())
        .isEqualTo("to");
  }

  @Test
  void aWrappingLayout_isRefusedNamingTheLayout() {
    Instant t = Instant.parse("2026-11-27T00:00:00Z");

    assertThatThrownBy(() -> IdRange.of(Layout.preset("int32"), t, t))
        .isInstanceOf(InvalidSettingException.class)
        .extracting(e -> ((InvalidSettingException) e).setting())
        .isEqualTo("layout");
  }
}
