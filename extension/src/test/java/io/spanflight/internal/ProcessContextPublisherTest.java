package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.registry.AttributeKeyMap;
import io.spanflight.internal.registry.ContextAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The process context goes out at start, and again only when the attribute key map grew. */
class ProcessContextPublisherTest {
  private final List<byte[]> published = new ArrayList<>();
  private final TestBridge bridge =
      new TestBridge() {
        @Override
        public boolean publishProcessContext(byte[] payload) {
          published.add(payload);
          return true;
        }
      };

  @Test
  void publishesOnceWhileTheKeyMapStaysTheSame() {
    ProcessContextPublisher publisher = new ProcessContextPublisher(Resource.getDefault(), ContextAttributes.NONE, bridge);
    publisher.publish();
    publisher.publish();
    publisher.publish();
    assertThat(published).hasSize(1);
  }

  @Test
  void publishesAgainWhenAKeyWasAdded() {
    AttributeKeyMap keys = new AttributeKeyMap();
    ContextAttributes attributes = new ContextAttributes(List.of("tenant"), span -> null, keys);
    ProcessContextPublisher publisher = new ProcessContextPublisher(Resource.getDefault(), attributes, bridge);
    publisher.publish();
    publisher.publish();
    keys.indexOf("user.role"); // as a user entry adds its key
    publisher.publish();
    publisher.publish();
    assertThat(published).hasSize(2);
  }
}
