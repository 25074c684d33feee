/**
 * Run-time control over JMX: the {@link io.spanflight.internal.control.SpanflightControl} MBean
 * switches profiling off and on, sets run-time settings by hand (the top layer, above local and
 * remote ones) and shows the counters, the JFR settings in force and who set which setting.
 *
 * <p>In: JMX operations and attribute reads, on the JMX caller's thread. Out: calls on a {@link
 * io.spanflight.internal.control.ProfilerControl}, which the wiring in {@code
 * io.spanflight.internal} implements.
 *
 * <p>Must never import another Spanflight package: the wiring implements its interface and
 * registers the MBean, never the other way round.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.control;
