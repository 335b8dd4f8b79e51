package io.snowid.jdbc;

import io.snowid.testkit.ConnectWaitContract;
import java.nio.file.Path;
import java.util.UUID;

/** {@link ConnectWaitContract} on a database server of the test's own ({@link PrivateDatabase}). */
abstract class DatabaseConnectWaitContract extends ConnectWaitContract {
  /** Starts a private server of this kind. */
  abstract PrivateDatabase create() throws Exception;

  @Override
  protected PrivateRegistry startPrivate(Path dir) throws Exception {
    PrivateDatabase db = create();
    return new PrivateRegistry() {
      @Override
      public int port() {
        return db.port();
      }

      @Override
      public void stop() throws Exception {
        db.stopImmediately();
      }

      @Override
      public void start() throws Exception {
        db.start();
      }

      @Override
      public void close() throws Exception {
        db.close();
      }

      @Override
      public String toString() {
        return db.url();
      }
    };
  }

  @Override
  protected String uri(PrivateRegistry registry, String options) {
    String namespace = "wait_" + UUID.randomUUID().toString().substring(0, 8);
    return registry + "&create=true&namespace=" + namespace + "&" + options;
  }
}
