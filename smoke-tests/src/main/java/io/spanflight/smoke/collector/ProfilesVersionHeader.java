package io.spanflight.smoke.collector;

import io.grpc.Context;
import io.grpc.Metadata;
import java.util.ArrayList;
import java.util.List;

/**
 * The OTLP Profiles development version request header ({@code otlp-profiles-development-version},
 * gRPC metadata or HTTP header): what a recording hop saw of it on each profiles request, and how it
 * passes the same values on, since an intermediary that forwards a request without re-encoding it
 * must keep them (a missing one would count as version 1 at the next collector).
 */
public final class ProfilesVersionHeader {
  public static final String NAME = "otlp-profiles-development-version";
  static final Metadata.Key<String> GRPC_KEY = Metadata.Key.of(NAME, Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<List<String>> RECEIVED = Context.key("spanflight-profiles-version");

  private ProfilesVersionHeader() {}

  /** Every value of the header in {@code headers}, in order (empty: none). */
  static List<String> of(Metadata headers) {
    List<String> values = new ArrayList<>();
    Iterable<String> all = headers.getAll(GRPC_KEY);
    if (all != null) {
      all.forEach(values::add);
    }
    return List.copyOf(values);
  }

  /** {@code context} with the values the gRPC call being handled carried. */
  static Context remember(Context context, Metadata headers) {
    return context.withValue(RECEIVED, of(headers));
  }

  /** The values the gRPC call being handled carried (empty: none). */
  static List<String> received() {
    List<String> values = RECEIVED.get();
    return values == null ? List.of() : values;
  }

  /** The same values as metadata to send on. */
  static Metadata asMetadata(List<String> values) {
    Metadata metadata = new Metadata();
    values.forEach(value -> metadata.put(GRPC_KEY, value));
    return metadata;
  }
}
