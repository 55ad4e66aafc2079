/**
 * The reduce side of wan-shuffle: a reduce task's blocks fetched at once from its own cluster and,
 * from the other cluster, only inside the KPBS steps the driver's step coordinator grants (at most
 * k flows per backbone direction, δ per host).
 *
 * <p>The roles, along a task's read:
 *
 * <ul>
 *   <li>{@link io.wanshuffle.spark.reader.WanShuffleReader}: Spark's {@code read()} over a chain of
 *       fetchers; {@code Fetchers} opens Spark's {@code ShuffleBlockFetcherIterator} per subset of
 *       blocks, {@code CrossClusterBlocks} splits the task's blocks by the topology.
 *   <li>{@code GatedBlockIterator}: the task thread's event loop: reads the reported steps, the
 *       step being fetched, the same-cluster blocks, then an ungated fetch ({@code UngatedFetch}),
 *       and waits for the coordinator's answers (fetch wait time, task kill, {@code
 *       grant.maxWait}).
 *   <li>{@code ReaderStateMachine} with {@code ReaderPhase}: the reader's phase (registering,
 *       waiting for a grant, fetching a step, reported, standing aside for a sibling reader of the
 *       same task, handed back, ungated, done) and its transitions on each {@code ReaderEvent}.
 *   <li>{@code CoordinatorConversation}: the numbered calls to the coordinator ({@code
 *       DemandClient}, {@link io.wanshuffle.spark.reader.CoordinatorChannel} over Spark RPC) and
 *       the one queue on which their answers reach the task thread.
 *   <li>{@code StepTaker} (a grant's blocks within {@code spark.reducer.maxSizeInFlight}, or paced
 *       at {@code spark.wanshuffle.flow.rateCap}), {@code StepRun} (a step's chunks), {@code
 *       StepReport} (its one report: on arrival, ahead on the hand-over timer, or by the task),
 *       {@code StepOpener} (the grant answering a report opened on a step-opener thread), {@code
 *       OpenerGate} (what the task thread and the step-opener share).
 *   <li>{@code ArrivalTrackingClient}, {@code StreamedBlocks}, {@code CountedDownloads}: a step's
 *       bytes seen as they arrive; {@code HandoverPredictor} and {@code SharedConnections}: when
 *       its ports can be handed on (predicted hand-over).
 *   <li>{@link io.wanshuffle.spark.reader.ReaderContext}: what an executor's readers share (the
 *       predictor, the step-opener and hand-over timer threads, {@code TaskReaders}), owned by
 *       {@code WanShuffleManager} and closed when it stops.
 * </ul>
 *
 * <p>Threads: the task thread owns a reader's state (its phase, steps, conversation's awaited call;
 * {@code ReaderStateMachine}). Network threads (a step's bytes arrived), the hand-over timer (a
 * report ahead) and the step-opener send a step's one report or open a grant, and every answer
 * reaches the task thread as an event on the reader's queue. What is shared, and why:
 *
 * <ul>
 *   <li>{@code OpenerGate} (its monitor): the task thread and the reader's step-opener; the room
 *       check must see the task's reads while the task thread is busy. The reader's {@code
 *       CrossClusterBlocks} are not shared but handed over under this lock: a step-opener takes a
 *       grant's blocks only while the task thread awaits that answer.
 *   <li>{@code StepReport} (per step, its monitor): whichever of a network thread, the hand-over
 *       timer or the task thread reports first sends the one report.
 *   <li>{@code ArrivalTrackingClient} (per step, its monitor): the thread that sends the step's
 *       requests and the network threads that deliver its blocks.
 *   <li>executor-wide, fed by every task's fetches: {@code HandoverPredictor} (samples under one
 *       lock, estimates published as an immutable snapshot), {@code SharedConnections} (its
 *       monitor), {@code TaskReaders} (a synchronized map; a task's list on its own thread).
 * </ul>
 */
package io.wanshuffle.spark.reader;
