/**
 * The driver-side step coordinator: reduce tasks register their cross-cluster demand, the
 * coordinator plans KPBS steps over the residual traffic matrix and grants them to the receiving
 * tasks within every link's capacity in flows (k per backbone direction, δ(h) per host, each rack
 * link's capacity).
 *
 * <p>This package holds the façade and its wiring: {@link
 * io.wanshuffle.spark.coordinator.StepCoordinator} owns the lock and delegates; {@link
 * io.wanshuffle.spark.coordinator.DemandRequests} drives each demand through its life cycle on the
 * tasks' requests; {@link io.wanshuffle.spark.coordinator.PlanningRounds} runs the planner's
 * rounds; {@link io.wanshuffle.spark.coordinator.CoordinatorWiring} builds the roles. {@link
 * io.wanshuffle.spark.coordinator.CoordinatorService} builds the coordinator on the driver, {@link
 * io.wanshuffle.spark.coordinator.CoordinatorEndpoint} serves it over Spark's RPC and {@link
 * io.wanshuffle.spark.coordinator.CoordinatorSparkListener} feeds it the driver's task events.
 *
 * <p>The roles live in one sub-package each, along the data path, and each imports only those
 * before it: {@code event} (what listeners are told, the timer) → {@code network} (the planning
 * parameters in force, the flows holding each link) → {@code demand} (the demands and their life
 * cycle, the tasks around them, the stages' accounts) → {@code matrix} (the residual demand as a
 * KPBS instance) → {@code plan} (the scheduler within its budget, step modes, port order) → {@code
 * assemble} (a plan becomes one step) → {@code track} (grants, running steps, reports).
 * docs/architecture.md draws them and the path of one cross-site block.
 */
package io.wanshuffle.spark.coordinator;
