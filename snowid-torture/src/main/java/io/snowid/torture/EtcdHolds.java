package io.snowid.torture;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The holds of an etcd registry, from its keys read every few milliseconds: a lease key ({@code
 * P/ns/NS/held/ID}, "token instance", attached to the holder's etcd lease) from the poll before the
 * one that first saw it to the poll that first saw it gone or changed. Also each loss record
 * ({@code P/reg/lostAt}, the finder's clock) with the end of the poll that first saw it.
 */
final class EtcdHolds implements AutoCloseable {
  /*
   * etcd's log carries no time, so a hold is bounded by the polls that saw it, as for file: (the
   * same widening). Each poll is one linearizable range read (etcd's default): it shows the key
   * space as it was at one instant between the poll's start and its end. A lease key written
   * after the last poll that saw the previous state of that key (absent, or another holder's
   * value) was written after that poll started; one deleted, expired with its lease or replaced
   * before the first poll that saw it gone was gone by that poll's end. A hold therefore spans
   * from the start of the last poll that saw the state before it to the end of the first poll
   * that saw the state after it: an over-estimate by at most a poll and its interval at each end,
   * never an under-estimate, so a violation reported is a real one. A poll that fails (etcd
   * restarting or rolled back) moves no bound: the next poll that answers settles what changed.
   *
   * The high-water mark is the highest one of the holder's persistent record (P/ns/NS/mark/ID,
   * "instance highWater …") seen while the hold lasted.
   *
   * A rollback takes keys away that their holders were promised until their etcd leases expire:
   * the state put back does not know them, but the holders cannot know that before their
   * deadlines. So each hold open when etcd stops for a rollback also lasts to the stop plus its
   * etcd lease time (promiseOpenHolds), as Redis's and SQL's holds last to the expiry written.
   */
  static final long POLL_MILLIS = 5;

  private static final Pattern KV = Pattern.compile("\\{[^{}]*\"key\":\"([^\"]*)\"[^{}]*\\}");
  private static final Pattern VALUE = Pattern.compile("\"value\":\"([^\"]*)\"");
  private static final Pattern INSTANCE = Pattern.compile("\\b(w\\d+-\\d+)\\b");
  private static final Pattern MARK = Pattern.compile("^(w\\d+-\\d+) (-?\\d+)\\b");

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();
  private final URI range;
  private final String body;
  private final String prefix;
  private final Map<String, KeyState> keys = new HashMap<>();
  private final List<Hold> holds = new ArrayList<>();
  private final List<long[]> lossRecords = new ArrayList<>();
  private final Set<String> lostAts = new HashSet<>();
  private final Thread poller;
  private volatile boolean closed;
  private long polls;
  private long failed;
  private long lastPollStart;

  /** What one lease key showed last. */
  private static final class KeyState {
    final String namespace;
    final long nodeKey;
    String value; // null while absent
    String instance = "";
    long highWater = Long.MIN_VALUE;
    long since;
    long lastSeenBefore; // the start of the last poll that saw the current state

    KeyState(String namespace, long nodeKey, long lastPollStart) {
      this.namespace = namespace;
      this.nodeKey = nodeKey;
      this.lastSeenBefore = lastPollStart;
    }
  }

  /**
   * Polls the keys under {@code prefix} (the workers' etcd prefix and a slash: {@code torture/}) of
   * the etcd at {@code clientUrl}, once now (before any worker starts) and then every {@link
   * #POLL_MILLIS} ms.
   */
  EtcdHolds(String clientUrl, String prefix) throws IOException, InterruptedException {
    this.range = URI.create(clientUrl + "/v3/kv/range");
    this.prefix = prefix;
    byte[] end = prefix.getBytes(StandardCharsets.UTF_8);
    end[end.length - 1]++;
    this.body =
        "{\"key\":\""
            + Base64.getEncoder().encodeToString(prefix.getBytes(StandardCharsets.UTF_8))
            + "\",\"range_end\":\""
            + Base64.getEncoder().encodeToString(end)
            + "\"}";
    if (!poll()) {
      throw new IOException("etcd at " + clientUrl + " did not answer a range read");
    }
    this.poller = new Thread(this::run, "etcd holds poller");
    poller.setDaemon(true);
    poller.start();
  }

  /** Whether the etcd at {@code clientUrl} says it is healthy. */
  static boolean health(String clientUrl) throws InterruptedException {
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(clientUrl + "/health"))
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 && r.body().replace(" ", "").contains("\"health\":\"true\"");
    } catch (IOException e) {
      return false;
    }
  }

  private void run() {
    while (!closed) {
      try {
        poll();
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One poll; false when etcd did not answer. */
  private synchronized boolean poll() throws InterruptedException {
    long before = Timeline.monoMicros();
    String answer;
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(range)
                  .timeout(Duration.ofSeconds(1))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        failed++;
        return false;
      }
      answer = r.body();
    } catch (IOException e) {
      failed++;
      return false;
    }
    long after = Timeline.monoMicros();
    Map<String, String> held = new HashMap<>();
    Map<String, String> marks = new HashMap<>();
    Matcher kv = KV.matcher(answer);
    while (kv.find()) {
      String key = decode(kv.group(1));
      Matcher v = VALUE.matcher(kv.group());
      String value = v.find() ? decode(v.group(1)) : "";
      String[] path = key.substring(prefix.length()).split("/");
      if (path.length == 4 && path[0].equals("ns") && path[2].equals("held")) {
        held.put(path[1] + "/" + path[3], value);
      } else if (path.length == 4 && path[0].equals("ns") && path[2].equals("mark")) {
        marks.put(path[1] + "/" + path[3], value);
      } else if (path.length == 2 && path[0].equals("reg") && path[1].equals("lostAt")) {
        if (value.matches("-?\\d+") && lostAts.add(value)) { // a restore brings back old ones
          lossRecords.add(new long[] {after, Long.parseLong(value)});
        }
      }
    }
    Set<String> all = new HashSet<>(keys.keySet());
    all.addAll(held.keySet());
    for (String key : all) {
      KeyState s = keys.computeIfAbsent(key, k -> newState(k, polls == 0 ? before : lastPollStart));
      String value = held.get(key);
      if (!Objects.equals(value, s.value)) {
        if (s.value != null) {
          holds.add(new Hold(s.instance, s.namespace, s.nodeKey, s.since, after, s.highWater));
        }
        Matcher instance = INSTANCE.matcher(value == null ? "" : value);
        s.value = value;
        s.instance = instance.find() ? instance.group(1) : "?";
        s.since = s.lastSeenBefore;
        s.highWater = Long.MIN_VALUE;
      }
      s.lastSeenBefore = before;
      Matcher mark = MARK.matcher(marks.getOrDefault(key, ""));
      if (s.value != null && mark.find() && mark.group(1).equals(s.instance)) {
        s.highWater = Math.max(s.highWater, Long.parseLong(mark.group(2)));
      }
    }
    lastPollStart = before;
    polls++;
    return true;
  }

  private static KeyState newState(String key, long lastPollStart) {
    int slash = key.lastIndexOf('/');
    return new KeyState(
        key.substring(0, slash), Long.parseLong(key.substring(slash + 1)), lastPollStart);
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }

  /**
   * The registry is about to lose its state (a rollback, the server stopped): every hold open now
   * may last, by etcd's promise, until its etcd lease expires, whatever the state put back says.
   *
   * @param stoppedMicros when etcd stopped: the last renewal it granted came before
   * @param etcdTtlMicros the etcd lease time of each instance
   */
  synchronized void promiseOpenHolds(long stoppedMicros, ToLongFunction<String> etcdTtlMicros) {
    for (KeyState s : keys.values()) {
      if (s.value != null) {
        holds.add(
            new Hold(
                s.instance,
                s.namespace,
                s.nodeKey,
                s.since,
                stoppedMicros + etcdTtlMicros.applyAsLong(s.instance),
                s.highWater));
      }
    }
  }

  /** Stops polling after one last poll. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    poller.interrupt();
    try {
      poller.join(5_000);
      poll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Every hold seen; one still running at the last poll reaches {@link Long#MAX_VALUE}. */
  synchronized List<Hold> holds() {
    List<Hold> all = new ArrayList<>(holds);
    for (KeyState s : keys.values()) {
      if (s.value != null) {
        all.add(new Hold(s.instance, s.namespace, s.nodeKey, s.since, Long.MAX_VALUE, s.highWater));
      }
    }
    return all;
  }

  /**
   * Each loss record seen: {the end of the poll that first saw it (monotonic µs), its lostAt (Unix
   * ms by the clock of the holder that found the loss)}.
   */
  synchronized List<long[]> lossRecords() {
    return List.copyOf(lossRecords);
  }

  synchronized String source() {
    return "etcd's lease keys, read every "
        + POLL_MILLIS
        + " ms ("
        + polls
        + " polls, "
        + failed
        + " unanswered)";
  }
}
