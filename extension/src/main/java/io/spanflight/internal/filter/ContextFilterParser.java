package io.spanflight.internal.filter;

/**
 * Parses context filters:
 *
 * <pre>
 *   filter := and ('||' and)*
 *   and    := unary ('&amp;&amp;' unary)*
 *   unary  := '!' unary | '(' filter ')' | atom
 *   atom   := hasContext | hasNoContext | sampled | hasKey(key) | hasEntry(key=value)
 * </pre>
 *
 * for example {@code hasContext && !hasEntry(tenant=internal)}. Keys and values are runs of
 * characters other than {@code ( ) = ,} and white space. Errors name the position (0-based).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextFilterParser {
  private final String text;
  private int pos;

  private ContextFilterParser(String text) {
    this.text = text;
  }

  /** Parses {@code text}, or throws {@link FilterSyntaxError} saying where and what was expected. */
  public static ContextFilter parse(String text) {
    ContextFilterParser parser = new ContextFilterParser(text);
    ContextFilter filter = parser.or();
    parser.skipSpaces();
    if (parser.pos < text.length()) {
      throw parser.error("'&&', '||' or the end");
    }
    return filter;
  }

  private ContextFilter or() {
    ContextFilter left = and();
    while (consume("||")) {
      ContextFilter a = left;
      ContextFilter b = and();
      left = context -> a.matches(context) || b.matches(context);
    }
    return left;
  }

  private ContextFilter and() {
    ContextFilter left = unary();
    while (consume("&&")) {
      ContextFilter a = left;
      ContextFilter b = unary();
      left = context -> a.matches(context) && b.matches(context);
    }
    return left;
  }

  private ContextFilter unary() {
    if (consume("!")) {
      ContextFilter inner = unary();
      return context -> !inner.matches(context);
    }
    if (consume("(")) {
      ContextFilter inner = or();
      expect(")");
      return inner;
    }
    return atom();
  }

  private ContextFilter atom() {
    skipSpaces();
    int start = pos;
    String name = word();
    switch (name) {
      case "hasContext":
        return context -> context != null;
      case "hasNoContext":
        return context -> context == null;
      case "sampled":
        return context -> context != null && context.sampled();
      case "hasKey":
        {
          expect("(");
          String key = required("a key");
          expect(")");
          return context -> ContextFilter.attributesOf(context).containsKey(key);
        }
      case "hasEntry":
        {
          expect("(");
          String key = required("a key");
          expect("=");
          String value = required("a value");
          expect(")");
          return context -> value.equals(ContextFilter.attributesOf(context).get(key));
        }
      default:
        pos = start;
        throw error("hasContext, hasNoContext, sampled, hasKey(key), hasEntry(key=value), '!' or '('");
    }
  }

  private String required(String what) {
    skipSpaces();
    String word = word();
    if (word.isEmpty()) {
      throw error(what);
    }
    return word;
  }

  private String word() {
    int start = pos;
    while (pos < text.length() && "()=,!&|".indexOf(text.charAt(pos)) < 0 && !Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private void expect(String token) {
    if (!consume(token)) {
      throw error("'" + token + "'");
    }
  }

  private boolean consume(String token) {
    skipSpaces();
    if (text.startsWith(token, pos)) {
      pos += token.length();
      return true;
    }
    return false;
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private FilterSyntaxError error(String expected) {
    String found = pos < text.length() ? "'" + text.charAt(pos) + "'" : "the end";
    return new FilterSyntaxError("at position " + pos + ": expected " + expected + ", found " + found);
  }
}
