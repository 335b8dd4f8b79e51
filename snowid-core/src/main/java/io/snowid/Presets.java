package io.snowid;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The named layouts. Each spec cites the published description it was checked against. */
final class Presets {
  private static final Map<String, String> SPECS = new LinkedHashMap<>();

  static {
    // Twitter's IdWorker (snowflake 2010): 41 ms, 5 datacenter, 5 worker, 12 sequence,
    // twepoch = 1288834974657. hutool's Snowflake and MyBatis-Plus's IdWorker use the same.
    SPECS.put(
        "twitter", "time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z");
    // westid README: (timestamp << 22) | (machine << 12) | sequence, epoch 1490346283706.
    SPECS.put("westid", "time=41,worker=10,sequence=12,epoch=1490346283706");
    // Discord API reference, "Snowflakes": 42 bits of ms since 1420070400000, internal worker
    // (5), internal process (5), increment (12).
    SPECS.put("discord", "time=42,worker=5,process=5,sequence=12,epoch=1420070400000");
    // Instagram engineering, "Sharding & IDs at Instagram": 41 bits ms since 1314220021721,
    // 13 bits logical shard, 10 bits sequence (the SQL shifts time by 23).
    SPECS.put("instagram", "time=41,shard=13,sequence=10,epoch=1314220021721");
    // Sonyflake README: 39 bits of 10 ms units since 2014-09-01T00:00:00Z, 8 bits sequence,
    // 16 bits machine id (the sequence sits above the machine).
    SPECS.put("sonyflake", "time=39,sequence=8,machine=16,epoch=2014-09-01T00:00:00Z,unit=10ms");
    // Sonyflake v2 (github.com/sony/sonyflake, v2/sonyflake.go): the same default bits (39 time in
    // 10 ms, 8 sequence, 16 machine; toID shifts time by 24 and the sequence by 16), but the
    // default StartTime is 2025-01-01T00:00:00Z: a v2 ID read as v1 is 10.3 years off.
    SPECS.put("sonyflake-v2", "time=39,sequence=8,machine=16,epoch=2025-01-01T00:00:00Z,unit=10ms");
    // Baidu uid-generator DefaultUidGenerator: 28 bits of seconds since epochSeconds of
    // 1463673600000 ms ("2016-05-20" at +08:00), 22 bits worker, 13 bits sequence.
    // 2^28 s ran out on 2024-11-20: decode only.
    SPECS.put("baidu", "time=28,worker=22,sequence=13,epoch=1463673600000,unit=1s");
    // TSID (tsid-creator TsidFactory, its defaults): 42 bits of ms since Tsid.TSID_EPOCH,
    // 2020-01-01T00:00:00Z, then a 22-bit random component of a 10-bit node (NODE_BITS_1024) and
    // a 12-bit counter: time << 22 | node << 12 | counter. 64 bits: read unsigned, as discord.
    SPECS.put("tsid", "time=42,node=10,sequence=12,epoch=2020-01-01T00:00:00Z");
    // Hazelcast FlakeIdGenerator (FlakeIdGeneratorConfig defaults, FlakeIdGeneratorProxy):
    // 41 bits of ms since DEFAULT_EPOCH_START 1514764800000 (2018-01-01), 6 sequence, 16 node id,
    // ((time << 6) | seq) << 16 | node: the sequence sits above the node, as in Sonyflake.
    SPECS.put("hazelcast", "time=41,sequence=6,node=16,epoch=2018-01-01T00:00:00Z");
    // yitter IdGenerator (Java IdGeneratorOptions defaults, SnowWorkerM1.CalcId): ms since
    // BaseTime 1582136402000 shifted by WorkerIdBitLength 6 + SeqBitLength 6, worker << 6 | seq.
    // The time takes the rest of 63 bits. Its sequences 0..4 are reserved for its clock-back
    // handling, and its "drift" may issue times ahead of the clock: both decode as they are.
    SPECS.put("yitter", "time=51,worker=6,sequence=6,epoch=1582136402000");
    // snowid's own: 53 bits, so every ID it will ever issue is exact in a JavaScript number.
    SPECS.put("js53", "time=41,worker=5,sequence=7,epoch=2024-01-01T00:00:00Z");
    // westid's 32-bit QrSceneId: milliseconds modulo 2^21 (a window of about
    // 35 minutes), 5 worker, 5 sequence; 31 bits, so a positive int. See Int32Generator.
    SPECS.put("int32", "time=21,worker=5,sequence=5,epoch=1970-01-01T00:00:00Z,wrap=true");
  }

  private static final Map<String, Layout> CACHE = new ConcurrentHashMap<>();

  private Presets() {}

  static Layout get(String name) {
    String spec = SPECS.get(name);
    if (spec == null) {
      throw new InvalidSettingException(
          "layout",
          name,
          "a spec string or one of "
              + String.join(", ", names())
              + InvalidSettingException.nearMiss(name, names())
                  .map(n -> "; did you mean " + n + "?")
                  .orElse(""));
    }
    return CACHE.computeIfAbsent(name, n -> LayoutSpec.parse(spec));
  }

  static List<String> names() {
    return List.copyOf(SPECS.keySet());
  }
}
