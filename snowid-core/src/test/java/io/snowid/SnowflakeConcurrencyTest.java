package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.IdChecker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Guarantees 1 and 2 (unique, monotonic, linearizable) under real threads and the real clock. */
class SnowflakeConcurrencyTest {

  @Test
  void nextId_eightThreadsMillionEach_uniqueStrictlyIncreasingLinearizable() {
    Snowflake gen = Snowflake.builder().node("datacenter", 3).node("worker", 17).build();

    IdChecker.Report report = IdChecker.check(gen::nextId, 8, 1_000_000).assertClean();

    long[] sorted = report.sortedIds();
    assertThat(sorted).hasSize(8_000_000);
    assertThat(sorted[0]).isPositive();
    for (int i = 1; i < sorted.length; i++) {
      assertThat(sorted[i]).isGreaterThan(sorted[i - 1]); // a permutation of distinct values
    }
    for (int i = 0; i < sorted.length; i += 9973) {
      DecodedId d = gen.layout().decode(sorted[i]);
      assertThat(d.fields()).containsEntry("datacenter", 3L).containsEntry("worker", 17L);
    }
  }

  @Test
  void nextId_lockstepThreadsOnSonyflakeLayout_unique() {
    // sequence above the machine field, 10 ms unit: a different compose path
    Snowflake gen = Snowflake.builder().layout("sonyflake").node("machine", 0xBEEF).build();

    IdChecker.check(gen::nextId, 4, 5_000).assertClean();
  }

  @Test
  void nextIds_concurrentBatches_eachIsAContiguousAscendingRun() throws InterruptedException {
    Snowflake gen = Snowflake.builder().node("datacenter", 1).node("worker", 2).build();
    int threads = 4;
    int batches = 500;
    List<long[]> all = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int size = 1 + t * 3000; // 1, 3001, 6001, 9001: several span more than one tick
      Thread w =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                for (int b = 0; b < batches; b++) {
                  long[] batch = new long[size];
                  gen.nextIds(batch);
                  all.add(batch);
                  all.add(new long[] {gen.nextId()});
                }
              });
      workers.add(w);
      w.start();
    }
    go.countDown();
    for (Thread w : workers) {
      w.join();
    }

    long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    for (int i = 1; i < merged.length; i++) {
      assertThat(merged[i]).as("duplicate").isNotEqualTo(merged[i - 1]);
    }
    for (long[] batch : all) {
      int first = Arrays.binarySearch(merged, batch[0]);
      for (int i = 1; i < batch.length; i++) {
        assertThat(batch[i]).isGreaterThan(batch[i - 1]);
        assertThat(merged[first + i]).as("foreign ID inside a batch").isEqualTo(batch[i]);
      }
    }
  }
}
