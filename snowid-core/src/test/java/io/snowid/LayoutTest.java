package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LayoutTest {

  @Test
  void twitter_spec_isTheDesignDefault() {
    assertThat(Layout.twitter().spec())
        .isEqualTo(
            "time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms",
        "time=39,sequence=8,machine=16,epoch=2014-09-01T00:00:00Z,unit=10ms",
        "time=28,worker=22,sequence=13,epoch=2016-05-19T16:00:00Z,unit=1s",
        "time=40,worker=10,clockback=2,sequence=11,epoch=2020-01-01T00:00:00Z,unit=1ms"
      })
  void parse_canonicalSpec_printsTheSameString(String spec) {
    assertThat(Layout.parse(spec).spec()).isEqualTo(spec);
    assertThat(Layout.parse(spec)).isEqualTo(Layout.parse(Layout.parse(spec).spec()));
  }

  @Test
  void parse_epochAsUnixMillisOrDate_printsIsoInstant() {
    Layout l = Layout.parse("time=41, worker=10 ,sequence=12,epoch=1490346283706");
    assertThat(l.spec())
        .isEqualTo("time=41,worker=10,sequence=12,epoch=2017-03-24T09:04:43.706Z,unit=1ms");
    assertThat(Layout.parse("time=41,worker=10,sequence=12,epoch=2016-05-20").epoch())
        .isEqualTo(Instant.parse("2016-05-20T00:00:00Z"));
  }

  @Test
  void parse_fields_areMostSignificantFirstWithShifts() {
    Layout l = Layout.twitter();
    assertThat(l.fields())
        .containsExactly(
            new Layout.Field("time", 41, 22),
            new Layout.Field("datacenter", 5, 17),
            new Layout.Field("worker", 5, 12),
            new Layout.Field("sequence", 12, 0));
    assertThat(l.totalBits()).isEqualTo(63);
    assertThat(l.nodeCount()).isEqualTo(1024);
    assertThat(l.sequenceCapacity()).isEqualTo(4096);
    assertThat(l.idsPerSecondPerNode()).isEqualTo(4_096_000.0);
  }

  @ParameterizedTest(name = "[{index}] {1}: {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''| layout",
        "time=41,sequence=12| layout.epoch",
        "time=41,worker=10,epoch=0| layout.sequence",
        "worker=10,sequence=12,epoch=0| layout.time",
        "time=41,sequence=12,worker=11,epoch=0,extra| layout part",
        "time=41,sequence=12,,epoch=0| layout part",
        "time=41,sequence=12,epoch=0,worker=| layout part",
        "time=41,sequence=12,Worker!=3,epoch=0| layout field name",
        "time=41,sequence=12,worker=x,epoch=0| layout.worker",
        "time=41,sequence=12,worker=0,epoch=0| layout.worker",
        "time=41,sequence=12,worker=64,epoch=0| layout.worker",
        "time=41,worker=10,worker=2,sequence=12,epoch=0| layout.worker",
        "time=41,sequence=12,epoch=0,epoch=1| layout.epoch",
        "time=43,worker=10,sequence=12,epoch=0| layout width",
        "worker=1,time=41,worker2=10,sequence=12,epoch=0| layout width",
        "sequence=12,time=41,epoch=0| layout.sequence",
        "clockback=2,time=41,sequence=12,epoch=0| layout.clockback",
        "time=41,sequence=12,epoch=yesterday| layout.epoch",
        "time=41,sequence=12,epoch=2999-01-01T00:00:00Z| layout.epoch",
        "time=41,sequence=12,epoch=0,unit=1w| layout.unit",
        "time=41,sequence=12,epoch=0,unit=0ms| layout.unit",
        "time=41,sequence=12,epoch=0,unit=2d| layout.unit",
        "time=41,sequence=12,epoch=0,unit=86401s| layout.unit"
      })
  void parse_invalidSpec_throwsNamingTheSetting(String spec, String setting) {
    assertThatThrownBy(() -> Layout.parse(spec))
        .isInstanceOf(InvalidSettingException.class)
        .satisfies(
            e -> {
              InvalidSettingException ise = (InvalidSettingException) e;
              assertThat(ise.setting()).isEqualTo(setting);
              assertThat(ise.allowed()).isNotBlank();
              assertThat(ise.getMessage()).contains(setting).contains("allowed");
            });
  }

  @Test
  void preset_unknownName_listsTheKnownOnes() {
    assertThatThrownBy(() -> Layout.preset("snowflake2"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("twitter")
        .hasMessageContaining("sonyflake");
  }

  @Test
  void preset_misspeltName_listsThePresetsAndTheOneMeant() {
    assertThatThrownBy(() -> Layout.preset("discrod"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("allowed: a spec string or one of twitter, westid, discord,")
        .hasMessageEndingWith(", int32; did you mean discord?");
  }

  @Test
  void preset_specString_isParsed() {
    assertThat(Layout.preset("time=41,worker=10,sequence=12,epoch=0").nodeFields())
        .extracting(Layout.Field::name)
        .containsExactly("worker");
  }

  @Test
  void presetNames_everyPreset_parsesAndRoundTrips() {
    for (String name : Layout.presetNames()) {
      Layout l = Layout.preset(name);
      assertThat(Layout.parse(l.spec())).as(name).isEqualTo(l);
      assertThat(l.totalBits()).as(name).isLessThanOrEqualTo(64);
    }
  }

  // Wikipedia, "Snowflake ID": a tweet by @Wikipedia of 2022-06-28 has ID 1541815603606036480:
  // timestamp 1656432460105 ms, machine id 378 (0b0101111010), sequence 0.
  @Test
  void decode_realTweetId_givesPublishedTimeAndFields() {
    DecodedId d = Layout.twitter().decode(1541815603606036480L);
    assertThat(d.instant()).isEqualTo(Instant.ofEpochMilli(1656432460105L));
    assertThat(d.fields()).containsExactly(Map.entry("datacenter", 11L), Map.entry("worker", 26L));
    assertThat((d.field("datacenter") << 5) | d.field("worker")).isEqualTo(378);
    assertThat(d.sequence()).isZero();
  }

  // Discord API reference, "Snowflakes": 175928847299117063 is 2016-04-30T11:18:25.796Z,
  // internal worker 1, internal process 0, increment 7.
  @Test
  void decode_discordDocumentationId_givesPublishedFields() {
    DecodedId d = Layout.preset("discord").decode(175928847299117063L);
    assertThat(d.timestampMillis()).isEqualTo(1462015105796L);
    assertThat(d.field("worker")).isEqualTo(1);
    assertThat(d.field("process")).isZero();
    assertThat(d.sequence()).isEqualTo(7);
  }

  // Instagram's SQL: (now_millis - 1314220021721) << 23 | shard_id << 10 | seq_id % 1024.
  @Test
  void compose_instagram_matchesPublishedShifts() {
    long t = 1387263000L;
    long expected = (t << 23) | (1341L << 10) | (5001 % 1024);
    assertThat(Layout.preset("instagram").compose(t, 1341, 5001 % 1024)).isEqualTo(expected);
  }

  // Sonyflake README: time (39 bits, 10 ms) | sequence (8) | machine id (16).
  @Test
  void compose_sonyflake_putsSequenceAboveMachine() {
    Layout l = Layout.preset("sonyflake");
    assertThat(l.compose(1000, 7, 0xBEEF)).isEqualTo((1000L << 24) | (7L << 16) | 0xBEEF);
    assertThat(l.unit()).isEqualTo(Duration.ofMillis(10));
    assertThat(l.decode((1000L << 24) | (7L << 16) | 0xBEEF).instant())
        .isEqualTo(Instant.parse("2014-09-01T00:00:10Z"));
  }

  // Sonyflake v2 (v2/sonyflake.go): toID = elapsed << 24 | sequence << 16 | machine, elapsed in
  // 10 ms since the default StartTime 2025-01-01T00:00:00Z.
  @Test
  void preset_sonyflakeV2_isTheV2DefaultLayout() {
    Layout v2 = Layout.preset("sonyflake-v2");
    long t = Instant.parse("2025-06-01T12:00:00.123Z").toEpochMilli();
    long elapsed = t / 10 - Instant.parse("2025-01-01T00:00:00Z").toEpochMilli() / 10;
    long id = elapsed << 24 | 200L << 16 | 0xC0A8;

    DecodedId d = v2.decode(id);
    assertThat(d.instant()).isEqualTo(Instant.parse("2025-06-01T12:00:00.120Z"));
    assertThat(d.sequence()).isEqualTo(200);
    assertThat(d.field("machine")).isEqualTo(0xC0A8);
    assertThat(v2.compose(elapsed, 200, 0xC0A8)).isEqualTo(id);
    assertThat(v2.unit()).isEqualTo(Duration.ofMillis(10));
    // A v2 ID read with the v1 preset is 10.3 years early.
    assertThat(Layout.preset("sonyflake").decode(id).instant())
        .isEqualTo(Instant.parse("2014-09-01T00:00:00Z").plusMillis(elapsed * 10));
  }

  // tsid-creator TsidFactory: time << 22 | node << 12 | counter, ms since 2020-01-01, node bits 10.
  // Its README's example long 38352658567418872.
  @Test
  void preset_tsid_decodesTheReadmeExampleByItsShifts() {
    long id = 38352658567418872L;
    DecodedId d = Layout.preset("tsid").decode(id);
    assertThat(d.timestampMillis()).isEqualTo(1577836800000L + (id >>> 22));
    assertThat(d.instant()).isEqualTo(Instant.parse("2020-04-15T19:59:46.360Z"));
    assertThat(d.field("node")).isEqualTo((id >>> 12) & 1023);
    assertThat(d.sequence()).isEqualTo(id & 4095);
    assertThat(Layout.preset("tsid").totalBits()).isEqualTo(64);
  }

  // Hazelcast FlakeIdGeneratorProxy.newIdBaseLocal: ((now - epochStart) << 6 | seq) << 16 | node.
  @Test
  void preset_hazelcast_putsTheSequenceAboveTheNode() {
    long now = Instant.parse("2024-03-01T00:00:00Z").toEpochMilli() - 1514764800000L;
    long id = ((now << 6) | 63) << 16 | 40_000;
    DecodedId d = Layout.preset("hazelcast").decode(id);
    assertThat(d.instant()).isEqualTo(Instant.parse("2024-03-01T00:00:00Z"));
    assertThat(d.sequence()).isEqualTo(63);
    assertThat(d.field("node")).isEqualTo(40_000);
  }

  // yitter SnowWorkerM1.CalcId: (tick << 12) + (workerId << 6) + seq, tick in ms since BaseTime
  // 1582136402000, with the default WorkerIdBitLength and SeqBitLength of 6.
  @Test
  void preset_yitter_matchesItsDefaultShifts() {
    long tick = Instant.parse("2024-03-01T00:00:00Z").toEpochMilli() - 1582136402000L;
    long id = (tick << 12) + (63L << 6) + 5;
    DecodedId d = Layout.preset("yitter").decode(id);
    assertThat(d.instant()).isEqualTo(Instant.parse("2024-03-01T00:00:00Z"));
    assertThat(d.field("worker")).isEqualTo(63);
    assertThat(d.sequence()).isEqualTo(5);
  }

  // westid README: (timestamp << 22) | (machine << 12) | sequence.
  @Test
  void compose_westid_matchesPublishedShifts() {
    assertThat(Layout.preset("westid").compose(5, 1023, 4095))
        .isEqualTo((5L << 22) | (1023L << 12) | 4095);
  }

  @Test
  void lastInstant_baidu_ranOutOn2024_11_20() {
    Layout baidu = Layout.preset("baidu");
    assertThat(baidu.lastInstant().toString()).startsWith("2024-11-20T");
    assertThat(baidu.remainingLifetime(Instant.parse("2025-01-01T00:00:00Z"))).isNegative();
  }

  @Test
  void lastInstant_twitter_isTwoPow41MillisAfterEpoch() {
    assertThat(Layout.twitter().lastInstant())
        .isEqualTo(Instant.ofEpochMilli(1288834974657L + (1L << 41) - 1));
  }

  @Test
  void lastInstant_64bitLayout_keepsTheSignBitClear() {
    Layout discord = Layout.preset("discord");
    assertThat(discord.totalBits()).isEqualTo(64);
    assertThat(discord.maxTime()).isEqualTo((1L << 41) - 1);
    long lastId = discord.compose(discord.maxTime(), 31, 31, 4095);
    assertThat(lastId).isPositive();
    assertThatThrownBy(() -> discord.compose(discord.maxTime() + 1, 0, 0, 0))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("time");
  }

  // A layout whose last instant lies beyond Unix milliseconds (a wide time field with a coarse
  // unit) is rejected.
  @Test
  void parse_lastInstantBeyondUnixMillis_isRejected() {
    assertThatThrownBy(() -> Layout.parse("time=62,sequence=1,epoch=0,unit=1s"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("layout.time");
    assertThat(Layout.parse("time=52,sequence=11,epoch=0,unit=1ms").lastInstant())
        .isAfter(Instant.parse("2100-01-01T00:00:00Z"));
  }

  @Test
  void decode_64bitLayout_readsIdsAsUnsigned() {
    Layout discord = Layout.preset("discord");
    long topBitSet = (1L << 63) | (3L << 17) | 9;
    DecodedId d = discord.decode(topBitSet);
    assertThat(d.time()).isEqualTo(1L << 41);
    assertThat(d.field("worker")).isEqualTo(3);
    assertThat(d.toString()).startsWith(Long.toUnsignedString(topBitSet));
  }

  // Units of days, hours and minutes are accepted, as the message's "up to 1 day" says.
  @ParameterizedTest
  @CsvSource({"unit=1d, 86400000", "unit=1h, 3600000", "unit=2m, 120000", "unit=86400s, 86400000"})
  void parse_unitInDaysHoursOrMinutes_isAccepted(String unit, long millis) {
    Layout l = Layout.parse("time=20,worker=10,sequence=12,epoch=0," + unit);

    assertThat(l.unitMillis()).isEqualTo(millis);
    assertThat(Layout.parse(l.spec())).isEqualTo(l);
  }

  @Test
  void decode_negativeOrTooWideId_throwsInvalidId() {
    assertThatThrownBy(() -> Layout.twitter().decode(-1))
        .isInstanceOf(InvalidIdException.class)
        .hasMessageContaining("'18446744073709551615'") // unsigned, as text forms read it
        .hasMessageContaining("63 bits");
    assertThatThrownBy(() -> Layout.preset("js53").decode(1L << 53))
        .isInstanceOf(InvalidIdException.class)
        .hasMessageContaining("53 bits");
  }

  @Test
  void compose_outOfRangeOrWrongCount_throwsNamingTheField() {
    assertThatThrownBy(() -> Layout.twitter().compose(1, 32, 0, 0))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("datacenter")
        .hasMessageContaining("0..31");
    assertThatThrownBy(() -> Layout.twitter().compose(1, 2, 3))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("4 values");
    Map<String, Long> missing = new LinkedHashMap<>(Map.of("time", 1L, "sequence", 0L));
    assertThatThrownBy(() -> Layout.twitter().compose(missing))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("datacenter");
  }

  @Test
  void decodedId_toString_isReadable() {
    assertThat(Layout.twitter().decode(1541815603606036480L).toString())
        .isEqualTo(
            "1541815603606036480 = 2022-06-28T16:07:40.105Z datacenter=11 worker=26 sequence=0");
  }

  @Test
  void decodedId_unknownField_throwsListingFields() {
    assertThatThrownBy(() -> Layout.twitter().decode(1).field("shard"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("datacenter, worker");
  }
}
