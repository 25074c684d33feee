package io.spanflight.internal.capture;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import jdk.jfr.Label;
import jdk.jfr.MetadataDefinition;
import jdk.jfr.Name;

/**
 * JDK 25's {@code @jdk.jfr.Contextual}, declared here so that the code compiles and runs on 17:
 * JFR identifies annotations by their metadata name, so JDK 25 tools ({@code jfr print}, JDK
 * Mission Control) treat fields carrying this one as context of the events that happen while
 * their event is in progress. Older JDKs record it as an ordinary annotation.
 *
 * <p>Not API: internal to Spanflight.
 */
@MetadataDefinition
@Name("jdk.jfr.Contextual")
@Label("Context")
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface ContextualField {}
