package io.spanflight.internal.opamp;

import io.spanflight.internal.format.MalformedProtoException;
import io.spanflight.internal.format.ProtoReader;
import io.spanflight.internal.format.ProtoWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpAMP's protobuf messages by hand (opamp-spec {@code proto/opamp/v1/opamp.proto}, checked
 * against opamp-go v0.23.0): {@link #encode} writes an {@link AgentToServer} as proto3 does (fields
 * in number order, zero, empty and null fields left out); {@link #decode} reads the parts of a
 * {@code ServerToAgent} that Spanflight acts on and skips every other field, known or not, at every
 * level.
 *
 * <p>The reply comes from the network, so decoding is bounded: the whole message, each config
 * file, each text and the number of config files have limits (the {@code MAX_*} constants), and a
 * {@code new_instance_uid} must have 16 bytes. Whatever breaks a rule or the wire format is a
 * {@link MalformedProtoException}, never another exception. A singular field that comes twice
 * keeps its last value, a nested message included (protobuf would merge the two copies of a
 * message; servers do not split one); a config file name that comes twice keeps its last file.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OpampMessages {
  /** AgentCapabilities: reports its status (a MUST for every agent). */
  public static final long REPORTS_STATUS = 0x1;
  /** AgentCapabilities: accepts a remote configuration. */
  public static final long ACCEPTS_REMOTE_CONFIG = 0x2;
  /** AgentCapabilities: reports its effective configuration. */
  public static final long REPORTS_EFFECTIVE_CONFIG = 0x4;
  /** AgentCapabilities: reports its health. */
  public static final long REPORTS_HEALTH = 0x800;
  /** AgentCapabilities: reports what became of a remote configuration. */
  public static final long REPORTS_REMOTE_CONFIG = 0x1000;
  /** What Spanflight's client can do: {@code 0x1807}. */
  public static final long CAPABILITIES = REPORTS_STATUS | ACCEPTS_REMOTE_CONFIG
      | REPORTS_EFFECTIVE_CONFIG | REPORTS_HEALTH | REPORTS_REMOTE_CONFIG;

  /** The size of an instance uid. */
  public static final int INSTANCE_UID_BYTES = 16;
  /** The largest {@code ServerToAgent} read. */
  public static final int MAX_MESSAGE_BYTES = 1 << 20;
  /** The most files in one configuration map, counted as they come (a repeated name too). */
  public static final int MAX_CONFIG_FILES = 64;
  /** The largest body of one config file. */
  public static final int MAX_CONFIG_BODY_BYTES = 256 << 10;
  /** The longest text (a file name, a content type, an error message) or config hash, in bytes. */
  public static final int MAX_TEXT_BYTES = 4 << 10;

  private OpampMessages() {}

  /** The message as bytes, ready to be sent. */
  public static byte[] encode(AgentToServer message) {
    ProtoWriter w = new ProtoWriter();
    w.bytesField(1, message.instanceUid()).varintField(2, message.sequenceNum());
    if (message.description() != null) {
      w.begin(3);
      writeAttributes(w, 1, message.description().identifying());
      writeAttributes(w, 2, message.description().nonIdentifying());
      w.end();
    }
    w.varintField(4, message.capabilities());
    if (message.health() != null) {
      writeHealth(w.begin(5), message.health()).end();
    }
    if (message.effectiveConfig() != null) {
      writeConfigMap(w.begin(6).begin(1), message.effectiveConfig()).end().end();
    }
    RemoteConfigStatus status = message.remoteConfigStatus();
    if (status != null) {
      w.begin(7).bytesField(1, status.lastRemoteConfigHash()).varintField(2, status.status())
          .stringField(3, status.errorMessage()).end();
    }
    if (message.disconnect()) {
      w.emptyMessage(9);
    }
    return w.varintField(10, message.flags()).toByteArray();
  }

  private static void writeAttributes(ProtoWriter w, int field, List<KeyValue> attributes) {
    for (KeyValue attribute : attributes) {
      w.begin(field).stringField(1, attribute.key());
      w.begin(2).repeatedString(1, attribute.value()).end(); // AnyValue.string_value, a oneof
      w.end();
    }
  }

  private static ProtoWriter writeHealth(ProtoWriter w, ComponentHealth health) {
    w.boolField(1, health.healthy()).fixed64Field(2, health.startTimeUnixNano())
        .stringField(3, health.lastError()).stringField(4, health.status())
        .fixed64Field(5, health.statusTimeUnixNano());
    for (Map.Entry<String, ComponentHealth> component : health.components().entrySet()) {
      w.begin(6).repeatedString(1, component.getKey()); // map entries carry key and value always
      writeHealth(w.begin(2), component.getValue()).end();
      w.end();
    }
    return w;
  }

  /** The entries of an {@code AgentConfigMap}, into the message {@code w} has begun. */
  private static ProtoWriter writeConfigMap(ProtoWriter w, Map<String, ConfigFile> files) {
    for (Map.Entry<String, ConfigFile> file : files.entrySet()) {
      w.begin(1).repeatedString(1, file.getKey());
      w.begin(2).bytesField(1, file.getValue().body()).stringField(2, file.getValue().contentType()).end();
      w.end();
    }
    return w;
  }

  /** Reads a server's reply; see the class comment for what is read and the bounds. */
  public static ServerToAgent decode(byte[] bytes) throws MalformedProtoException {
    if (bytes.length > MAX_MESSAGE_BYTES) {
      throw new MalformedProtoException("ServerToAgent of " + bytes.length + " bytes, over the limit of "
          + MAX_MESSAGE_BYTES);
    }
    ProtoReader in = new ProtoReader(bytes);
    byte[] instanceUid = new byte[0];
    ServerErrorResponse error = null;
    AgentRemoteConfig remoteConfig = null;
    long flags = 0;
    long capabilities = 0;
    byte[] newInstanceUid = null;
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 1 -> instanceUid = uid(in.readBytes(), "instance_uid");
        case 2 -> error = readError(in.readMessage());
        case 3 -> remoteConfig = readRemoteConfig(in.readMessage());
        case 6 -> flags = varint(in);
        case 7 -> capabilities = varint(in);
        case 8 -> newInstanceUid = readNewInstanceUid(in.readMessage());
        default -> in.skipField();
      }
    }
    return new ServerToAgent(instanceUid, error, remoteConfig, flags, capabilities, newInstanceUid);
  }

  private static ServerErrorResponse readError(ProtoReader in) throws MalformedProtoException {
    int type = 0;
    String message = "";
    long retryAfterNanos = 0;
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 1 -> type = (int) varint(in);
        case 2 -> message = text(in, "error_message");
        case 3 -> retryAfterNanos = readRetryAfter(in.readMessage());
        default -> in.skipField();
      }
    }
    return new ServerErrorResponse(type, message, retryAfterNanos);
  }

  private static long readRetryAfter(ProtoReader in) throws MalformedProtoException {
    long nanos = 0;
    while (in.hasMore()) {
      if (in.nextField() == 1) {
        nanos = varint(in);
      } else {
        in.skipField();
      }
    }
    return nanos;
  }

  private static AgentRemoteConfig readRemoteConfig(ProtoReader in) throws MalformedProtoException {
    Map<String, ConfigFile> files = Map.of();
    byte[] hash = new byte[0];
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 1 -> files = readConfigMap(in.readMessage());
        case 2 -> hash = bounded(in.readBytes(), MAX_TEXT_BYTES, "config_hash");
        default -> in.skipField();
      }
    }
    return new AgentRemoteConfig(files, hash);
  }

  private static Map<String, ConfigFile> readConfigMap(ProtoReader in) throws MalformedProtoException {
    Map<String, ConfigFile> files = new LinkedHashMap<>();
    int entries = 0;
    while (in.hasMore()) {
      if (in.nextField() != 1) {
        in.skipField();
        continue;
      }
      if (++entries > MAX_CONFIG_FILES) {
        throw new MalformedProtoException("more than " + MAX_CONFIG_FILES + " config files");
      }
      ProtoReader entry = in.readMessage();
      String name = "";
      ConfigFile file = new ConfigFile(new byte[0], "");
      while (entry.hasMore()) {
        switch (entry.nextField()) {
          case 1 -> name = text(entry, "config file name");
          case 2 -> file = readConfigFile(entry.readMessage());
          default -> entry.skipField();
        }
      }
      files.put(name, file); // a name that comes again keeps its last file
    }
    return Collections.unmodifiableMap(files);
  }

  private static ConfigFile readConfigFile(ProtoReader in) throws MalformedProtoException {
    byte[] body = new byte[0];
    String contentType = "";
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 1 -> body = bounded(in.readBytes(), MAX_CONFIG_BODY_BYTES, "config file body");
        case 2 -> contentType = text(in, "content_type");
        default -> in.skipField();
      }
    }
    return new ConfigFile(body, contentType);
  }

  /** The new uid, or null when {@code agent_identification} holds none (an empty field). */
  private static byte[] readNewInstanceUid(ProtoReader in) throws MalformedProtoException {
    byte[] uid = null;
    while (in.hasMore()) {
      if (in.nextField() == 1) {
        uid = uid(in.readBytes(), "new_instance_uid");
      } else {
        in.skipField();
      }
    }
    return uid == null || uid.length == 0 ? null : uid;
  }

  /** A uid of 16 bytes, or empty (proto3's "not set"); any other length is malformed. */
  private static byte[] uid(byte[] uid, String what) throws MalformedProtoException {
    if (uid.length != INSTANCE_UID_BYTES && uid.length != 0) {
      throw new MalformedProtoException(what + " of " + uid.length + " bytes, expected " + INSTANCE_UID_BYTES);
    }
    return uid;
  }

  private static long varint(ProtoReader in) throws MalformedProtoException {
    in.expect(ProtoReader.VARINT);
    return in.readVarint();
  }

  private static String text(ProtoReader in, String what) throws MalformedProtoException {
    return new String(bounded(in.readBytes(), MAX_TEXT_BYTES, what), StandardCharsets.UTF_8);
  }

  /** Checked after the copy: the copy is at most {@link #MAX_MESSAGE_BYTES}, as the whole input. */
  private static byte[] bounded(byte[] value, int max, String what) throws MalformedProtoException {
    if (value.length > max) {
      throw new MalformedProtoException(what + " of " + value.length + " bytes, over the limit of " + max);
    }
    return value;
  }
}
