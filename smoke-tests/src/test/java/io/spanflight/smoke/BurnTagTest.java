package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.app.propagation.RequestTag;
import io.spanflight.smoke.app.propagation.Role;
import io.spanflight.smoke.app.propagation.SpanWork;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The request id written into the stack by RequestTag reads back from a real stack. */
class BurnTagTest {

  @Test
  void readsTheIdBackFromTheStackOfARunningBurn() throws Exception {
    for (int id : new int[] {0, 7, 0xbeef, RequestTag.MAX_ID}) {
      for (Role role : Role.values()) {
        assertThat(tagWhileBurning(id, role)).as("id %d, %s", id, role)
            .contains(new BurnTag(role, id));
      }
    }
  }

  @Test
  void stacksWithoutABurnFrameHaveNoTag() {
    assertThat(BurnTag.of(List.of("a.B.c", "java.lang.Thread.run"))).isEmpty();
  }

  @Test
  void anInterruptedDigitSequenceIsNotDecoded() {
    String d = RequestTag.DIGIT_FRAME_PREFIX;
    assertThat(BurnTag.of(List.of(SpanWork.SERVER, d + "1", "x.Y.z", d + "2", d + "3", d + "4")))
        .contains(new BurnTag(Role.SERVER, -1));
    assertThat(BurnTag.of(List.of(SpanWork.INNER, d + "1", d + "2"))).contains(new BurnTag(Role.INNER, -1));
  }

  /** Burns on another thread and reads its stack (leaf first) until it is inside the burn. */
  private static Optional<BurnTag> tagWhileBurning(int id, Role role) throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    Thread burner = new Thread(() -> {
      while (!stop.get()) {
        RequestTag.burn(id, role, 5);
      }
    });
    burner.start();
    try {
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (System.nanoTime() - deadline < 0) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement element : burner.getStackTrace()) {
          frames.add(element.getClassName() + "." + element.getMethodName());
        }
        Optional<BurnTag> tag = BurnTag.of(frames);
        if (tag.isPresent()) {
          return tag;
        }
        Thread.onSpinWait();
      }
      return Optional.empty();
    } finally {
      stop.set(true);
      burner.join();
    }
  }
}
