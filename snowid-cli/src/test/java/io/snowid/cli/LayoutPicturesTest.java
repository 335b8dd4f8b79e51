package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;

/**
 * The pictures in docs/img: the layout bars are what {@link LayoutPictures} draws from the real
 * layouts, and every picture is well-formed SVG that GitHub can show (no scripts, nothing fetched).
 */
class LayoutPicturesTest {
  private static final Path IMG = Path.of("").toAbsolutePath().getParent().resolve("docs/img");
  private static final String REGENERATE =
      "./mvnw -o -B -q -pl snowid-cli test -Dtest=LayoutPicturesTest -Dsnowid.pictures=write";

  @Test
  void committedLayoutPictures_areWhatTheRendererDrawsFromTheLayouts() throws IOException {
    boolean write = "write".equals(System.getProperty("snowid.pictures"));
    List<String> stale = new ArrayList<>();
    for (Map.Entry<String, String> p : LayoutPictures.all().entrySet()) {
      Path file = IMG.resolve(p.getKey());
      if (write) {
        Files.createDirectories(IMG);
        Files.writeString(file, p.getValue(), StandardCharsets.UTF_8);
      } else if (!Files.exists(file)
          || !Files.readString(file, StandardCharsets.UTF_8).equals(p.getValue())) {
        stale.add("docs/img/" + p.getKey());
      }
    }

    assertThat(stale)
        .as("pictures that differ from the layouts; regenerate them with: " + REGENERATE)
        .isEmpty();
  }

  @Test
  void twitterBar_hasEachFieldAtItsBitsMostSignificantFirst() throws Exception {
    Document svg = parse(LayoutPictures.svg(List.of("twitter")));

    List<String> labels = new ArrayList<>();
    NodeList texts = svg.getElementsByTagName("text");
    for (int i = 0; i < texts.getLength(); i++) {
      labels.add(texts.item(i).getTextContent());
    }
    assertThat(labels)
        .containsSubsequence("0", "63", "time", "41 bits", "62..22", "datacenter", "5 bits")
        .containsSubsequence("21..17", "worker", "16..12", "sequence", "12 bits", "11..0");
    List<Integer> widths = new ArrayList<>();
    NodeList rects = svg.getElementsByTagName("rect");
    for (int i = 1; i < rects.getLength(); i++) { // the first is the background
      widths.add(Integer.parseInt(((Element) rects.item(i)).getAttribute("width")));
    }
    assertThat(widths).containsExactly(13, 41 * 13, 5 * 13, 5 * 13, 12 * 13);
  }

  @Test
  void bars_showTheBitsAboveANarrowLayoutAsAlwaysZero() throws Exception {
    String js53 = LayoutPictures.svg(List.of("js53"));

    assertThat(js53).contains(">always 0<", ">63..53<", ">11 bits<", ">52..12<");
    assertThat(LayoutPictures.caption(Layout.preset("int32"))).contains("modulo 2^21", "wraps");
    assertThat(LayoutPictures.caption(Layout.preset("discord"))).endsWith("64 bits, read unsigned");
    assertThat(LayoutPictures.caption(Layout.twitter())).doesNotContain("unsigned");
    assertThat(LayoutPictures.caption(Layout.preset("sonyflake")))
        .contains("10 ms since 2014-09-01T00:00:00Z", "65,536 nodes × 25,600 IDs/s");
  }

  @Test
  void everyPicture_isWellFormedSvgWithNothingToFetchOrRun() throws Exception {
    List<Path> pictures;
    try (Stream<Path> files = Files.list(IMG)) {
      pictures = files.filter(f -> f.toString().endsWith(".svg")).sorted().toList();
    }

    assertThat(pictures).extracting(p -> p.getFileName().toString()).contains("layouts.svg");
    for (Path p : pictures) {
      String text = Files.readString(p, StandardCharsets.UTF_8);
      Document svg;
      try {
        svg = parse(text);
      } catch (SAXParseException e) {
        throw new AssertionError(p + " is not well-formed XML: " + e.getMessage(), e);
      }
      assertThat(svg.getDocumentElement().getTagName()).as(p.toString()).isEqualTo("svg");
      assertThat(svg.getDocumentElement().getAttribute("xmlns"))
          .as(p.toString())
          .isEqualTo("http://www.w3.org/2000/svg");
      assertThat(svg.getElementsByTagName("script").getLength()).as(p.toString()).isZero();
      assertThat(text)
          .as(p + ": a reference outside the file (only url(#id) and href=\"#id\" are local)")
          .doesNotContainPattern("href\\s*=\\s*\"[^#]|url\\([^#]|@import");
    }
  }

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    DocumentBuilder b = f.newDocumentBuilder();
    return b.parse(new InputSource(new StringReader(svg)));
  }
}
