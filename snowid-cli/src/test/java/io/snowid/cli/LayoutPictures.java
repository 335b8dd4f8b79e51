package io.snowid.cli;

import io.snowid.Layout;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws the 64-bit field bar of layouts as SVG, from the {@link Layout} objects themselves: each
 * field's name, width and bit positions, most significant bit on the left. The pictures in docs/img
 * are its output ({@link LayoutPicturesTest} keeps them equal). Plain rectangles and text, a white
 * background (readable in a dark theme too), no fonts or scripts to fetch.
 */
final class LayoutPictures {
  static final String ALL_PRESETS = "layouts.svg";
  static final String TWITTER = "layout-twitter.svg";

  private static final int BIT = 13;
  private static final int LEFT = 24;
  private static final int WIDTH = LEFT * 2 + 64 * BIT;
  private static final int ROW = 92;
  private static final int BAR = 38;
  private static final String FONT = "font-family=\"Helvetica, Arial, sans-serif\"";

  private LayoutPictures() {}

  /** Every picture, file name (under docs/img) to SVG text, in a stable order. */
  static Map<String, String> all() {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(TWITTER, svg(List.of("twitter")));
    out.put(ALL_PRESETS, svg(Layout.presetNames()));
    return out;
  }

  /** One bar per preset, in the order given. */
  static String svg(List<String> presets) {
    StringBuilder body = new StringBuilder();
    int y = 8;
    for (String name : presets) {
      row(body, name, Layout.preset(name), y);
      y += ROW;
    }
    int height = y + 4;
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
        + WIDTH
        + "\" height=\""
        + height
        + "\" viewBox=\"0 0 "
        + WIDTH
        + " "
        + height
        + "\">\n"
        + "<title>The 64 bits of an ID, most significant on the left: "
        + String.join(", ", presets)
        + "</title>\n"
        + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        + body
        + "</svg>\n";
  }

  private static void row(StringBuilder out, String name, Layout layout, int y) {
    text(out, LEFT, y + 16, 14, "start", "bold", name);
    text(
        out,
        LEFT + 8 + (int) (name.length() * 14 * 0.62),
        y + 16,
        12,
        "start",
        "",
        caption(layout));
    int barTop = y + 26;
    for (Segment s : segments(layout)) {
      int x = LEFT + (63 - s.high) * BIT;
      int w = (s.high - s.low + 1) * BIT;
      out.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#333333\"/>\n",
              x,
              barTop,
              w,
              BAR,
              s.fill));
      int mid = x + w / 2;
      text(out, mid, barTop + 16, fit(s.label, w, 12), "middle", "", s.label);
      if (s.high > s.low) {
        String bits = (s.high - s.low + 1) + (w >= 5 * BIT ? " bits" : "");
        text(out, mid, barTop + 31, fit(bits, w, 11), "middle", "", bits);
      }
      String positions = s.high == s.low ? "" + s.high : s.high + ".." + s.low;
      text(out, mid, barTop + BAR + 14, fit(positions, w, 10), "middle", "", positions);
    }
  }

  /** Unit, epoch, capacity and lifetime: what the bar does not show. */
  static String caption(Layout layout) {
    String time =
        layout.wraps()
            ? "time in " + unit(layout.unitMillis()) + " modulo 2^" + layout.timeField().bits()
            : unit(layout.unitMillis()) + " since " + layout.epoch();
    String capacity =
        String.format(
            Locale.ROOT,
            "%,d nodes × %,d IDs/s",
            layout.nodeCount(),
            Math.round(layout.idsPerSecondPerNode()));
    String until;
    if (layout.wraps()) {
      until = "wraps";
    } else {
      LocalDate last = layout.lastInstant().atZone(ZoneOffset.UTC).toLocalDate();
      until = "until " + (last.getYear() > 9999 ? "the year " + last.getYear() : last.toString());
    }
    String signed = layout.totalBits() == 64 ? " · 64 bits, read unsigned" : "";
    return time + " · " + capacity + " · " + until + signed;
  }

  private static String unit(long millis) {
    long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] names = {"d", "h", "min", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (millis % sizes[i] == 0) {
        return millis / sizes[i] + " " + names[i];
      }
    }
    return millis + " ms";
  }

  private record Segment(int high, int low, String label, String fill) {}

  /** The fields, and the bits above them that every ID leaves 0 (the sign bit of a long). */
  private static List<Segment> segments(Layout layout) {
    List<Segment> out = new ArrayList<>();
    if (layout.totalBits() < 64) {
      int high = 63;
      int low = layout.totalBits();
      out.add(new Segment(high, low, high == low ? "0" : "always 0", "#e9ecef"));
    }
    for (Layout.Field f : layout.fields()) {
      out.add(new Segment(f.shift() + f.bits() - 1, f.shift(), f.name(), fill(layout, f)));
    }
    return out;
  }

  private static String fill(Layout layout, Layout.Field f) {
    if (f.equals(layout.timeField())) {
      return "#cfe2ff";
    }
    if (f.equals(layout.sequenceField())) {
      return "#ffe5b4";
    }
    if (f.isNode()) {
      return "#d1e7dd";
    }
    return "#e2d9f3";
  }

  /** A font size at which {@code s} fits in {@code width} pixels, at most {@code size}. */
  private static int fit(String s, int width, int size) {
    int fitting = size;
    while (fitting > 7 && s.length() * fitting * 0.6 > width - 3) {
      fitting--;
    }
    return fitting;
  }

  private static void text(
      StringBuilder out, int x, int y, int size, String anchor, String weight, String s) {
    out.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" %s font-size=\"%d\"%s text-anchor=\"%s\" fill=\"#111111\">%s"
                + "</text>\n",
            x,
            y,
            FONT,
            size,
            weight.isEmpty() ? "" : " font-weight=\"" + weight + "\"",
            anchor,
            s.replace("&", "&amp;").replace("<", "&lt;")));
  }
}
