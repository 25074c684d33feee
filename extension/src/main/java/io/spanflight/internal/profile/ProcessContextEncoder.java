package io.spanflight.internal.profile;

import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.format.ProtoWriter;
import java.util.List;

/**
 * Encodes the OTEP-4719 process context payload: a
 * {@code opentelemetry.proto.processcontext.v1development.ProcessContext} with the SDK resource
 * and what readers of the OTEP-4947 thread records need to decode them: the schema version and
 * the attribute key map (record attributes refer to keys by their index in it).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ProcessContextEncoder {
  /** The thread-record schema name readers check; one constant until readers settle on it. */
  public static final String SCHEMA_VERSION = "tlsdesc_v1_dev";

  private ProcessContextEncoder() {}

  public static byte[] encode(Resource resource, List<String> attributeKeyMap) {
    ProtoWriter w = new ProtoWriter();
    ExportRequestEncoder.writeResource(w, 1, resource);
    ExportRequestEncoder.writeString(w, 2, "threadlocal.schema_version", SCHEMA_VERSION);
    ExportRequestEncoder.writeStringArray(w, 2, "threadlocal.attribute_key_map", attributeKeyMap);
    return w.toByteArray();
  }
}
