package io.spanflight.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.Interrupted;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hooks are tried once per JVM, except where the first try was cut short by a stop. */
class MountHooksTest {
  private final TestBridge bridge = new TestBridge();
  private final CarrierRecordWriter carriers =
      new CarrierRecordWriter(new SwitchRecorder(new ContextRegistry(bridge), bridge), bridge);
  /** What each call to the installer returns, in turn; records whether its thread was interrupted. */
  private final List<String> answers = new ArrayList<>();
  private final List<Boolean> interrupted = new ArrayList<>();

  private MountHooks hooks() {
    return new MountHooks(carriers, null, (dir, mounted, unmounting) -> {
      interrupted.add(Thread.currentThread().isInterrupted());
      return answers.remove(0);
    });
  }

  @Test
  void aFailureWhileInterruptedIsTriedAgainAtTheNextStart() {
    MountHooks hooks = hooks();
    answers.add("java.nio.channels.ClosedByInterruptException");
    answers.add(null);

    String first = Interrupted.during(hooks::installOnce); // stop() interrupts the start that is installing
    String second = hooks.installOnce();

    assertThat(first).startsWith("virtual-thread mount hooks off (java.nio.channels.ClosedByInterruptException)")
        .contains("tried again at the next start");
    assertThat(second).startsWith("virtual-thread mount hooks on");
    assertThat(hooks.installOnce()).isEqualTo(second);
    assertThat(interrupted).containsExactly(true, false);
  }

  @Test
  void aFailureWithoutInterruptIsKeptForTheJvmsLife() {
    MountHooks hooks = hooks();
    answers.add("this JDK's VirtualThread has no mount()");

    String first = hooks.installOnce();

    assertThat(first).isEqualTo("virtual-thread mount hooks off (this JDK's VirtualThread has no mount())");
    assertThat(hooks.installOnce()).isEqualTo(first); // the installer is not called again
    assertThat(interrupted).hasSize(1);
  }
}
