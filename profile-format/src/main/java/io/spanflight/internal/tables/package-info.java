/**
 * Primitive collections without boxing, for the JFR reader's constant store, the profile's
 * dictionary and the report's decoder: {@link io.spanflight.internal.tables.LongList}, {@link
 * io.spanflight.internal.tables.LongIntMap}, {@link io.spanflight.internal.tables.IndexMap} (objects
 * to dense int indexes), {@link io.spanflight.internal.tables.StackTable} (int arrays to indexes),
 * and {@link io.spanflight.internal.tables.Capacity}, the one rule for how large they grow. In the
 * extension every user runs on Spanflight's own threads, so the package is under the C2 exclusion
 * of {@code threads.BackgroundCompilation}.
 *
 * <p>Never imports: anything but {@code java.base}.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.tables;
