package io.spanflight.internal.jfr;

import java.io.IOException;
import java.text.ParseException;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Configuration;

/**
 * The optional limit {@code otel.spanflight.jfr.cap=default}: no event setting of ours is denser
 * than in the JDK's own {@code default.jfc}, so that a user's recording made with the default
 * settings receives no event it would not have received without Spanflight (JFR runs each event
 * type at the union of all running recordings' settings).
 *
 * <ul>
 *   <li>period and threshold: at least default.jfc's;
 *   <li>throttle: at most default.jfc's rate (a period where both are periods);
 *   <li>an event that default.jfc leaves off, or a method filter where default.jfc has none: the
 *       source is skipped, with one info line.
 * </ul>
 *
 * <p>Not API: internal to Spanflight.
 */
final class JfcCap {
  static final String KEY = "otel.spanflight.jfr.cap";
  /** No limit: our settings as configured. */
  static final JfcCap NONE = new JfcCap(null);

  private static final Logger logger = Logger.getLogger("io.spanflight");

  /** default.jfc's settings ("jdk.ExecutionSample#period" to "20 ms"), or null for no cap. */
  private final Map<String, String> defaults;

  JfcCap(Map<String, String> defaults) {
    this.defaults = defaults;
  }

  /** The cap of this JDK's default.jfc; {@link #NONE} (with a warning) if it cannot be read. */
  static JfcCap ofDefaultJfc() {
    try {
      return new JfcCap(Configuration.getConfiguration("default").getSettings());
    } catch (IOException | ParseException e) {
      logger.log(Level.WARNING, "Spanflight cannot read the JDK's default.jfc; " + KEY + " is ignored", e);
      return NONE;
    }
  }

  /** {@code source} limited by the cap, or null when the cap leaves no room for it. */
  JfrSource apply(JfrSource source) {
    if (defaults == null) {
      return source;
    }
    String name = source.eventName;
    if (!"true".equals(defaults.get(name + "#enabled"))) {
      skipped(source, "default.jfc leaves " + name + " off");
      return null;
    }
    String limit = defaults.get(name + "#" + source.setting);
    String ours = source.settingValue;
    if (limit == null) {
      return source;
    }
    String capped = capped(source.setting, ours, limit);
    if (capped == null) {
      skipped(source, "default.jfc has " + name + "#" + source.setting + "=\"" + limit + "\"");
      return null;
    }
    if (capped.equals(ours)) {
      return source;
    }
    logger.info(
        "Spanflight: " + name + "#" + source.setting + " is " + capped + " instead of " + ours + " (" + KEY
            + "=default: no denser than the JDK's default.jfc)");
    long nanos = JfrValues.nanos(capped);
    return new JfrSource(
        source.sourceName,
        name,
        source.threadField,
        source.typeForPeriod != null && nanos > 0 ? source.typeForPeriod.apply(nanos) : source.type,
        source.valueField,
        source.setting,
        capped,
        source.leafMethodField,
        source.typeForPeriod,
        source.setting.equals("threshold") ? Math.max(0, nanos) : 0);
  }

  /** Our value limited to {@code limit}; null when nothing of ours fits (a filter). */
  static String capped(String setting, String ours, String limit) {
    if (setting.equals("filter")) {
      return limit.isBlank() ? null : ours;
    }
    long ourNanos = JfrValues.nanos(ours);
    long limitNanos = JfrValues.nanos(limit);
    if (ourNanos >= 0 && limitNanos >= 0) {
      return ourNanos >= limitNanos ? ours : JfrValues.describe(limitNanos);
    }
    double ourRate = JfrValues.perSecond(ours);
    double limitRate = JfrValues.perSecond(limit);
    if (ourRate >= 0 && limitRate >= 0) {
      return ourRate <= limitRate ? ours : limit.trim();
    }
    return limit.trim(); // a period against a rate: not comparable; the JDK's own value
  }

  private static void skipped(JfrSource source, String why) {
    logger.info(
        "Spanflight: source '" + source.sourceName + "' (" + source.eventName + ") is skipped: " + why + " and "
            + KEY + "=default");
  }
}
