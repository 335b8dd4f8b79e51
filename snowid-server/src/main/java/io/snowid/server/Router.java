package io.snowid.server;

import io.snowid.ClockMovedBackwardsException;
import io.snowid.InvalidIdException;
import io.snowid.InvalidSettingException;
import io.snowid.LayoutExpiredException;
import io.snowid.Snowflake;
import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseWindowExceededException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the token, routes by path, allows only GET, turns exceptions into JSON errors (400 for bad
 * input, a batch too large for the lease included; 429 beyond the cap on IDs reserved ahead; 503
 * while IDs cannot be issued; 500 with no detail for anything else) and times every request (status
 * {@value Exchange#GONE} for one whose client was gone: nothing was issued or written).
 */
final class Router extends Handler.Abstract.NonBlocking {
  private static final Logger LOG = LoggerFactory.getLogger(Router.class);
  private static final String ROUTES =
      "GET /id, /ids?count=N, /decode/{id}, /range?from=T&to=T, /health, /metrics (optional ?format=)";

  /** What {@link #serve} returns when the answer must wait and may not: hand it to the pool. */
  static final int MUST_WAIT = IdEndpoints.MUST_WAIT;

  private final BearerAuth auth;
  private final ServiceMetrics metrics;
  private final IdEndpoints ids;
  private final DecodeEndpoint decode;
  private final RangeEndpoint range;
  private final HealthEndpoint health;
  private final InFlight inFlight;

  Router(
      Snowflake generator,
      BearerAuth auth,
      ServiceMetrics metrics,
      InFlight inFlight,
      ReservedAhead reservedAhead,
      Unsent unsent) {
    this.auth = auth;
    this.inFlight = inFlight;
    this.metrics = metrics;
    this.ids = new IdEndpoints(generator, metrics, reservedAhead, unsent);
    this.decode = new DecodeEndpoint(generator.layout());
    this.range = new RangeEndpoint(generator.layout());
    this.health = new HealthEndpoint(generator);
  }

  /**
   * Runs on the thread that parsed the request, with no hand-off to the pool, whatever can be
   * answered at once: {@code /health}, {@code /decode}, {@code /range}, errors, and {@code /id}
   * when its ID needs no wait ({@link io.snowid.Snowflake#tryNextId()}). An {@code /id} that must
   * wait for its time unit, a high-water mark or a lease renewal, {@code /ids} (which may wait for
   * the next millisecond) and {@code /metrics} go to the pool: a request that waits never holds up
   * the connections behind it. A request whose connection is gone (pipelined behind a response that
   * failed) is not served at all.
   */
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long start = System.nanoTime();
    String path = Request.getPathInContext(request);
    Endpoint endpoint = Endpoint.of(path);
    Exchange exchange = new Exchange(callback, inFlight, GuardedEndPoint.of(request));
    if (!exchange.connected()) {
      metrics.record(endpoint, exchange.gone(), System.nanoTime() - start);
    } else if (endpoint == Endpoint.IDS
        || endpoint == Endpoint.METRICS
        || serve(endpoint, path, request, response, exchange, start, false) == MUST_WAIT) {
      handOff(endpoint, path, request, response, exchange, start);
    }
    return true;
  }

  /**
   * Serves the request on a thread of the pool, where it may wait. Until its response is being
   * written, a failure of the request (its connection closed) ends it without one, and the idle
   * timeout does not cut it unless the server is stopping: the wait is bounded by the cap on IDs
   * reserved ahead, and a request cut while its response is being written leaves Jetty failing a
   * write still in progress.
   */
  private void handOff(
      Endpoint endpoint,
      String path,
      Request request,
      Response response,
      Exchange exchange,
      long start) {
    request.addFailureListener(exchange::abandon);
    request.addIdleTimeoutListener(timeout -> !exchange.open() || inFlight.isStopping());
    try {
      request
          .getComponents()
          .getExecutor()
          .execute(() -> serve(endpoint, path, request, response, exchange, start, true));
    } catch (RejectedExecutionException e) {
      int status =
          Replies.error(response, exchange, 503, "busy; retry shortly", Replies.RETRY_AFTER);
      metrics.record(endpoint, status, System.nanoTime() - start);
    }
  }

  /**
   * Answers the request and records it; returns the status, or {@link #MUST_WAIT} (and answers
   * nothing) when {@code mayWait} is false and the answer would have to wait.
   */
  private int serve(
      Endpoint endpoint,
      String path,
      Request request,
      Response response,
      Exchange exchange,
      long start,
      boolean mayWait) {
    int status;
    try {
      status =
          mayWait && !exchange.connected()
              ? exchange.gone() // closed while the request waited for a thread
              : dispatch(endpoint, path, request, response, exchange, mayWait);
      if (status == MUST_WAIT) {
        return MUST_WAIT;
      }
    } catch (HttpError e) {
      status = Replies.error(response, exchange, e.status(), e.getMessage());
    } catch (InvalidSettingException | InvalidIdException | LeaseWindowExceededException e) {
      status = Replies.error(response, exchange, 400, e.getMessage());
    } catch (LeaseLostException e) {
      status =
          Replies.error(
              response,
              exchange,
              503,
              "the node id lease is not held: no IDs until it is renewed (see /health)",
              Replies.RETRY_AFTER);
    } catch (ClockMovedBackwardsException e) {
      status =
          Replies.error(
              response,
              exchange,
              503,
              "the clock moved backwards further than this service waits; retry shortly",
              Replies.RETRY_AFTER);
    } catch (LayoutExpiredException e) {
      status = Replies.error(response, exchange, 503, "the layout's lifetime is over");
    } catch (RuntimeException e) {
      LOG.error("{} {} failed", request.getMethod(), endpoint.tag, e);
      status = Replies.error(response, exchange, 500, "internal error");
    }
    metrics.record(endpoint, status, System.nanoTime() - start);
    return status;
  }

  private int dispatch(
      Endpoint endpoint,
      String path,
      Request request,
      Response response,
      Exchange exchange,
      boolean mayWait) {
    if (!auth.allows(request)) {
      return Replies.error(
          response, exchange, 401, "missing or wrong bearer token", Replies.BEARER);
    }
    if (endpoint == Endpoint.OTHER) {
      throw new HttpError(404, "no such path; the endpoints are " + ROUTES);
    }
    // HEAD only for /health, which some health checkers send: HEAD /id would spend an ID unseen.
    boolean head = endpoint == Endpoint.HEALTH && HttpMethod.HEAD.is(request.getMethod());
    if (!head && !HttpMethod.GET.is(request.getMethod())) {
      boolean health = endpoint == Endpoint.HEALTH;
      return Replies.error(
          response,
          exchange,
          405,
          "method "
              + Query.shorten(request.getMethod())
              + " not allowed; use GET"
              + (health ? " or HEAD" : ""),
          health ? Replies.ALLOW_GET_HEAD : Replies.ALLOW_GET);
    }
    if (endpoint == Endpoint.HEALTH || endpoint == Endpoint.METRICS) {
      Query.parse(request.getHttpURI().getQuery()); // they take no parameter: any is an error
    }
    return switch (endpoint) {
      case ID -> ids.id(request, response, exchange, mayWait);
      case IDS -> ids.ids(request, response, exchange);
      case DECODE -> decode.decode(path, request, response, exchange);
      case RANGE -> range.range(request, response, exchange);
      case HEALTH -> health.health(response, exchange);
      case METRICS ->
          Replies.send(
              response,
              exchange,
              200,
              Replies.PROMETHEUS,
              metrics.scrape().getBytes(StandardCharsets.UTF_8));
      case OTHER, REJECTED -> throw new HttpError(404, "no such path");
    };
  }
}
