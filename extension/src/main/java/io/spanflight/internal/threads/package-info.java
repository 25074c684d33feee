/**
 * Spanflight's own threads: {@link io.spanflight.internal.threads.OwnThreads} makes them and
 * remembers their ids, so that the join can tell Spanflight waiting for work from the application
 * waiting.
 *
 * <p>In: the tasks and names of Spanflight's background threads, from any stage. Out: daemon
 * threads, and whether a Java thread id is one of them.
 *
 * <p>Must never import another Spanflight package: every stage may use it.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.threads;
