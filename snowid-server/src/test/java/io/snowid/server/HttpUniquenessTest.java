package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** 16 concurrent clients × 50,000 IDs through HTTP: no duplicates, each client's IDs increase. */
class HttpUniquenessTest {
  private static final int CLIENTS = 16;
  private static final int IDS_PER_CLIENT = 50_000;
  private static final int SINGLES = 1_000; // GET /id; the rest in GET /ids?count=1000
  private static final int BATCH = 1_000;

  @Test
  void sixteenClients_fiftyThousandIdsEach_noDuplicatesAndIncreasingPerClient() throws Exception {
    try (SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults().withPort(0).withNode("static:worker=7,datacenter=2"))) {
      Http http = new Http(server);
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      List<Future<long[]>> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        boolean singlesFirst = c % 2 == 0;
        clients.add(pool.submit(() -> fetch(http, singlesFirst)));
      }
      pool.shutdown();

      long[] all = new long[CLIENTS * IDS_PER_CLIENT];
      int pos = 0;
      for (Future<long[]> f : clients) {
        long[] ids = f.get();
        assertThat(ids).hasSize(IDS_PER_CLIENT);
        for (int i = 1; i < ids.length; i++) {
          assertThat(ids[i]).isGreaterThan(ids[i - 1]);
        }
        System.arraycopy(ids, 0, all, pos, ids.length);
        pos += ids.length;
      }
      Arrays.sort(all);
      int duplicates = 0;
      for (int i = 1; i < all.length; i++) {
        if (all[i] == all[i - 1]) {
          duplicates++;
        }
      }
      assertThat(duplicates).isZero();
    }
  }

  /** One client's IDs in the order it received them. */
  private static long[] fetch(Http http, boolean singlesFirst) {
    long[] ids = new long[IDS_PER_CLIENT];
    int n = 0;
    int batches = (IDS_PER_CLIENT - SINGLES) / BATCH;
    for (int round = 0; round < 2; round++) {
      if ((round == 0) == singlesFirst) {
        for (int i = 0; i < SINGLES; i++) {
          ids[n++] = Long.parseLong(ok(http.get("id")).strip());
        }
      } else {
        for (int b = 0; b < batches; b++) {
          for (String line : ok(http.get("ids?count=" + BATCH)).lines().toList()) {
            ids[n++] = Long.parseLong(line);
          }
        }
      }
    }
    return ids;
  }

  private static String ok(HttpResponse<String> r) {
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }
}
