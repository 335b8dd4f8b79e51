package io.snowid.server;

import io.snowid.DecodedId;
import io.snowid.InvalidIdException;
import io.snowid.Layout;
import io.snowid.codec.IdCodec;
import io.snowid.codec.UndetectedFormException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /decode/{id}}: the ID in any text form ({@code format}, or detected), split by the
 * service's layout or {@code layout} (a preset or a spec).
 */
final class DecodeEndpoint {
  private static final int MAX_ID_LENGTH = 64;
  private static final String EXAMPLE = "/decode/1541815603606036480";

  private final Layout layout;

  DecodeEndpoint(Layout layout) {
    this.layout = layout;
  }

  int decode(String path, Request request, Response response, Callback callback) {
    Query query = Query.parse(request.getHttpURI().getQuery(), "format", "layout");
    String text = path.substring(Endpoint.DECODE_PREFIX.length());
    if (text.isEmpty()) {
      throw HttpError.badRequest("no id after /decode/ (e.g. " + EXAMPLE + ")");
    }
    if (text.length() > MAX_ID_LENGTH) {
      throw new InvalidIdException(
          Query.shorten(text), "longer than " + MAX_ID_LENGTH + " characters");
    }
    Layout given = query.read("layout", Layout::preset, EXAMPLE + "?layout=discord");
    Layout l = given == null ? layout : given;
    IdCodec named = query.read("format", IdCodec::named, EXAMPLE + "?format=decimal");
    IdCodec codec = named == null ? detect(text) : named;
    long id = codec.decode(text);
    DecodedId d;
    try {
      d = l.decode(id);
    } catch (InvalidIdException e) {
      throw new InvalidIdException(Query.shorten(text), e.reason()); // the input, not the number
    }
    return Replies.json(response, callback, 200, d.toJson());
  }

  private static IdCodec detect(String text) {
    try {
      return IdCodec.detect(text);
    } catch (UndetectedFormException e) {
      throw new InvalidIdException(Query.shorten(text), e.reasonWith("?format="));
    }
  }
}
