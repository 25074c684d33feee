package io.spanflight.smoke.collector;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.profiles.v1development.ProfilesServiceGrpc;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceGrpc;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The forwarding half of a recording hop ({@link OtlpCollector#startForwarding}): passes each
 * request on to the next collector unchanged and hands its answer back.
 */
final class Forwarder implements AutoCloseable {
  private static final Metadata.Key<String> GRPC_ENCODING =
      Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<String> ENCODING = Context.key("spanflight-request-encoding");
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  /**
   * Remembers how each incoming gRPC call was compressed and its profiles version metadata, so that
   * it is forwarded the same way.
   */
  static final ServerInterceptor REQUEST_ENCODING = new ServerInterceptor() {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      String encoding = headers.get(GRPC_ENCODING);
      Context context = ProfilesVersionHeader.remember(
          Context.current().withValue(ENCODING, encoding == null ? "identity" : encoding), headers);
      return Contexts.interceptCall(context, call, headers, next);
    }
  };

  /** How the gRPC call being handled was compressed ("identity" when it was not). */
  static String requestEncoding() {
    String encoding = ENCODING.get();
    return encoding == null ? "identity" : encoding;
  }

  /** The next collector's answer to a forwarded HTTP request. */
  record Answer(int status, byte[] body, Optional<String> contentType, Optional<String> retryAfter) {}

  private final ManagedChannel channel;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final String httpTarget;

  Forwarder(String grpcTarget, String httpTarget) {
    this.channel = NettyChannelBuilder.forTarget(grpcTarget).usePlaintext()
        .maxInboundMessageSize(64 * 1024 * 1024).build();
    this.httpTarget = httpTarget;
  }

  TraceServiceGrpc.TraceServiceBlockingStub traces() {
    return asReceived(TraceServiceGrpc.newBlockingStub(channel));
  }

  ProfilesServiceGrpc.ProfilesServiceBlockingStub profiles() {
    return asReceived(ProfilesServiceGrpc.newBlockingStub(channel));
  }

  /**
   * Calls the next collector with {@code request}; on success runs {@code accepted} and answers
   * with its response, else answers with its status (and trailers, such as retry information).
   */
  <Q, R> void forward(Q request, Function<Q, R> call, StreamObserver<R> response, Runnable accepted) {
    R answer;
    try {
      answer = call.apply(request);
    } catch (StatusRuntimeException e) {
      response.onError(e.getStatus().asRuntimeException(e.getTrailers()));
      return;
    }
    accepted.run();
    response.onNext(answer);
    response.onCompleted();
  }

  /**
   * POSTs {@code body} as received, with the profiles version headers received, to {@code path} of
   * the next collector; 502 when it cannot be reached.
   */
  Answer post(String path, byte[] body, String contentType, String encoding, List<String> versions) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(httpTarget + path)).timeout(TIMEOUT)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .header("Content-Type", contentType == null ? "application/x-protobuf" : contentType);
    versions.forEach(version -> request.header(ProfilesVersionHeader.NAME, version));
    if (encoding != null) {
      request.header("Content-Encoding", encoding);
    }
    try {
      HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      return new Answer(response.statusCode(), response.body(), response.headers().firstValue("Content-Type"),
          response.headers().firstValue("Retry-After"));
    } catch (IOException e) {
      return new Answer(502, ("next collector unreachable: " + e).getBytes(StandardCharsets.UTF_8),
          Optional.of("text/plain"), Optional.empty());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(503, new byte[0], Optional.empty(), Optional.empty());
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static <S extends AbstractStub<S>> S asReceived(S stub) {
    S timed = stub.withDeadlineAfter(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(
            ProfilesVersionHeader.asMetadata(ProfilesVersionHeader.received())));
    return "gzip".equals(requestEncoding()) ? timed.withCompression("gzip") : timed;
  }
}
