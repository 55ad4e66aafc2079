package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.demand.DemandBook;
import io.wanshuffle.spark.coordinator.demand.GatherWindow;
import io.wanshuffle.spark.coordinator.demand.StageGate;
import io.wanshuffle.spark.coordinator.demand.StageLedger;
import io.wanshuffle.spark.coordinator.demand.StageWaits;
import io.wanshuffle.spark.coordinator.demand.TaskWaves;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.event.Listeners;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.LiveParameters;
import io.wanshuffle.spark.coordinator.network.MeasuringListener;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import io.wanshuffle.spark.coordinator.track.StepGrants;
import io.wanshuffle.spark.coordinator.track.StepTracker;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The coordinator's roles and what they share, wired once by {@link StepCoordinator}: the demand
 * book and its neighbours, the parameters in force, the open flows, the running steps and the
 * grants. Every role is used under the coordinator's lock.
 *
 * @param conf the validated configuration
 * @param clusterOf the cluster of a host
 * @param clock epoch ms
 * @param timer the coordinator's timer; its actions run under the coordinator's lock as events
 * @param listeners the listener fan-out
 * @param parameters the planning parameters in force
 * @param measuring the realised flows measured
 * @param mode barrier or pipelined steps
 * @param book the registered demands
 * @param stages the stages' accounts
 * @param waves the tasks before and around their registration
 * @param gather the gather window
 * @param gate the per-stage gating decisions
 * @param waits whether each stage's grants waited for ports
 * @param leases the open flows
 * @param steps the running steps
 * @param grants grants steps and takes them back
 */
record Roles(
    WanShuffleConf conf,
    Function<String, String> clusterOf,
    LongSupplier clock,
    CoordinatorTimer timer,
    Listeners listeners,
    LiveParameters parameters,
    MeasuringListener measuring,
    StepMode mode,
    DemandBook book,
    StageLedger stages,
    TaskWaves waves,
    GatherWindow gather,
    StageGate gate,
    StageWaits waits,
    FlowLeases leases,
    StepTracker steps,
    StepGrants grants) {}
