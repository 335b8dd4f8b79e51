package io.snowid.zookeeper;

import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.ZooKeeper;

/**
 * One ZooKeeper session through Curator, asked for one timeout: the leases taken through it live as
 * long as it does. Curator reconnects by itself; {@link ConnectionState#LOST} (the session expired,
 * or Curator gave it up) starts a new {@linkplain #generation() generation}, and every lease of an
 * earlier one is lost (docs/design.md, "The zookeeper:// backend").
 */
final class Session implements AutoCloseable {
  /** How long opening waits for the first connection. */
  static final long CONNECT_MILLIS = 5_000;

  private final CuratorFramework client;
  private final long askedMillis;
  private final int grantedMillis;
  private final AtomicLong generation = new AtomicLong();

  private Session(CuratorFramework client, long askedMillis, int grantedMillis) {
    this.client = client;
    this.askedMillis = askedMillis;
    this.grantedMillis = grantedMillis;
  }

  /**
   * Connects and waits for the session, at most {@link #CONNECT_MILLIS}.
   *
   * @throws NodeIdUnavailableException for a host that does not resolve (at once)
   * @throws RegistryUnavailableException when no server answered in time
   */
  static Session open(ZooKeeperSettings settings, long askedMillis) {
    refuseUnknownOrSilent(settings);
    CuratorFrameworkFactory.Builder builder =
        CuratorFrameworkFactory.builder()
            .connectString(settings.connectString())
            .sessionTimeoutMs((int) Math.min(Integer.MAX_VALUE, askedMillis))
            .connectionTimeoutMs((int) CONNECT_MILLIS)
            .retryPolicy(new RetryNTimes(0, 0)); // every call is sent once: see Calls
    if (settings.digest() != null) {
      builder.authorization("digest", settings.auth());
    }
    CuratorFramework client = builder.build();
    AtomicLong lost = new AtomicLong();
    client
        .getConnectionStateListenable()
        .addListener(
            (c, state) -> {
              if (state == ConnectionState.LOST) {
                lost.incrementAndGet();
              }
            });
    client.start();
    boolean connected;
    try {
      connected = client.blockUntilConnected((int) CONNECT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      connected = false;
    }
    int granted;
    try {
      granted = connected ? client.getZookeeperClient().getZooKeeper().getSessionTimeout() : 0;
    } catch (Exception e) {
      granted = 0;
    }
    if (!connected || granted <= 0) {
      client.close();
      throw new RegistryUnavailableException(
          "ZooKeeper at "
              + settings.describe()
              + " did not answer within "
              + CONNECT_MILLIS
              + " ms (no server of the ensemble accepted a session)");
    }
    Session s = new Session(client, askedMillis, granted);
    client
        .getConnectionStateListenable()
        .addListener(
            (c, state) -> {
              if (state == ConnectionState.LOST) {
                s.generation.incrementAndGet();
              }
            });
    s.generation.addAndGet(lost.get());
    return s;
  }

  /** How long the probe of one server waits for its TCP connection. */
  private static final int PROBE_MILLIS = 1_000;

  /**
   * Fails at once for a host that does not resolve, and quickly when no server accepts a TCP
   * connection (refused: nothing listens yet), so that a start waiting for its registry tries again
   * soon instead of after the client's whole connection timeout.
   */
  private static void refuseUnknownOrSilent(ZooKeeperSettings settings) {
    List<String> refused = new ArrayList<>();
    for (String server : settings.connectString().split(",")) {
      int colon = server.lastIndexOf(':');
      String host = server.substring(0, colon).replace("[", "").replace("]", "");
      InetAddress[] addresses;
      try {
        addresses = InetAddress.getAllByName(host);
      } catch (UnknownHostException e) {
        throw new NodeIdUnavailableException(
            "ZooKeeper at " + settings.describe() + ": unknown host " + host);
      }
      int port = Integer.parseInt(server.substring(colon + 1));
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(addresses[0], port), PROBE_MILLIS);
        return; // one server listens: the client connects to it
      } catch (IOException e) {
        refused.add(server + " (" + e.getMessage() + ")");
      }
    }
    throw new RegistryUnavailableException(
        "ZooKeeper at " + settings.describe() + " did not answer: " + String.join(", ", refused));
  }

  /** The client's current ZooKeeper handle: one session; Curator replaces it after expiry. */
  ZooKeeper handle() {
    try {
      return client.getZookeeperClient().getZooKeeper();
    } catch (Exception e) {
      throw new RegistryUnavailableException("ZooKeeper client not ready: " + e.getMessage());
    }
  }

  /** Counts the LOST events: a lease taken in an earlier generation is lost. */
  long generation() {
    return generation.get();
  }

  long askedMillis() {
    return askedMillis;
  }

  /** The session timeout the ensemble negotiated: how long it keeps a silent session. */
  int grantedMillis() {
    return grantedMillis;
  }

  /** Closes the session: the ensemble deletes its ephemeral nodes at once. */
  @Override
  public void close() {
    client.close();
  }
}
