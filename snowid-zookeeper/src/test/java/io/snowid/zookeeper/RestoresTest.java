package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RestoresTest {
  private static final long NONE = Records.NONE;
  private static final long SKEW = 1_000;

  private final Restores restores = new Restores("/root/registry");

  @Test
  void judge_belowAConfirmedWrite_isARestoreToRecord() {
    restores.confirmed(1_000, 50_000);

    assertThat(restores.judge(1_000, null, false, NONE, SKEW)).isEqualTo(Restores.Verdict.CURRENT);
    Restores.Verdict v = restores.judge(100, null, false, NONE, SKEW);
    assertThat(v.rollback()).contains("went back (0x64", "confirmed at 0x3e8");
    assertThat(v.record()).isNotNull();
  }

  @Test
  void judge_inTheHistoryWhereItRecordedTheRestore_isCurrent() {
    restores.confirmed(1_000, 50_000);
    String node = recordAt(103, 60_000);
    restores.confirmed(400, 61_000);

    assertThat(node).startsWith("/root/registry/restore-");
    assertThat(restores.judge(450, node, true, 60_000, SKEW)).isEqualTo(Restores.Verdict.CURRENT);
  }

  @Test
  void judge_toALaterBackupWithoutTheRecordedNode_isARestoreAgain() {
    restores.confirmed(1_000, 50_000);
    String node = recordAt(103, 60_000);

    // the backup's lostAt is from before this coordinator's last write
    assertThat(restores.judge(600, node, false, 40_000, SKEW).rollback())
        .contains("is gone (" + node, "zxid now 0x258");
  }

  @Test
  void judge_belowAWriteConfirmedSinceTheRecord_isARestoreAgain() {
    restores.confirmed(1_000, 50_000);
    String node = recordAt(103, 60_000);
    restores.confirmed(400, 61_000);

    assertThat(restores.judge(300, node, true, 60_000, SKEW).rollback())
        .contains("confirmed at 0x190");
  }

  @Test
  void judge_aLossAnotherProcessRecordedAfterEveryWriteOfThisOne_isTakenOnNotRecordedAgain() {
    restores.confirmed(1_000, 50_000);

    Restores.Verdict v = restores.judge(100, null, false, 51_001, SKEW);

    assertThat(v.rollback()).isEmpty();
    assertThat(v.record()).isNotNull();
  }

  @Test
  void judge_aLossRecordedWithinMaxSkewOfThisProcesssLastWrite_isARestoreToRecord() {
    restores.confirmed(1_000, 50_000);
    restores.confirmed(900, 52_000); // its latest write, at a lower zxid than its highest

    assertThat(restores.judge(100, null, false, 51_500, SKEW).rollback()).contains("went back");
    assertThat(restores.judge(100, null, false, 53_000, SKEW).rollback()).contains("went back");
    assertThat(restores.judge(100, null, false, 53_001, SKEW).rollback()).isEmpty();
  }

  @Test
  void recordedAfterEveryWrite_onlyALossMoreThanMaxSkewAfterTheLatestWrite() {
    assertThat(restores.recordedAfterEveryWrite(60_000, SKEW)).isFalse(); // no write yet
    restores.confirmed(1_000, 50_000);

    assertThat(restores.recordedAfterEveryWrite(NONE, SKEW)).isFalse();
    assertThat(restores.recordedAfterEveryWrite(51_000, SKEW)).isFalse();
    assertThat(restores.recordedAfterEveryWrite(51_001, SKEW)).isTrue();
  }

  @Test
  void judge_theRecordsNodeGoneWithTheZxidAboveEveryWrite_isARestoreAgain() {
    restores.confirmed(1_000, 50_000);
    String node = recordAt(103, 60_000);

    // a later backup of the old history: above every write, but without the record's node
    assertThat(restores.judge(1_200, node, false, 40_000, SKEW).rollback())
        .contains("is gone (" + node);
  }

  // Two acquisitions of one coordinator recorded the restore at once: the one at the lower zxid
  // finished last, and the other's zxid was lost from the writes confirmed since.
  @Test
  void recorded_afterAConcurrentRecordAtAHigherZxid_keepsThatZxid() {
    restores.confirmed(1_000, 50_000);
    Restores.Record first = restores.judge(100, null, false, NONE, SKEW).record();
    Restores.Record second = restores.judge(100, null, false, NONE, SKEW).record();
    restores.recorded(second, 120, 60_001);
    restores.confirmed(130, 60_002); // a renewal in the new history
    restores.recorded(first, 110, 60_000);

    assertThat(restores.foundNode()).isEqualTo(first.node);
    assertThat(restores.judge(125, first.node, true, 60_000, SKEW).rollback())
        .contains("confirmed at 0x82");
    assertThat(restores.judge(130, first.node, true, 60_000, SKEW))
        .isEqualTo(Restores.Verdict.CURRENT);
  }

  @Test
  void judge_eachRecordHasANewNode() {
    restores.confirmed(1_000, 50_000);

    assertThat(restores.judge(100, null, false, NONE, SKEW).record().node)
        .isNotEqualTo(restores.judge(100, null, false, NONE, SKEW).record().node);
  }

  /** Records a restore found below the confirmed writes, at {@code zxid}; its node. */
  private String recordAt(long zxid, long mtimeMillis) {
    Restores.Record r = restores.judge(zxid - 3, null, false, NONE, SKEW).record();
    restores.recorded(r, zxid, mtimeMillis);
    assertThat(restores.foundNode()).isEqualTo(r.node);
    return r.node;
  }
}
