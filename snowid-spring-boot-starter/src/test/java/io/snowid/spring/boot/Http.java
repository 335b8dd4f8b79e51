package io.snowid.spring.boot;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Requests to the test application over real HTTP, with the answers as JSON. */
final class Http {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  record Answer(int status, String body) {
    JsonNode json() {
      return JSON.readTree(body);
    }
  }

  private final int port;

  Http(int port) {
    this.port = port;
  }

  Answer get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET().build());
  }

  Answer postJson(String path, String json) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static Answer send(HttpRequest request) throws IOException, InterruptedException {
    HttpResponse<String> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    return new Answer(r.statusCode(), r.body());
  }
}
