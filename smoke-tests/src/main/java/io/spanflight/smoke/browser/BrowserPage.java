package io.spanflight.smoke.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A page in {@link HeadlessChromium}, driven the way a user would: real mouse clicks at an
 * element's centre and typed text through the DevTools {@code Input} domain, DOM read back through
 * {@code Runtime.evaluate}. Collects console errors, uncaught exceptions and error log entries
 * from the moment it is created.
 */
public final class BrowserPage {
  private final DevToolsClient devTools;
  private final List<String> errors = new CopyOnWriteArrayList<>();

  public BrowserPage(DevToolsClient devTools) {
    this.devTools = devTools;
    devTools.onEvent(this::collectErrors);
    devTools.call("Runtime.enable");
    devTools.call("Log.enable");
    devTools.call("Page.enable");
  }

  /** Navigates to {@code file} and waits until {@code readyExpression} is true. */
  public void open(Path file, String readyExpression, Duration timeout) {
    Map<String, Object> result = devTools.call("Page.navigate",
        "{\"url\":" + Json.quote(file.toUri().toString()) + "}");
    if (result.get("errorText") != null) {
      throw new IllegalStateException("cannot open " + file + ": " + result.get("errorText"));
    }
    awaitTrue(readyExpression, timeout);
  }

  public Object evaluate(String expression) {
    return devTools.evaluate(expression);
  }

  /** The trimmed text of every element matching {@code selector}. */
  public List<String> texts(String selector) {
    Object value = evaluate("Array.from(document.querySelectorAll(" + Json.quote(selector)
        + ")).map(e => e.textContent.trim())");
    List<String> texts = new ArrayList<>();
    for (Object text : (List<?>) value) {
      texts.add((String) text);
    }
    return texts;
  }

  /** Clicks the centre of the first element matching {@code selector}, with the mouse. */
  public void click(String selector) {
    Object box = evaluate("(() => { const e = document.querySelector(" + Json.quote(selector) + ");"
        + " if (!e) return null; e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
        + " return [r.left + Math.min(r.width / 2, 40), r.top + r.height / 2]; })()");
    if (box == null) {
      throw new IllegalStateException("nothing to click: no element matches " + selector);
    }
    List<?> point = (List<?>) box;
    String at = "\"x\":" + point.get(0) + ",\"y\":" + point.get(1);
    devTools.call("Input.dispatchMouseEvent", "{\"type\":\"mouseMoved\"," + at + "}");
    devTools.call("Input.dispatchMouseEvent", "{\"type\":\"mousePressed\",\"button\":\"left\",\"clickCount\":1," + at + "}");
    devTools.call("Input.dispatchMouseEvent", "{\"type\":\"mouseReleased\",\"button\":\"left\",\"clickCount\":1," + at + "}");
  }

  /** Focuses the element matching {@code selector} and types {@code text} into it. */
  public void type(String selector, String text) {
    evaluate("document.querySelector(" + Json.quote(selector) + ").focus()");
    devTools.call("Input.insertText", "{\"text\":" + Json.quote(text) + "}");
  }

  /**
   * Evaluates {@code expression} until it is true; each evaluation waits 50 ms in the page
   * before it looks, so this polls without sleeping here.
   */
  public void awaitTrue(String expression, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Object last = null;
    while (System.nanoTime() - deadline < 0) {
      last = evaluate("new Promise(resolve => setTimeout(() => { try { resolve(!!(" + expression
          + ")); } catch (e) { resolve(String(e)); } }, 50))");
      if (Boolean.TRUE.equals(last)) {
        return;
      }
    }
    throw new AssertionError("not true within " + timeout + ": " + expression + " (last: " + last
        + "; page errors: " + errors + ")");
  }

  /** Saves a PNG of the whole page. */
  public void screenshot(Path file) throws IOException {
    Map<String, Object> result = devTools.call("Page.captureScreenshot",
        "{\"format\":\"png\",\"captureBeyondViewport\":false}");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, Base64.getDecoder().decode((String) result.get("data")));
  }

  /** Console errors, uncaught exceptions and error log entries seen so far. */
  public List<String> errors() {
    return List.copyOf(errors);
  }

  @SuppressWarnings("unchecked")
  private void collectErrors(DevToolsClient.Event event) {
    Map<String, Object> params = event.params();
    switch (event.method()) {
      case "Runtime.consoleAPICalled":
        if ("error".equals(params.get("type")) || "assert".equals(params.get("type"))) {
          errors.add("console." + params.get("type") + ": " + params.get("args"));
        }
        break;
      case "Runtime.exceptionThrown":
        errors.add("uncaught: " + params.get("exceptionDetails"));
        break;
      case "Log.entryAdded": {
        Map<String, Object> entry = (Map<String, Object>) params.get("entry");
        if (entry != null && "error".equals(entry.get("level"))) {
          errors.add("log: " + entry.get("source") + " " + entry.get("text") + " " + entry.getOrDefault("url", ""));
        }
        break;
      }
      default:
    }
  }
}
