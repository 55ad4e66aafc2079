package io.wanshuffle.it.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's headless Chromium ({@code /usr/bin/chromium}) driven over the Chrome DevTools Protocol
 * (a WebSocket, with the JDK's client): loads a page, records the script errors it raises ({@code
 * Runtime.exceptionThrown}, and {@code Log.entryAdded} errors) and takes a full-page screenshot.
 * The flags are those that work on this project's machines (no sandbox as root, no background
 * networking on a closed network).
 */
final class HeadlessChromium implements AutoCloseable {
  /** The browser Debian's {@code chromium} package installs. */
  static final Path BINARY = Path.of("/usr/bin/chromium");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

  private final Process process;
  private final WebSocket socket;
  private final Path profile;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> calls = new ConcurrentHashMap<>();
  private final List<String> errors = new ArrayList<>();
  private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

  /** What one page load gave. */
  record Page(List<String> errors, byte[] png) {}

  /**
   * @return true when Debian's chromium is installed
   */
  static boolean installed() {
    return Files.isExecutable(BINARY);
  }

  private HeadlessChromium(Process process, WebSocket socket, Path profile) {
    this.process = process;
    this.socket = socket;
    this.profile = profile;
  }

  /**
   * Starts the browser on an empty page and connects to that page.
   *
   * @return the browser
   * @throws IOException if it does not start within 60 s
   */
  static HeadlessChromium start() throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("chromium-profile");
    Process p =
        new ProcessBuilder(
                BINARY.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
                "--user-data-dir=" + profile,
                "--window-size=1280,900",
                "about:blank")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    BufferedReader err =
        new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread drain =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = err.readLine()) != null) {
                  Matcher m = LISTENING.matcher(line);
                  if (m.find()) {
                    url.complete(m.group(1));
                  }
                }
              } catch (IOException e) {
                url.completeExceptionally(e);
              }
              url.completeExceptionally(new IOException("chromium exited before listening"));
            },
            "chromium-stderr");
    drain.setDaemon(true);
    drain.start();
    try {
      URI browser = URI.create(url.get(60, TimeUnit.SECONDS));
      HttpClient http = HttpClient.newHttpClient();
      URI list = URI.create("http://" + browser.getAuthority() + "/json/list");
      JsonNode targets =
          JSON.readTree(
              http.send(HttpRequest.newBuilder(list).build(), HttpResponse.BodyHandlers.ofString())
                  .body());
      String page = null;
      for (JsonNode t : targets) {
        if (t.path("type").asText().equals("page")) {
          page = t.path("webSocketDebuggerUrl").asText();
          break;
        }
      }
      if (page == null) {
        throw new IOException("chromium has no page target: " + targets);
      }
      HeadlessChromium[] self = new HeadlessChromium[1];
      WebSocket ws =
          http.newWebSocketBuilder()
              .buildAsync(URI.create(page), new Listener(() -> self[0]))
              .get(30, TimeUnit.SECONDS);
      self[0] = new HeadlessChromium(p, ws, profile);
      self[0].call("Runtime.enable", JSON.createObjectNode());
      self[0].call("Page.enable", JSON.createObjectNode());
      self[0].call("Log.enable", JSON.createObjectNode());
      return self[0];
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      p.destroyForcibly();
      throw new IOException("chromium did not start: " + e, e);
    }
  }

  /**
   * Loads a page, waits for its load event and one more second for its scripts, and takes a
   * screenshot of the whole page.
   *
   * @param url the page
   * @return its script errors and its screenshot
   * @throws IOException if the page does not load within 60 s
   */
  Page load(String url) throws IOException {
    synchronized (errors) {
      errors.clear();
    }
    loaded = new CompletableFuture<>();
    ObjectNode nav = JSON.createObjectNode().put("url", url);
    try {
      JsonNode r = call("Page.navigate", nav);
      if (r.has("errorText")) {
        throw new IOException(url + ": " + r.path("errorText").asText());
      }
      loaded.get(60, TimeUnit.SECONDS);
      Thread.sleep(1000);
      JsonNode metrics = call("Page.getLayoutMetrics", JSON.createObjectNode());
      int height =
          Math.min(
              8000, (int) Math.ceil(metrics.path("cssContentSize").path("height").asDouble(900)));
      call(
          "Emulation.setDeviceMetricsOverride",
          JSON.createObjectNode()
              .put("width", 1280)
              .put("height", Math.max(600, height))
              .put("deviceScaleFactor", 1)
              .put("mobile", false));
      JsonNode shot = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
      byte[] png = Base64.getDecoder().decode(shot.path("data").asText());
      synchronized (errors) {
        return new Page(List.copyOf(errors), png);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted loading " + url, e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IOException(url + " did not load: " + e, e);
    }
  }

  private JsonNode call(String method, ObjectNode params)
      throws InterruptedException,
          java.util.concurrent.ExecutionException,
          java.util.concurrent.TimeoutException {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> f = new CompletableFuture<>();
    calls.put(id, f);
    ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
    msg.set("params", params);
    socket.sendText(msg.toString(), true);
    return f.get(60, TimeUnit.SECONDS);
  }

  private void onMessage(JsonNode m) {
    if (m.has("id")) {
      CompletableFuture<JsonNode> f = calls.remove(m.path("id").asInt());
      if (f != null) {
        if (m.has("error")) {
          f.completeExceptionally(new IOException(m.path("error").toString()));
        } else {
          f.complete(m.path("result"));
        }
      }
      return;
    }
    String method = m.path("method").asText();
    JsonNode p = m.path("params");
    switch (method) {
      case "Page.loadEventFired" -> loaded.complete(null);
      case "Runtime.exceptionThrown" -> {
        JsonNode d = p.path("exceptionDetails");
        String text = d.path("exception").path("description").asText(d.path("text").asText());
        synchronized (errors) {
          errors.add(
              text + " (" + d.path("url").asText() + ":" + d.path("lineNumber").asInt() + ")");
        }
      }
      case "Log.entryAdded" -> {
        JsonNode e = p.path("entry");
        if (e.path("level").asText().equals("error")) {
          synchronized (errors) {
            errors.add(
                e.path("source").asText()
                    + ": "
                    + e.path("text").asText()
                    + " "
                    + e.path("url").asText());
          }
        }
      }
      default -> {
        // other events are not needed
      }
    }
  }

  /** Collects text frames into messages and hands them to the browser object. */
  private static final class Listener implements WebSocket.Listener {
    private final java.util.function.Supplier<HeadlessChromium> owner;
    private final StringBuilder buffer = new StringBuilder();

    Listener(java.util.function.Supplier<HeadlessChromium> owner) {
      this.owner = owner;
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      buffer.append(data);
      if (last) {
        String text = buffer.toString();
        buffer.setLength(0);
        try {
          HeadlessChromium o = owner.get();
          if (o != null) {
            o.onMessage(JSON.readTree(text));
          }
        } catch (IOException e) {
          // a frame that is not JSON: not a DevTools message
        }
      }
      ws.request(1);
      return null;
    }
  }

  @Override
  public void close() {
    socket.abort();
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | java.io.UncheckedIOException e) {
      // a temporary profile left behind (a Chromium helper still exiting can remove a file while
      // the walk lists it)
    }
  }
}
