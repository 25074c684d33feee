package io.spanflight.smoke.app.propagation;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A real Netty 4.1 HTTP server with the two Netty paths: {@code /netty-eventloop} burns on the
 * channel's event loop (two event loops shared by all connections), {@code
 * /netty-executor-group} in a handler bound to a separate two-thread {@link EventExecutorGroup}.
 * The agent's Netty instrumentation opens the SERVER span; nothing here touches context.
 */
public final class NettyBurnServer {
  public static final String EVENT_LOOP = "netty-eventloop";
  public static final String EXECUTOR_GROUP = "netty-executor-group";

  private NettyBurnServer() {}

  /** Starts the server on an ephemeral loopback port and returns the port. */
  public static int start() throws InterruptedException {
    EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("netty-boss", true));
    EventLoopGroup workers = new NioEventLoopGroup(2, new DefaultThreadFactory("netty-worker", true));
    EventExecutorGroup offload =
        new DefaultEventExecutorGroup(2, new DefaultThreadFactory("netty-offload", true));
    Channel channel = new ServerBootstrap()
        .group(boss, workers)
        .channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(new HttpServerCodec());
            ch.pipeline().addLast(new NettyBurnHandler(EVENT_LOOP, false));
            ch.pipeline().addLast(offload, new NettyBurnHandler(EXECUTOR_GROUP, true));
          }
        })
        .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .sync()
        .channel();
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }
}
