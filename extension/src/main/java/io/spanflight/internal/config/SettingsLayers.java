package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each run-time setting comes from. Three layers, each above the one before:
 *
 * <ol>
 *   <li>local: the system properties and environment at start;
 *   <li>remote: the last remote configuration (OpAMP) that was applied, until its time box ends;
 *   <li>jmx: what the control MBean set, on this JVM, by hand.
 * </ol>
 *
 * A key's value is the one of the highest layer that sets it. {@link #propose} reads a whole
 * configuration with one layer replaced, with the same readers and messages as at start, and
 * {@link #commit} makes it the one in force once it has been applied.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SettingsLayers {
  /** Which layer set a value. */
  public enum Origin {
    LOCAL,
    REMOTE,
    JMX
  }

  /**
   * A whole configuration, read with a changed layer: usable when {@link #errors()} is empty.
   *
   * @param remoteUntil when the remote layer ends; null for "until replaced"
   * @param changes whether a run-time value differs from the one in force (else applying it only
   *     takes its layers)
   */
  public record Proposal(
      SpanflightConfig config,
      List<String> errors,
      boolean changes,
      Map<String, String> remote,
      Instant remoteUntil,
      Map<String, String> jmx) {
    public boolean valid() {
      return errors.isEmpty();
    }
  }

  private final ConfigProperties local;
  private final RemoteLimits limits; // null without fleet control: then no remote layer is accepted
  private Map<String, String> remote = Map.of(); // guarded by this
  private Instant remoteUntil; // guarded by this
  private Map<String, String> jmx = Map.of(); // guarded by this

  public SettingsLayers(ConfigProperties local, RemoteLimits limits) {
    this.local = local;
    this.limits = limits;
  }

  /** The configuration with {@code settings} as the remote layer from {@code now}; checked against the limits. */
  public synchronized Proposal proposeRemote(RemoteSettings settings, Instant now) {
    List<String> errors = new ArrayList<>();
    if (settings.values().isEmpty() && settings.timeBox() == null) {
      // no remote layer: always allowed (the end of a time box, an empty config map)
    } else if (limits == null) {
      errors.add("remote configuration is not accepted here");
    } else {
      limits.check(settings.values(), settings.timeBox(), errors);
    }
    Instant until = settings.timeBox() == null ? null : now.plus(settings.timeBox());
    return propose(settings.values(), until, jmx, errors);
  }

  /** The configuration with {@code settings} as the MBean's layer (a time box is refused there). */
  public synchronized Proposal proposeJmx(RemoteSettings settings) {
    List<String> errors = new ArrayList<>();
    if (settings.timeBox() != null) {
      errors.add(RemoteSettings.TIME_BOX + " is for remote configuration only");
    }
    return propose(remote, remoteUntil, settings.values(), errors);
  }

  /** The configuration with the MBean's layer changed in one key (null: the key removed from it). */
  public synchronized Proposal proposeJmx(String key, String value) {
    Map<String, String> changed = new LinkedHashMap<>(jmx);
    if (value == null) {
      changed.remove(key);
    } else {
      changed.put(key, value);
    }
    return propose(remote, remoteUntil, changed, new ArrayList<>());
  }

  private Proposal propose(Map<String, String> remote, Instant until, Map<String, String> jmx, List<String> errors) {
    Map<String, String> top = new LinkedHashMap<>(remote);
    top.putAll(jmx);
    SpanflightConfig config = SpanflightConfig.read(new LayeredProperties(local, top));
    errors.addAll(config.errors());
    Map<String, String> inForce = new LinkedHashMap<>(this.remote);
    inForce.putAll(this.jmx);
    boolean changes = false;
    for (String key : union(inForce, top)) {
      changes |= !java.util.Objects.equals(valueOf(key, inForce), valueOf(key, top));
    }
    return new Proposal(config, List.copyOf(errors), changes, Map.copyOf(remote), until, Map.copyOf(jmx));
  }

  private String valueOf(String key, Map<String, String> top) {
    String value = top.containsKey(key) ? top.get(key) : local.getString(key);
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static java.util.Set<String> union(Map<String, String> a, Map<String, String> b) {
    java.util.Set<String> keys = new java.util.TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    return keys;
  }

  /** Makes {@code applied}'s layers the ones in force. */
  public synchronized void commit(Proposal applied) {
    remote = applied.remote();
    remoteUntil = applied.remoteUntil();
    jmx = applied.jmx();
  }

  /** When the remote layer's time box ends; null when there is none (or no remote layer). */
  public synchronized Instant remoteUntil() {
    return remote.isEmpty() ? null : remoteUntil;
  }

  /**
   * One line per key set above the local layer, as {@code key=value (origin)}; empty when the local
   * settings are all in force.
   */
  public synchronized List<String> origins() {
    List<String> lines = new ArrayList<>();
    remote.forEach((key, value) -> {
      if (!jmx.containsKey(key)) {
        lines.add(key + "=" + value + " (remote" + (remoteUntil == null ? ")" : " until " + remoteUntil + ")"));
      }
    });
    jmx.forEach((key, value) -> lines.add(key + "=" + value + " (jmx)"));
    lines.sort(null);
    return lines;
  }

  /** The origin of {@code key}'s value in force. */
  public synchronized Origin origin(String key) {
    return jmx.containsKey(key) ? Origin.JMX : remote.containsKey(key) ? Origin.REMOTE : Origin.LOCAL;
  }
}
