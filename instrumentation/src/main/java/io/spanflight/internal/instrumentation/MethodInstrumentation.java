package io.spanflight.internal.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.nameMatches;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;

import io.spanflight.internal.instrumentation.bootstrap.MethodClock;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.annotation.AnnotationList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Times and traces the methods of a {@link MethodSelection} on JDK 17 and 21, as JFR's {@code
 * jdk.MethodTiming} and {@code jdk.MethodTrace} do on JDK 25 (JEP 520): each selected method gets
 * {@link MethodAdvice}, with its id and mode as constants. Loaded classes are retransformed at
 * install; classes loaded later are transformed as they load.
 *
 * <p>Guard rails as JEP 520's: no class of the JDK ({@code java.}, {@code jdk.}, {@code sun.},
 * {@code com.sun.}, or any class of the boot loader), of the OpenTelemetry javaagent ({@code
 * io.opentelemetry.javaagent.}, its shaded classes and class loaders), of ByteBuddy or of
 * Spanflight ({@code io.spanflight.internal.} and the API package {@code io.spanflight}). No constructors, static initialisers, abstract or native methods.
 *
 * <p>Not API: internal to Spanflight.
 */
final class MethodInstrumentation {
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private MethodInstrumentation() {}

  /** The method's id in {@link MethodIds}, baked into its advice. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface MethodId {}

  /** The method's mode ({@link MethodClock#TIMED}, {@link MethodClock#TRACED}), baked in. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface Mode {}

  static ResettableClassFileTransformer install(
      Instrumentation instrumentation, MethodSelection selection, MethodIds ids) {
    return new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .with(new Failures())
        // either one: ignore(typeMatcher, loaderMatcher) alone would need both
        .ignore(guarded())
        .or(any(), MethodInstrumentation::guardedLoader)
        .type(new Selected(selection))
        .transform((builder, type, loader, module, domain) -> advise(builder, type, selection, ids))
        .installOn(instrumentation);
  }

  /** The classes never instrumented, whatever the filter says. */
  static ElementMatcher.Junction<TypeDescription> guarded() {
    return nameStartsWith("java.")
        .or(nameStartsWith("jdk."))
        .or(nameStartsWith("sun."))
        .or(nameStartsWith("com.sun."))
        .or(nameStartsWith("io.opentelemetry.javaagent."))
        .or(nameStartsWith("io.spanflight.internal."))
        .or(nameMatches("io\\.spanflight\\.[^.]+")) // the public API; not other io.spanflight.x packages
        .or(nameStartsWith("net.bytebuddy."));
  }

  /** The boot loader (the JDK's classes), the platform loader and the agent's own loaders. */
  static boolean guardedLoader(ClassLoader loader) {
    return loader == null
        || loader == ClassLoader.getPlatformClassLoader()
        || loader.getClass().getName().startsWith("io.opentelemetry.javaagent.");
  }

  private static DynamicType.Builder<?> advise(
      DynamicType.Builder<?> builder, TypeDescription type, MethodSelection selection, MethodIds ids) {
    Set<String> classAnnotations = names(type.getDeclaredAnnotations());
    for (MethodDescription.InDefinedShape method : type.getDeclaredMethods()) {
      if (!method.isMethod() || method.isAbstract() || method.isNative()) {
        continue;
      }
      int mode = selection.mode(
          type.getName(), method.getName(), classAnnotations, names(method.getDeclaredAnnotations()));
      int id = mode == 0 ? -1 : ids.idOf(type.getName(), method.getName(), method.getDescriptor());
      if (id >= 0) {
        builder = builder.visit(advice(named(method.getName()).and(hasDescriptor(method.getDescriptor())), id, mode));
      }
    }
    return builder;
  }

  /** {@link MethodAdvice} on the methods {@code methods} matches, with {@code id} and {@code mode} baked in. */
  static AsmVisitorWrapper.ForDeclaredMethods advice(ElementMatcher<? super MethodDescription> methods, int id, int mode) {
    return Advice.withCustomMapping()
        .bind(MethodId.class, id)
        .bind(Mode.class, mode)
        .to(MethodAdvice.class)
        .on(methods);
  }

  private static Set<String> names(AnnotationList annotations) {
    Set<String> names = new HashSet<>();
    for (TypeDescription annotation : annotations.asTypeList()) {
      names.add(annotation.getName());
    }
    return names;
  }

  /** Classes that declare a method the selection may match (checked on names first). */
  private static final class Selected extends ElementMatcher.Junction.AbstractBase<TypeDescription> {
    private final MethodSelection selection;

    Selected(MethodSelection selection) {
      this.selection = selection;
    }

    @Override
    public boolean matches(TypeDescription type) {
      if (selection.namesClass(type.getName())) {
        return true;
      }
      if (!selection.needsMembers()) {
        return false;
      }
      List<String> methodNames = new ArrayList<>();
      Set<String> annotations = names(type.getDeclaredAnnotations());
      for (MethodDescription.InDefinedShape method : type.getDeclaredMethods()) {
        methodNames.add(method.getName());
        annotations.addAll(names(method.getDeclaredAnnotations()));
      }
      return selection.mayMatch(type.getName(), methodNames, annotations);
    }
  }

  /** Logs the first failures to transform a class (the class then stays as it was). */
  private static final class Failures extends AgentBuilder.Listener.Adapter {
    private static final int LOGGED = 5;
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable t) {
      if (count.incrementAndGet() <= LOGGED) {
        logger.warning("Spanflight could not time or trace the methods of " + typeName + ": " + t);
      }
    }
  }

  /** Inlined into each selected method: one clock read on entry, one call on exit. */
  static final class MethodAdvice {
    private MethodAdvice() {}

    // Why: the start of the call, for its duration (JFR's jdk.MethodTiming/MethodTrace are JDK 25+).
    @Advice.OnMethodEnter(suppress = Throwable.class)
    static long enter() {
      return System.nanoTime();
    }

    // Why: returns and throws both end the call, as in JFR's own method timing.
    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@MethodId int id, @Mode int mode, @Advice.Enter long start) {
      MethodClock.exit(id, mode, start);
    }
  }
}
