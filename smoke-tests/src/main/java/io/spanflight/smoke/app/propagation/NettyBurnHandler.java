package io.spanflight.smoke.app.propagation;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Answers requests for one path by burning on whatever thread Netty runs this handler on; passes
 * other requests on (or, as the last handler, answers 404). One instance per channel: it
 * remembers whether the body parts that follow a request it answered are its to drop.
 */
final class NettyBurnHandler extends ChannelInboundHandlerAdapter {
  private final String path;
  private final boolean last;
  private boolean dropContent;

  NettyBurnHandler(String name, boolean last) {
    this.path = "/" + name;
    this.last = last;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest) {
      HttpRequest request = (HttpRequest) msg;
      String requestPath = new QueryStringDecoder(request.uri()).path();
      if (requestPath.equals(path) || last) {
        dropContent = !(msg instanceof LastHttpContent);
        try {
          answer(ctx, request, requestPath.equals(path));
        } finally {
          ReferenceCountUtil.release(msg);
        }
        return;
      }
    } else if (msg instanceof HttpContent && dropContent) {
      dropContent = !(msg instanceof LastHttpContent);
      ReferenceCountUtil.release(msg);
      return;
    }
    ctx.fireChannelRead(msg);
  }

  private static void answer(ChannelHandlerContext ctx, HttpRequest request, boolean ours) {
    HttpResponseStatus status = HttpResponseStatus.OK;
    String body;
    if (!ours) {
      status = HttpResponseStatus.NOT_FOUND;
      body = "no scenario at " + request.uri() + "\n";
    } else {
      try {
        RequestParams params = RequestParams.parse(URI.create(request.uri()).getRawQuery());
        body = "ok " + RequestTag.burn(params.id(), Role.SERVER, params.millis()) + "\n";
      } catch (RuntimeException e) {
        status = HttpResponseStatus.BAD_REQUEST;
        body = e + "\n";
      }
    }
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
        Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
    HttpUtil.setContentLength(response, response.content().readableBytes());
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    HttpUtil.setKeepAlive(response, keepAlive);
    if (keepAlive) {
      ctx.writeAndFlush(response);
    } else {
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }
}
