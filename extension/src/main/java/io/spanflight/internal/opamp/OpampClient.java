package io.spanflight.internal.opamp;

import io.spanflight.internal.config.OpampSettings;
import io.spanflight.internal.config.Redacted;
import io.spanflight.internal.config.SettingsLayers;
import io.spanflight.internal.format.Hex;
import io.spanflight.internal.format.MalformedProtoException;
import io.spanflight.internal.logging.ThrottledLogger;
import io.spanflight.internal.threads.OwnThreads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Spanflight's OpAMP client: on its own thread ({@code spanflight-opamp}), it polls the server
 * every {@code otel.spanflight.opamp.interval}, reports the agent (description, health, the
 * settings in force) and applies the remote configuration the server offers, whole or not at all
 * ({@link RemoteConfigs}). A status is sent only when it changed ({@link StatusReports}). A
 * server that cannot be reached or answers garbage changes nothing: the client backs off (up to
 * {@link #MAX_BACKOFF}) and the settings in force stay. When a remote configuration's time box ends, the local settings come back, whether
 * the server is reachable or not.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OpampClient {
  /** The longest wait between two attempts while the server fails. */
  static final Duration MAX_BACKOFF = Duration.ofMinutes(5);
  /** How long the last message (agent_disconnect) may take at shutdown. */
  static final long DISCONNECT_WAIT_MILLIS = 1000;
  private static final Logger logger = Logger.getLogger("io.spanflight");

  /** One exchange with the server: an AgentToServer's bytes out, a ServerToAgent's bytes back. */
  interface Transport {
    byte[] post(byte[] body, String instanceUidText) throws IOException;

    void close();
  }

  /** What the client reports and changes; the wiring implements it over the profiler. */
  public interface Agent {
    SettingsLayers layers();

    /** Puts a proposal in force whole or not at all; its errors, or none once applied. */
    List<String> apply(SettingsLayers.Proposal proposal, String by);

    AgentDescription description();

    /** The health now, times left 0 (the client fills them in). */
    ComponentHealth health();

    /** The settings in force, as text. */
    String effectiveConfig();
  }

  private final OpampSettings settings;
  private final Agent agent;
  private final Transport transport;
  private final Clock clock;
  private final RemoteConfigs remote;
  /** The warnings of one outage: at most one a minute; a new one after the server answered again. */
  private ThrottledLogger failures = newFailureLog();
  private final StatusReports reports;
  private byte[] uid = uuidV7(System.currentTimeMillis());
  private int failuresInRow;
  private Instant backoffUntil = Instant.MIN;
  /** Guards the wait between polls; notified to report at once or to stop. */
  private final Object wake = new Object();
  private boolean reportNow; // guarded by wake
  private boolean stopping; // guarded by wake
  private Thread thread;

  OpampClient(OpampSettings settings, Agent agent, Transport transport, Clock clock) {
    this.settings = settings;
    this.agent = agent;
    this.transport = transport;
    this.clock = clock;
    this.remote = new RemoteConfigs(agent, clock);
    this.reports = new StatusReports(agent, clock);
  }

  /** Starts the client on its own daemon thread; null (and one warning) if the agent's HTTP sender is missing. */
  public static OpampClient start(OpampSettings settings, Agent agent) {
    OpampHttp http;
    try {
      http = new OpampHttp(settings);
    } catch (RuntimeException | LinkageError e) {
      logger.warning("Spanflight fleet control (OpAMP) is off: no HTTP sender (" + e.getClass().getSimpleName() + ")");
      return null;
    }
    OpampClient client = new OpampClient(settings, agent, http, Clock.systemUTC());
    client.thread = OwnThreads.newDaemon(client::run, "spanflight-opamp");
    client.thread.start();
    logger.info("Spanflight fleet control (OpAMP): reporting to " + settings + " every " + settings.interval().toSeconds()
        + " s as instance " + client.uidText());
    return client;
  }

  private void run() {
    try {
      while (!stopping()) {
        exchangeOnce();
        waitForNext();
      }
      disconnect();
    } catch (RuntimeException | Error e) { // never more than this thread
      logger.warning("Spanflight fleet control (OpAMP) stopped: " + e);
    } finally {
      transport.close();
    }
  }

  /** Stops the client: one last message says so to the server (at most about a second). */
  public void stop() {
    synchronized (wake) {
      stopping = true;
      wake.notifyAll();
    }
    if (thread != null) {
      try {
        thread.join(DISCONNECT_WAIT_MILLIS + 500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One poll: ends an elapsed time box, then sends what changed and handles the reply. */
  void exchangeOnce() {
    remote.endTimeBoxIfDue();
    Instant now = clock.instant();
    if (now.isBefore(backoffUntil)) {
      return;
    }
    AgentToServer message = nextMessage(false);
    byte[] reply;
    try {
      reply = transport.post(OpampMessages.encode(message), uidText());
    } catch (IOException e) {
      failed("the server could not be reached: " + e.getMessage());
      return;
    }
    ServerToAgent answer;
    try {
      answer = OpampMessages.decode(reply);
    } catch (MalformedProtoException e) {
      failed("the server's answer is not an OpAMP message (" + e.getMessage() + ")");
      return;
    }
    reports.delivered(message);
    if (failuresInRow > 0) {
      logger.info("Spanflight fleet control (OpAMP): the server answers again");
      failuresInRow = 0;
      failures = newFailureLog(); // the next outage's first warning is not suppressed by this one's
    }
    handle(answer);
  }

  private void failed(String why) {
    failuresInRow++;
    reports.reportAll(); // the server may have missed what we sent: it all goes again
    long seconds = Math.min(MAX_BACKOFF.toSeconds(), settings.interval().toSeconds() << Math.min(failuresInRow - 1, 10));
    backoffUntil = clock.instant().plusSeconds(seconds);
    failures.log(Level.WARNING, "Spanflight fleet control (OpAMP): " + why + "; the settings in force stay, next try in "
        + seconds + " s (profiling is not affected)", null);
  }

  private static ThrottledLogger newFailureLog() {
    return new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  }

  private void handle(ServerToAgent answer) {
    if (answer.newInstanceUid() != null) {
      uid = answer.newInstanceUid();
      reports.reportAll();
      logger.info("Spanflight fleet control (OpAMP): the server renamed this instance " + uidText());
    }
    if (answer.error() != null) {
      ServerErrorResponse error = answer.error();
      long wait = Math.max(settings.interval().toNanos(), error.retryAfterNanos());
      if (error.type() == ServerErrorResponse.UNAVAILABLE) {
        backoffUntil = clock.instant().plusNanos(Math.min(wait, MAX_BACKOFF.toNanos()));
      }
      failures.log(Level.WARNING, "Spanflight fleet control (OpAMP): the server answered with an error: "
          + Redacted.oneLine(String.valueOf(error.message())), null);
    }
    if ((answer.flags() & ServerToAgent.FLAG_REPORT_FULL_STATE) != 0) {
      reports.reportAll();
      askToReport();
    }
    if (answer.remoteConfig() != null && settings.acceptRemoteConfig() && remote.offer(answer.remoteConfig())) {
      askToReport(); // the status changed: say so now, not at the next poll
    }
  }

  /** The next message: every status that changed since the server last received one, or all of them. */
  AgentToServer nextMessage(boolean disconnect) {
    return reports.next(uid, capabilities(), remote.status(), disconnect);
  }

  private long capabilities() {
    return settings.acceptRemoteConfig()
        ? OpampMessages.CAPABILITIES
        : OpampMessages.CAPABILITIES & ~OpampMessages.ACCEPTS_REMOTE_CONFIG;
  }

  private void askToReport() {
    synchronized (wake) {
      reportNow = true;
    }
  }

  private boolean stopping() {
    synchronized (wake) {
      return stopping;
    }
  }

  /** Waits the poll interval, less when a report is due or a time box ends sooner. */
  private void waitForNext() {
    long waitMillis = settings.interval().toMillis();
    Instant now = clock.instant();
    if (now.isBefore(backoffUntil)) {
      waitMillis = Duration.between(now, backoffUntil).toMillis();
    }
    Instant timeBoxEnd = agent.layers().remoteUntil();
    if (timeBoxEnd != null) {
      waitMillis = Math.min(waitMillis, Math.max(0, Duration.between(now, timeBoxEnd).toMillis()) + 10);
    }
    synchronized (wake) {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
      while (!stopping && !(reportNow && failuresInRow == 0)) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          break;
        }
        try {
          wake.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          stopping = true;
        }
      }
      reportNow = false;
    }
  }

  private void disconnect() {
    if (failuresInRow > 0) {
      return; // the server is not there to be told
    }
    try {
      transport.post(OpampMessages.encode(nextMessage(true)), uidText());
    } catch (IOException e) {
      // the process is ending; the server learns it from the missing polls
    }
  }

  String uidText() {
    ByteBuffer b = ByteBuffer.wrap(uid);
    return new UUID(b.getLong(), b.getLong()).toString();
  }

  /** A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. */
  static byte[] uuidV7(long unixMillis) {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    for (int i = 0; i < 6; i++) {
      bytes[i] = (byte) (unixMillis >>> (40 - 8 * i));
    }
    bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x70);
    bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80);
    return bytes;
  }

  /** The hash's first bytes, for log lines. */
  static String shortHash(byte[] hash) {
    return hash == null || hash.length == 0 ? "(none)" : Hex.of(Arrays.copyOf(hash, Math.min(4, hash.length)));
  }

  /** For tests: the wait until the next attempt. */
  Instant backoffUntil() {
    return backoffUntil;
  }
}
