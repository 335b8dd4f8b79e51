package io.snowid.server;

import io.snowid.DecodedId;

/**
 * The JSON form of a decoded ID, as {@code GET /decode/{id}} and {@code snowid decode --json} print
 * it: {@code {"id":"…","timestamp":"…","fields":{…},"sequence":N}}. The ID is a string, because
 * JavaScript would round it as a number; the timestamp is ISO-8601 UTC.
 */
public final class DecodedJson {
  private DecodedJson() {}

  public static String of(DecodedId d) {
    long id = d.id();
    return Json.object()
        .put("id", d.layout().totalBits() == 64 ? Long.toUnsignedString(id) : Long.toString(id))
        .put("timestamp", d.instant().toString())
        .put("fields", d.fields())
        .put("sequence", d.sequence())
        .toString();
  }
}
