package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.snowid.Layout;
import io.snowid.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdLogTest {
  private static final Layout LAYOUT = Layout.parse(Options.LAYOUT);

  @TempDir Path dir;

  /** One record read back: kind, id, micros, segment, event. */
  private record Rec(IdLogReader.Kind kind, long id, long micros, boolean segment, IdLog.Event e) {}

  @Test
  void read_idsEventsAndKeyChangesAcrossChunks_returnsWhatWasWritten() throws Exception {
    Path file = dir.resolve("w.ids");
    int count = 20_000_000; // more than two chunks of 2-byte records
    try (IdLogWriter w = new IdLogWriter(file, WorkerMain.keyMask(LAYOUT))) {
      Records records = new Records();
      for (int i = 0; i < count; i++) {
        Rec r = records.next();
        if (r.kind() == IdLogReader.Kind.EVENT) {
          w.event(r.e(), r.micros() * 1000 + records.nanosBelowMicros);
        } else {
          w.id(r.id(), r.micros() * 1000 + records.nanosBelowMicros);
        }
      }
      w.end();
    }
    assertThat(file.toFile().length()).isGreaterThan(2L * IdLog.CHUNK);
    // read back against the same records made again: 20 million of them are not kept in memory
    Records expected = new Records();
    long read = 0;
    try (IdLogReader r = new IdLogReader(file)) {
      for (; read < count; read++) {
        Rec e = expected.next();
        if (!r.next()
            || r.kind() != e.kind()
            || r.micros() != e.micros()
            || (e.kind() == IdLogReader.Kind.ID && r.id() != e.id())
            || (e.kind() == IdLogReader.Kind.EVENT && r.event() != e.e())
            || (e.segment() && !r.segment())) {
          fail("record %d: expected %s", read, e);
        }
      }
      assertThat(r.next()).as("the end record").isTrue();
      assertThat(r.kind()).isEqualTo(IdLogReader.Kind.END);
      assertThat(r.micros()).isEqualTo(expected.nanos / 1000);
      assertThat(r.next()).as("nothing after the end").isFalse();
    }
  }

  /**
   * The records of the chunk test, from a seeded random: IDs with key changes (another worker
   * value) and order breaks, each starting a segment, and fenced events.
   */
  private static final class Records {
    private final SplittableRandom random = new SplittableRandom(42);
    private final long worker = LAYOUT.field("worker").orElseThrow().shift();
    private long id = LAYOUT.compose(1_000_000L, 0, 5, 0); // time, clockback, worker, sequence
    private long nanos = 1_000_000_000L;
    private boolean first = true;
    long nanosBelowMicros;

    Rec next() {
      int pick = random.nextInt(100_000);
      boolean segment = first;
      first = false;
      if (pick == 0) {
        id += 1L << worker; // another worker value: a new segment
        segment = true;
      } else if (pick == 1) {
        id -= 5; // not above the previous one: a new segment
        segment = true;
      } else if (pick == 2) {
        nanos += 5_000;
        nanosBelowMicros = nanos % 1000;
        return new Rec(IdLogReader.Kind.EVENT, 0, nanos / 1000, false, IdLog.Event.FENCED);
      } else {
        id += 1 + (pick % 3 == 0 ? 4_000_000 : 0);
      }
      nanos += random.nextInt(3_000);
      nanosBelowMicros = nanos % 1000;
      return new Rec(IdLogReader.Kind.ID, id, nanos / 1000, segment, null);
    }
  }

  @Test
  void at_segmentOffset_readsOnFromThere() throws Exception {
    Path file = dir.resolve("w.ids");
    long offset;
    try (IdLogWriter w = new IdLogWriter(file, WorkerMain.keyMask(LAYOUT))) {
      w.id(100, 1_000);
      w.id(101, 2_000);
      w.id(50, 3_000); // a new segment
      w.id(51, 4_000);
    }
    try (IdLogReader r = new IdLogReader(file)) {
      r.next();
      r.next();
      r.next();
      assertThat(r.segment()).isTrue();
      offset = r.offset();
    }
    try (IdLogReader r = IdLogReader.at(file, offset)) {
      assertThat(r.next()).isTrue();
      assertThat(r.id()).isEqualTo(50);
      assertThat(r.next()).isTrue();
      assertThat(r.id()).isEqualTo(51);
      assertThat(r.next()).isFalse();
    }
  }

  /**
   * A writer JVM killed with SIGKILL while it writes as fast as it can: what was stored is whole, a
   * gapless prefix of what it wrote (no torn or damaged record).
   */
  @Tag("integration")
  @Test
  void read_writerKilledBySigkill_readsAGaplessPrefix() throws Exception {
    Path file = dir.resolve("killed.ids");
    Process p =
        ChildJvm.of(IdLogWriterMain.class, List.of("-Xmx64m"), file.toString())
            .redirectError(dir.resolve("err").toFile())
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("writing");
      Thread.sleep(300);
      p.destroyForcibly(); // SIGKILL mid-stream
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    long expected = 1;
    try (IdLogReader r = new IdLogReader(file)) {
      while (r.next()) {
        assertThat(r.kind()).isEqualTo(IdLogReader.Kind.ID);
        assertThat(r.id()).isEqualTo(expected);
        assertThat(r.micros()).isEqualTo(expected * 7);
        expected++;
      }
    }
    assertThat(expected).as("IDs read back").isGreaterThan(1_000_000);
  }
}
