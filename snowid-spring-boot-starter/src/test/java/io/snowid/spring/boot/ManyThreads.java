package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.codec.IdCodec;
import io.snowid.spring.boot.app.Coupon;
import io.snowid.spring.boot.app.Coupons;
import io.snowid.spring.boot.app.Order;
import io.snowid.spring.boot.app.Orders;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Saves orders and coupons through the application's repositories from many threads and checks the
 * ids: no duplicates, increasing in each thread, all in the database.
 */
final class ManyThreads {
  private ManyThreads() {}

  /** Saves {@code threads × perThread} orders and as many coupons; returns every id. */
  static Set<Long> saveAndCheck(Orders orders, Coupons coupons, int threads, int perThread)
      throws Exception {
    long ordersBefore = orders.count();
    long couponsBefore = coupons.count();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<List<Long>>> futures = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        futures.add(
            pool.submit(
                () -> {
                  List<Long> mine = new ArrayList<>();
                  for (int i = 0; i < perThread; i++) {
                    Order o = orders.save(new Order("item " + i));
                    Coupon c = coupons.save(new Coupon(o.getId()));
                    mine.add(o.getId());
                    mine.add(IdCodec.BASE62.decode(c.getCode()));
                  }
                  return mine;
                }));
      }
      Set<Long> all = new HashSet<>();
      for (Future<List<Long>> f : futures) {
        List<Long> ids = f.get();
        assertThat(ids).isSorted().doesNotHaveDuplicates(); // each thread's ids increase
        all.addAll(ids);
      }
      assertThat(all).hasSize(threads * perThread * 2); // none shared between threads
      assertThat(orders.count() - ordersBefore).isEqualTo((long) threads * perThread);
      assertThat(coupons.count() - couponsBefore).isEqualTo((long) threads * perThread);
      return all;
    } finally {
      pool.shutdownNow();
    }
  }
}
