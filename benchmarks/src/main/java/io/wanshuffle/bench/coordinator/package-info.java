/**
 * {@code ./wan-shuffle bench coordinator}: a load harness of the plugin's driver-side step
 * coordinator. A simulated stage ({@link io.wanshuffle.bench.coordinator.StageSpec}: sites of
 * hosts, racks, reduce tasks with their bytes per cross-site source host) runs against a real
 * {@code StepCoordinator}, either through its own API in one JVM or through Spark's RPC on loopback
 * with the plugin's executor-side client in client JVMs; simulated flows end after bytes / rate
 * with jitter. It reports what the driver pays (re-plan time, CPU, heap, RPC messages per task),
 * whether grants stay prompt, and how close the makespan stays to the stage's lower bound.
 *
 * <p>The harness uses only plugin types that the plugin's shaded jar does not relocate (no
 * scheduler-core type crosses between them), so it runs against the shaded jar as well as against
 * the plugin's classes.
 */
package io.wanshuffle.bench.coordinator;
