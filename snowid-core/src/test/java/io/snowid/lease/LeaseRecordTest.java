package io.snowid.lease;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease record's format: a record is read only as snowid writes it ({@link
 * LeaseRecord#VERSION}, every key, {@link LeaseRecord#SIZE} bytes); anything else is damage, which
 * a newcomer waits out, or, from a newer snowid, an id that counts as taken.
 */
class LeaseRecordTest {
  private static final LeaseRecord RECORD =
      new LeaseRecord(
          LeaseRecord.VERSION,
          "svc",
          "t0k3n",
          "host",
          "boot",
          42,
          "pid:[1]",
          7,
          2_000,
          1_000,
          3_000,
          4_000,
          5_000);

  @TempDir Path tmp;

  /** Properties text with its checksum, padded as a record is to {@code size} bytes. */
  private static byte[] checksummed(String text, int size) {
    CRC32 crc = new CRC32();
    crc.update(text.getBytes(UTF_8));
    StringBuilder sb = new StringBuilder(text).append("crc=").append(crc.getValue()).append("\n#");
    while (sb.length() < size - 1) {
      sb.append(' ');
    }
    return sb.append('\n').toString().getBytes(UTF_8);
  }

  private static LeaseRecord parse(byte[] bytes) throws LeaseRecord.DamagedException {
    return LeaseRecord.parse(bytes, bytes.length);
  }

  @Test
  void parse_aRecordAsWritten_isTheRecord() throws Exception {
    assertThat(parse(RECORD.bytes())).isEqualTo(RECORD);
  }

  @Test
  void parse_blank_isNoRecord() throws Exception {
    assertThat(parse(new byte[0])).isNull();
    assertThat(parse(" \n ".getBytes(UTF_8))).isNull();
  }

  @Test
  void parse_noVersionLine_isDamaged() {
    byte[] bytes =
        checksummed(
            "instance=svc\ntoken=\nbase=1000\nhighWater=1000\nexpiresAt=-9223372036854775808\n",
            256);
    assertThatThrownBy(() -> parse(bytes))
        .isInstanceOf(LeaseRecord.DamagedException.class)
        .hasMessage("no version");
  }

  @Test
  void parse_versionBelowThisOne_isDamaged() {
    String text = new String(RECORD.bytes(), UTF_8);
    String body = text.substring(0, text.indexOf("crc=")).replace("version=2\n", "version=1\n");
    assertThatThrownBy(() -> parse(checksummed(body, LeaseRecord.SIZE)))
        .isInstanceOf(LeaseRecord.DamagedException.class)
        .hasMessageContaining("record version 1");
  }

  @Test
  void parse_recordOfThisVersionButShorter_isDamaged() {
    String text = new String(RECORD.bytes(), UTF_8);
    byte[] bytes = checksummed(text.substring(0, text.indexOf("crc=")), 256);
    assertThatThrownBy(() -> parse(bytes))
        .isInstanceOf(LeaseRecord.DamagedException.class)
        .hasMessage("256 bytes, not 512");
  }

  @Test
  void parse_recordOfThisVersionWithoutAKey_isDamaged() {
    String text = new String(RECORD.bytes(), UTF_8);
    String body = text.substring(0, text.indexOf("crc=")).replace("pid=42\n", "");
    assertThatThrownBy(() -> parse(checksummed(body, LeaseRecord.SIZE)))
        .isInstanceOf(LeaseRecord.DamagedException.class)
        .hasMessage("no pid");
  }

  @Test
  void parse_newerVersionWithOtherKeys_isReadAsNewer() throws Exception {
    LeaseRecord r = parse(checksummed("version=3\ninstance=svc\nsomethingNew=1\n", 1_024));
    assertThat(r.isNewer()).isTrue();
    assertThat(r.instance()).isEqualTo("svc");
    assertThat(r.pid()).isEqualTo(-1);
  }

  /**
   * A record snowid never wrote (here: no version line) tells nothing of its holder: the id is
   * taken after one lease time, as after any damage, never at once.
   */
  @Test
  void acquire_recordWithoutAVersionLine_takenAfterOneLeaseTime() throws Exception {
    Path leases = Files.createDirectories(tmp.resolve("leases"));
    Path ns = Files.createDirectories(leases.resolve("ns"));
    Files.write(
        ns.resolve("0.lease"),
        checksummed(
            "instance=svc\ntoken=\nbase=1000\nhighWater=1000\nexpiresAt=-9223372036854775808\n",
            256));
    Duration ttl = Duration.ofSeconds(2);
    long now = System.currentTimeMillis();

    try (FileLeaseCoordinator c =
        FileLeaseCoordinator.open("file:" + leases, new HostClaims(tmp.resolve("claims")))) {
      Lease l = c.acquire(new AcquireRequest("ns", 1, "svc", new LeaseTerms(ttl, now, now)));

      assertThat(l.nodeId()).isZero();
      assertThat(l.highWaterMillis()).isEqualTo(now + ttl.toMillis());
    }
    assertThat(Files.size(ns.resolve("0.lease"))).isEqualTo(LeaseRecord.SIZE);
  }
}
