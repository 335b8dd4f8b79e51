package io.snowid.spring.boot.mybatis;

import io.snowid.Snowflake;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@link LedgerApplication} as a child JVM ({@link LedgerJvm}): {@code PAYER ROWS PROPERTY…}.
 * Starts, prints {@code ledger: ready NODE}; on a line from standard input inserts ROWS payments of
 * PAYER in one batch through the mapper and prints {@code ledger: inserted ROWS}; when standard
 * input closes, closes the context (releasing its lease) and exits 0. Exits 1 on any failure.
 */
public final class LedgerMain {
  private LedgerMain() {}

  public static void main(String[] args) {
    try {
      run(args[0], Integer.parseInt(args[1]), Arrays.copyOfRange(args, 2, args.length));
    } catch (Throwable t) {
      t.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(String payer, int rows, String[] properties) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(LedgerApplication.class)
            .web(WebApplicationType.NONE)
            .properties(properties)
            .run()) {
      System.out.println("ledger: ready " + context.getBean(Snowflake.class).node());
      System.out.flush();
      if (in.readLine() == null) {
        return;
      }
      Payments payments = context.getBean(Payments.class);
      List<Payment> batch = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        batch.add(new Payment(payer, i));
      }
      payments.insert(batch); // one ID each, in one JDBC batch
      System.out.println("ledger: inserted " + batch.size());
      System.out.flush();
      while (in.read() >= 0) {
        // until the test closes standard input
      }
    }
  }
}
