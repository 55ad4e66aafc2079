package io.wanshuffle.spark.config;

import static io.wanshuffle.spark.config.WanShuffleConf.AUTO_SETUP_SHARE_INVERSE;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;

/**
 * Every {@value #PREFIX} setting, each declared once: key, type with bounds and unit, default and
 * documentation (the rows of {@code docs/configuration.md} are generated from these declarations).
 * Read one with {@link WanShuffleConf#get} (the values checked at start-up), e.g. {@code
 * conf.get(Settings.GATHER_WINDOW)}, or with {@link ConfigEntry#get(SparkConf)} where there is no
 * {@link WanShuffleConf} (the capture listener). Times are read in milliseconds, sizes in bytes,
 * rates in bytes per second; a setting without a default reads as an {@link Optional}. The settings
 * of several applications on one backbone are declared in {@link ArbiterSettings}; {@link #all()}
 * lists them after these.
 *
 * <p>Settings marked experimental select behaviours that measured worse than the defaults, or that
 * were never measured end to end; each says which measurement justifies keeping it.
 */
public final class Settings {
  /** Prefix of every key. */
  public static final String PREFIX = "spark.wanshuffle.";

  /**
   * The word of {@link #BETA}, {@link #K}, the rates and {@link #GATE_MIN_BYTES} that lets the
   * plugin derive (and measure) the value.
   */
  public static final String AUTO = "auto";

  /** The {@link #ALGORITHM} that turns gating off. */
  public static final String NONE = "none";

  /** {@link #STEP_MODE}: a flow's ports carry the next transfer as soon as it ends. */
  public static final String PIPELINED = "pipelined";

  /** {@link #STEP_MODE}: the papers' KPBS steps, separated by barriers. */
  public static final String BARRIER = "barrier";

  /** {@link #STEP_HANDOVER}: report a step when its end is near, as predicted. */
  public static final String PREDICTED = "predicted";

  /** {@link #STEP_HANDOVER}: report a step when its last block arrived. */
  public static final String ARRIVAL = "arrival";

  /** {@link #WINDOW}: each shared link's window moves with its measured flows. */
  public static final String ADAPTIVE = "adaptive";

  /** {@link #WINDOW}: each link admits its capacity in flows, no more. */
  public static final String CAPACITY = "capacity";

  /** {@link #PLANNING_FALLBACK}'s default: the greedy first step built into the plugin. */
  public static final String GREEDY_FALLBACK = "greedy";

  /** Largest {@link #STEP_DEADLINE_FACTOR}: a step's deadline stays a number of ms in a long. */
  private static final double MAX_DEADLINE_FACTOR = 1000;

  private static final List<ConfigEntry<?>> ALL = new ArrayList<>();

  private Settings() {}

  // ---- scheduling: the platform and the step scheduler -------------------------------------

  public static final ConfigEntry<String> ALGORITHM =
      declare(
          ConfigEntry.builder("spark.wanshuffle.algorithm", Text.lowerCase("name"))
              .section(Section.SCHEDULING)
              .defaultValue("auto")
              .doc(
                  """
                  Step scheduler of scheduler-core: `auto` (picks per instance), `ggp`, `oggp`, \
                  `dggp`, `heuristic-weights`, `heuristic-degrees`, `exact` (tiny instances only), \
                  `liquid` (`./wan-shuffle plan --help` lists them). With a topology file \
                  (`topology.file`) whose racks have rates, that lists more than two clusters or \
                  whose backbone sides differ, `auto` and `liquid` plan with `liquid` on every \
                  link of that file (NICs, rack uplinks and downlinks, backbone sides); \
                  otherwise on the NICs and the backbone. `none` turns gating off: the reader \
                  is then Spark's own (one fetcher over all blocks), cross-cluster bytes are still \
                  reported to the capture. Use it for A/B runs."""));

  public static final ConfigEntry<Optional<String>> TOPOLOGY_FILE =
      declare(
          ConfigEntry.builder("spark.wanshuffle.topology.file", Text.trimmed("path"))
              .section(Section.SCHEDULING)
              .noDefault("unset")
              .blankIsUnset()
              .doc(
                  """
                  A topology file in the format of `./wan-shuffle plan --topology` \
                  ([topology.md](topology.md#the-configuration-file)): the host mapping \
                  (`mapping.table` or `mapping.script`) and the rates of the NICs, rack uplinks \
                  and downlinks and each cluster's backbone sides, for any number of clusters. \
                  When set, flows are counted on every link of their routes (no link carries more \
                  flows than its rate over the base speed, the gcd of the file's rates) and `auto` \
                  plans with `liquid` on the links when racks have rates, the table lists more \
                  than two clusters or their backbone sides differ; the `backbone.rate`, \
                  `nic.rate`, `nic.rates` keys and the `spark.hadoop.net.topology.*` mapping are \
                  then not used, and `k` and `delta` must be unset. Read like the table of \
                  `spark.hadoop.net.topology.table.file.name`: a relative path from the working \
                  directory, else from the files shipped with `--files` (ship the file and its \
                  table; it is read at first use, once they are in place, Spark 3.5 included). A \
                  file that does not parse, a link without a rate or an override naming an \
                  unknown host, rack or cluster stops start-up naming the file and line (on \
                  Spark 3.5 the first shuffle; on an executor its first shuffle read)."""));

  public static final ConfigEntry<Boolean> TOPOLOGY_STRICT =
      declare(
          ConfigEntry.builder("spark.wanshuffle.topology.strict", Words.trueOrFalse())
              .section(Section.SCHEDULING)
              .defaultValue("false")
              .doc(
                  """
                  Whether every executor host must be in the topology. The driver logs once, \
                  when the first shuffle is registered, how many executor hosts the topology \
                  maps and names the others (a host that registers later: one warning), and the \
                  WAN Shuffle tab lists both. `false`: an unmapped host is same-cluster with \
                  every host, its blocks fetched at once and never gated. `true`: an unmapped \
                  executor host stops the application (its running jobs are cancelled naming \
                  the host, then the SparkContext stops)."""));

  public static final ConfigEntry<Choice<Long>> BACKBONE_RATE =
      declare(
          ConfigEntry.builder("spark.wanshuffle.backbone.rate", OrWords.of(Rates.TYPE, AUTO))
              .section(Section.SCHEDULING)
              .defaultValue(AUTO)
              .doc(
                  """
                  Rate of the backbone between the clusters. A rate set here is used as \
                  configured (a measurement more than 25 % apart is logged once at WARN). \
                  `auto` (also when unset): 10 times the slowest NIC rate at start-up (k = 10 \
                  flows per direction, enough parallel flows to fill the backbone for the \
                  measurement), then, unless `k` is a number, the measured rate of the slowest \
                  backbone side once the measurement holds at least 20 flows, for later \
                  shuffles."""));

  public static final ConfigEntry<Choice<Long>> NIC_RATE =
      declare(
          ConfigEntry.builder("spark.wanshuffle.nic.rate", OrWords.of(Rates.TYPE, AUTO))
              .section(Section.SCHEDULING)
              .defaultValue(AUTO)
              .doc(
                  """
                  NIC rate of every host not listed in `nic.rates`. A rate set here is used as \
                  configured. `auto` (also when unset): 100mbit at start-up, then, unless `k` is \
                  a number, each host's measured NIC rate (the slowest measured NIC for a host \
                  not measured; hosts listed in `nic.rates` keep their rate) once the \
                  measurement holds at least 20 flows, for later shuffles. A NIC that was not its \
                  flows' bottleneck is measured at their share, a lower bound. The start is low \
                  on purpose: the start base speed sets the `gate.minBytes=auto` threshold until \
                  the driver has measured (2.5 MB per step at β = 50 ms), so the first \
                  cross-site shuffle of reads of a few MB per source host is gated and measured \
                  (a higher start would leave such reads ungated, and nothing measured)."""));

  public static final ConfigEntry<Map<String, Long>> NIC_RATES =
      declare(
          ConfigEntry.builder("spark.wanshuffle.nic.rates", HostRates.TYPE)
              .section(Section.SCHEDULING)
              .defaultValue("")
              .doc(
                  """
                  Per-host NIC rates, e.g. `node7=10gbit,node8=10gbit`. Every host must be in the \
                  topology and listed once: a rate for a host the topology does not know would \
                  never apply (such a host is never gated), so it stops start-up naming the host \
                  (`host nod8 is not in the topology (topology table ...)`)."""));

  public static final ConfigEntry<Choice<Integer>> K =
      declare(
          ConfigEntry.builder("spark.wanshuffle.k", OrWords.of(FlowCounts.TYPE, AUTO))
              .section(Section.SCHEDULING)
              .defaultValue(AUTO)
              .doc(
                  """
                  Most cross-cluster flows open at once across the application in each direction \
                  of the backbone (cluster of the source to cluster of the destination; the \
                  backbone is full duplex; barrier steps count both directions together), at most \
                  `backbone.rate` in bytes/s. A number overrides the base-speed rule: the base \
                  speed is then `backbone.rate / k`, and no measurement changes k. `auto` (also \
                  when unset): the base-speed rule on the rates; while `backbone.rate` or \
                  `nic.rate` is `auto` (or unset), on their start values at start-up and then, \
                  once the measurement holds at least 20 flows, on the measured rates for later \
                  shuffles (k = measured backbone / slowest NIC, the base speed); with both rates \
                  set, on the configured rates only."""));

  public static final ConfigEntry<Optional<Integer>> DELTA =
      declare(
          ConfigEntry.builder("spark.wanshuffle.delta", FlowCounts.TYPE)
              .section(Section.SCHEDULING)
              .noDefault("derived")
              .doc(
                  """
                  δ: most cross-cluster flows one host sends (and, separately, receives) at once, \
                  for every host; capped by k. Derived by the base-speed rule when unset."""));

  public static final ConfigEntry<Choice<Long>> BETA =
      declare(
          ConfigEntry.builder("spark.wanshuffle.beta", OrWords.of(Times.atLeast(0), AUTO))
              .section(Section.SCHEDULING)
              .defaultValue(AUTO)
              .doc(
                  """
                  β, the set-up delay of a step (RPC round trip + connection set-up); the \
                  scheduler trades fewer steps against β. A time set here is used as configured. \
                  `auto` (also when unset): 50 ms until the driver has measured at least 20 flows \
                  and some gated flow, then the measured β (median grant delay plus the ramp of \
                  a flow on an open connection), at least 50 ms, for the \
                  stages that start after the next stage ends. The executors keep the start value \
                  for the `gate.minBytes=auto` threshold (its setup cost also holds the \
                  registration and polls of a gated read, which the measured β leaves out)."""));

  public static final ConfigEntry<Choice<Long>> FLOW_RATE_CAP =
      declare(
          ConfigEntry.builder(
                  "spark.wanshuffle.flow.rateCap", OrWords.of(Rates.TYPE, "off", "base"))
              .section(Section.SCHEDULING)
              .defaultValue("off")
              .blankIsUnset()
              .doc(
                  """
                  Per-flow rate cap. `base` = the base speed. A task paces the fetch of a step in \
                  chunks (of about 200 ms of data) so that it never runs ahead of cap x (flows of \
                  the step); pacing is at block granularity.""")
              .experimental(
                  """
                  Not measured end to end. It reproduces the GGP/OGGP paper's experiments \
                  (sec. 8), which shaped every NIC to the backbone's rate / k; the steps hold k \
                  flows without it."""));

  // ---- steps, waiting and fallback ---------------------------------------------------------

  public static final ConfigEntry<Double> STEP_DEADLINE_FACTOR =
      declare(
          ConfigEntry.builder(
                  "spark.wanshuffle.step.deadlineFactor", Decimals.between(1, MAX_DEADLINE_FACTOR))
              .section(Section.STEPS)
              .defaultValue("3")
              .doc(
                  """
                  A step ends when every receiver reported or at its deadline: \
                  max(`step.minDeadline`, factor x (β + planned step duration))."""));

  public static final ConfigEntry<Long> STEP_MIN_DEADLINE =
      declare(
          ConfigEntry.builder("spark.wanshuffle.step.minDeadline", Times.atLeast(1))
              .section(Section.STEPS)
              .defaultValue("5s")
              .doc("Lower bound of a step deadline."));

  public static final ConfigEntry<Optional<Long>> FLOW_STALL_TIMEOUT =
      declare(
          ConfigEntry.builder("spark.wanshuffle.flow.stallTimeout", OrWords.offOr(Times.atLeast(1)))
              .section(Section.STEPS)
              .defaultValue("15s")
              .doc(
                  """
                  A granted flow whose requested bytes have not advanced for this long (a link \
                  down, a sender unreachable) is reported stalled: its ports go back to the \
                  coordinator, which re-plans them at once and leaves the flow out of its rate \
                  measurements; its blocks still arrive, or fail into Spark's fetch-failure path, \
                  through Spark's fetch. The executor and the driver log it, the capture and the \
                  report count it. Counted on the bytes as they stream in \
                  (`step.progress=true`), on whole blocks otherwise. `off`: a stalled flow holds \
                  its ports until its blocks arrive or fail. See \
                  [plugin.md](plugin.md#failure-behaviour)."""));

  public static final ConfigEntry<String> STEP_MODE =
      declare(
          ConfigEntry.builder("spark.wanshuffle.step.mode", Words.of(PIPELINED, BARRIER))
              .section(Section.STEPS)
              .defaultValue(PIPELINED)
              .doc(
                  """
                  `pipelined`: a flow's ports carry the plan's next transfers as soon as it ends \
                  (steps overlap; k and δ hold at every instant). `barrier`: the papers' KPBS \
                  steps, the next step starts when every flow of the current one ended or its \
                  deadline passed. See [plugin.md](plugin.md#pipelined-and-barrier-steps).""")
              .experimental(
                  """
                  `barrier` is the papers' KPBS model (GGP/OGGP paper sec. 2), the one whose step \
                  cost (β + longest transfer) the schedulers minimise; it ran 7-32 % slower than \
                  Spark's default shuffle, where `pipelined` was up to 17 % faster \
                  ([end-to-end notes](benchmarks/2026-11-21-end-to-end-notes.md#barrier-and-arrival))."""));

  public static final ConfigEntry<String> WINDOW =
      declare(
          ConfigEntry.builder("spark.wanshuffle.window", Words.of(CAPACITY, ADAPTIVE))
              .section(Section.STEPS)
              .defaultValue(CAPACITY)
              .doc(
                  """
                  How many flows a shared link (a backbone side, a rack uplink or downlink) is \
                  admitted at once. `capacity`: its capacity in flows, never more (the window of \
                  every link is fixed). `adaptive`: a window that starts at the link's capacity in \
                  flows and moves with the flows it carries while a stage runs: up while the link \
                  carries under 92 % of its rate with its flows held elsewhere (their NICs, TCP, \
                  the gaps of hand-overs), back when a flow added did not raise its throughput, \
                  back to the capacity (never below) when its flows all run far below their \
                  shares, their measured throughput then in force as its rate; at most its \
                  capacity plus half of it (at least one flow more). Every move is logged and \
                  captured; measured slower than `capacity` on the demo's shape at RTT 0 and \
                  40 ms ([fill notes](benchmarks/2026-12-02-fill-notes.md)). Pipelined steps \
                  only: barrier steps plan on the capacity. See \
                  [plugin.md](plugin.md#link-windows)."""));

  public static final ConfigEntry<String> STEP_HANDOVER =
      declare(
          ConfigEntry.builder("spark.wanshuffle.step.handover", Words.of(PREDICTED, ARRIVAL))
              .section(Section.STEPS)
              .defaultValue(PREDICTED)
              .doc(
                  """
                  When a task reports a granted step so its ports go to the next flow. \
                  `predicted`: one coordinator round trip before the step's bytes are due at the \
                  executor's measured flow rate, later if the flow's first block shows it slower; \
                  on arrival until the executor has measured rates, and for a source host whose \
                  connection to the executor is new. Hides the about three round trips of a \
                  hand-over on a WAN; an early prediction overlaps two flows on a port for a while. \
                  `arrival`: when the step's last block has arrived (before the task reads it); \
                  flows never overlap on the wire. See \
                  [plugin.md](plugin.md#predicted-hand-over).""")
              .experimental(
                  """
                  `predicted` was faster than `arrival` in 18 of 20 paired cells of the end-to-end \
                  benchmark and within the noise in the other two \
                  ([end-to-end notes](benchmarks/2026-11-21-end-to-end-notes.md#barrier-and-arrival)); \
                  `arrival` is the one mode in which consecutive flows on a port never overlap on \
                  the wire."""));

  public static final ConfigEntry<Boolean> STEP_PROGRESS =
      declare(
          ConfigEntry.builder("spark.wanshuffle.step.progress", Words.trueOrFalse())
              .section(Section.STEPS)
              .defaultValue("true")
              .doc(
                  """
                  With `predicted` hand-over: `true` streams a step's blocks into the executor's \
                  heap (Spark's stream protocol, the one it uses for blocks fetched to disk) so \
                  that the reader counts their bytes as they arrive and postpones the hand-over of \
                  a flow that falls behind its prediction; `false` fetches them as Spark chooses \
                  (a block held in memory is seen only when its last byte has arrived, in Netty's \
                  direct memory). Requests above `spark.network.maxRemoteBlockSizeFetchToMem` are \
                  fetched to disk as Spark does; with `true` their bytes are counted as they are \
                  written. See [plugin.md](plugin.md#predicted-hand-over).""")
              .experimental(
                  """
                  With `true` the five `auto` cells at 40 ms ran as fast or faster (Zipf 8.65 -> \
                  8.32 s, trace 7.25 -> 7.00 s) and their retransmissions fell from 0.25-0.60 % to \
                  0 ([end-to-end notes](benchmarks/2026-11-22-end-to-end-notes.md#0144-0207-utc-table)); \
                  `false` keeps a step's blocks in Netty's direct memory instead of the heap."""));

  public static final ConfigEntry<Long> GATHER_WINDOW =
      declare(
          ConfigEntry.builder("spark.wanshuffle.coordinator.gatherWindow", Times.atLeast(0))
              .section(Section.STEPS)
              .defaultValue("200ms")
              .doc(
                  """
                  When the coordinator is idle, the longest it waits after the first registration \
                  before planning, so that a wave of reduce tasks is planned together (planned one \
                  by one, the first tasks to register take the k flows ahead of a bottleneck \
                  receiver that registers a little later). The window ends earlier, as soon as \
                  every task the driver launched in the stages with demand has registered or ended \
                  (the driver's listener reports task starts), so in practice it costs the time the \
                  wave takes to register (tens of ms); a task with only same-cluster blocks does \
                  not register but says so at its first read \
                  ([plugin.md](plugin.md#what-happens-in-a-shuffle), step 4), so it does not hold \
                  the window either. `0ms` plans every registration at once. A free flow kept for a \
                  bottleneck receiver's next task ([plugin.md](plugin.md#pipelined-and-barrier-steps), \
                  *A flow kept for a task about to register*) waits at most this window, or 1.5 x \
                  the median measured delay from a task's launch to its registration if that is \
                  longer, while the task is about to launch and again once it launched; `0ms` \
                  disables keeping flows too."""));

  public static final ConfigEntry<Choice<Long>> GATE_MIN_BYTES =
      declare(
          ConfigEntry.builder("spark.wanshuffle.gate.minBytes", OrWords.of(Sizes.TYPE, AUTO))
              .section(Section.STEPS)
              .defaultValue(AUTO)
              .doc(
                  """
                  A reduce task whose cross-cluster blocks of one shuffle read total fewer bytes \
                  than this fetches them at once, ungated, like same-cluster blocks: it tells the \
                  coordinator it has no demand and reports its bytes when it ends (capture flows \
                  with step 0). `auto`: a read is gated when its bytes at the base speed b last at \
                  least %1$d times the setup delays of its steps; the receiver takes at most δ \
                  flows per step, so a read from s cross-cluster hosts takes ceil(s / δ) steps and \
                  the threshold is %1$d x ceil(s / δ) x β x b (100 Mbit/s NICs, β = 50 ms: 2.5 MB \
                  per step, 7.5 MB for a read from 3 hosts on a 1-port receiver). b and δ are \
                  those the driver's coordinator plans with: every registration answer carries \
                  them, and the executor uses the latest for its later reads (its own configured, \
                  start or topology-file rates before the first answer), so with `auto` rates the \
                  threshold follows the measured rates once the driver switched to them. β is the \
                  executors' (configured, or the 50 ms start value). Below the threshold, one \
                  registration and grant per task and one step per source host (round trips to \
                  the driver and to the senders, across the WAN for tasks on the far cluster) cost \
                  more than the schedule saves: a job of many small reduce tasks (Spark SQL's 200 \
                  shuffle partitions of a small shuffle) runs as with Spark's default shuffle \
                  instead of up to 44 %% slower \
                  ([end-to-end notes](benchmarks/2026-11-22-end-to-end-notes.md#many-small-reduce-tasks)). A size \
                  applies to every read; `0` gates every read with cross-cluster blocks. Ungated \
                  reads are outside the schedule, so k and δ hold for the gated flows only. The \
                  bytes are those Spark's map statuses announce: above 2000 reduce partitions \
                  Spark announces every block below `spark.shuffle.accurateBlockThreshold` (100 MB) \
                  at the map output's average size, so a skewed partition can look small and go \
                  ungated; lower that threshold or set `spark.shuffle.accurateBlockSkewedFactor` \
                  for such jobs ([plugin.md](plugin.md#limits))."""
                      .formatted(AUTO_SETUP_SHARE_INVERSE)));

  public static final ConfigEntry<Optional<Double>> GATE_MARGIN =
      declare(
          ConfigEntry.builder("spark.wanshuffle.gate.margin", OrWords.offOr(Decimals.between(0, 1)))
              .section(Section.STEPS)
              .defaultValue("off")
              .doc(
                  """
                  Gate a stage's cross-site reads only where it pays. With a margin m in [0, 1], \
                  when a stage is first planned the driver predicts its cross-site transfer phase \
                  twice on its whole traffic (the registered demands and the tasks still to \
                  launch) with the network it measured so far (a link's measured rate once \
                  measured over at least 20 flows on open connections, else its configured or \
                  start rate): as the plugin runs it (each freed link takes the fitting transfer \
                  whose route has the most load still to come; grant delay per transfer, ramp \
                  once) and as Spark's default would run it (max-min fair sharing on every link, \
                  a new connection's ramp once). The \
                  stage is gated only when the scheduled prediction is below (1 - m) x the \
                  default's; otherwise its waiting and later tasks fetch at once as Spark does \
                  (an `UNGATED` answer; capture flows with step 0). The decision and its reason \
                  are logged and captured ([plugin.md](plugin.md#gating-only-where-it-pays)). \
                  `off`: every stage is gated."""));

  public static final ConfigEntry<Boolean> GATE_TASK_BOUND =
      declare(
          ConfigEntry.builder("spark.wanshuffle.gate.ungateTaskBound", Words.trueOrFalse())
              .section(Section.STEPS)
              .defaultValue("true")
              .doc(
                  """
                  Whether a gated stage that the network does not hold is ungated while it runs:                   once it had at least 20 grants over at least 10 s and at most 2 of its last 20                   grants waited for ports (its demands got their flows whenever they asked: its                   tasks, not the links, set its pace), its waiting and later tasks fetch at once                   as Spark does, saving a grant's round trip per step. The decision and its                   reason are logged and captured as a gating decision                   ([plugin.md](plugin.md#gating-only-where-it-pays)). `false`: a gated stage stays                   gated."""));

  public static final ConfigEntry<Long> ASK_TIMEOUT =
      declare(
          ConfigEntry.builder("spark.wanshuffle.coordinator.askTimeout", Times.atLeast(1))
              .section(Section.STEPS)
              .defaultValue("30s")
              .doc(
                  """
                  Timeout of the coordinator's lookup, and the margin added to \
                  `grant.pollInterval` for a long-poll and for the registration (which the \
                  coordinator answers with the demand's first grant, held like a long-poll). When \
                  it expires the task fetches ungated and logs why; if the registration reached \
                  the driver anyway, the task's report of its ungated bytes releases that demand \
                  (so it holds no flow and its bytes count once in the captured matrix)."""));

  public static final ConfigEntry<Long> POLL_INTERVAL =
      declare(
          ConfigEntry.builder("spark.wanshuffle.grant.pollInterval", Times.atLeast(1))
              .section(Section.STEPS)
              .defaultValue("30s")
              .doc(
                  """
                  How long the driver holds one long-poll grant request before answering "not \
                  yet" (the task asks again). An executor waits for it plus \
                  `coordinator.askTimeout`. Every expired poll is one more message per waiting \
                  task: in a stage of many more tasks than the backbone has flows a task can wait \
                  tens of seconds for its turn \
                  ([coordinator-scale.md](benchmarks/coordinator-scale.md)). Keep it plus \
                  `coordinator.askTimeout` below `spark.network.timeout`."""));

  public static final ConfigEntry<Long> MAX_GRANT_WAIT =
      declare(
          ConfigEntry.builder("spark.wanshuffle.grant.maxWait", Times.atLeast(1))
              .section(Section.STEPS)
              .defaultValue("30min")
              .doc(
                  """
                  Longest total time one task waits for grants; past it the task fetches its \
                  remaining cross-cluster blocks ungated (logged)."""));

  public static final ConfigEntry<Long> PLANNING_BUDGET =
      declare(
          ConfigEntry.builder("spark.wanshuffle.planning.budget", Times.atLeast(0))
              .section(Section.STEPS)
              .defaultValue("500ms")
              .doc(
                  """
                  Longest time one re-plan may take (at a step boundary, or when a flow ends with \
                  pipelined steps); `0` = unbounded. The configured algorithm runs on a worker \
                  thread; if it has not answered within the budget, that step is planned with \
                  `planning.fallback` and the late plan is discarded. While a late plan is still \
                  running, later boundaries use the fallback directly (at most one slow run at a \
                  time). After t consecutive plans over the budget, the next 2^(t-1) boundaries \
                  (at most 32, including those spent waiting for the late run) use the fallback \
                  without trying the configured algorithm, so an algorithm that is always too slow \
                  costs the driver a bounded share of a core; one plan within the budget resets t. \
                  The first fallback is logged at WARN. Re-plan times per algorithm and size: \
                  [replan.md](benchmarks/replan.md)."""));

  public static final ConfigEntry<Long> REPLAN_WAIT =
      declare(
          ConfigEntry.builder("spark.wanshuffle.planning.replanWait", Times.atLeast(0))
              .section(Section.STEPS)
              .defaultValue("20ms")
              .doc(
                  """
                  Longest a port freed while the planner is busy (pipelined steps) waits for the \
                  re-plan: a flow that ends while the planner computes the next plan is followed \
                  by the last plan's next transfers that fit (list scheduling of that plan, \
                  bottleneck ports first) at once when the last planning round (reading the \
                  residual demand, planning it, granting its step) took longer than this, else \
                  when the round being planned has run this long; the re-plan that follows, over \
                  the whole residual demand, covers what registered since. Planning rounds take a \
                  few ms up to a few hundred hosts per site, so this only acts on large residuals \
                  ([coordinator-scale.md](benchmarks/coordinator-scale.md)); `0` always grants \
                  from the last plan while the planner is busy."""));

  public static final ConfigEntry<Double> PLANNING_SHARE =
      declare(
          ConfigEntry.builder("spark.wanshuffle.planning.share", Decimals.between(0.01, 1))
              .section(Section.STEPS)
              .defaultValue("1")
              .doc(
                  """
                  Largest share of the driver's wall-clock time the planner spends in planning \
                  rounds with pipelined steps; `1`: rounds run back to back while flows end and \
                  tasks register (a core's worth at thousands of hosts). Below 1, after a round \
                  of t ms the next starts no sooner than t x (1 / share - 1) ms later (at most \
                  250 ms); meanwhile freed ports take the last plan's next transfers that fit, \
                  and an event the last plan has nothing for (a freed port or a new demand with \
                  free capacity) starts the next round at once. At 1,000 + 1,000 hosts `0.5` \
                  took 15-28 % less driver CPU; the stage's length and grant latency stayed \
                  within the runs' spread ([coordinator-scale.md](benchmarks/coordinator-scale.md)).""")
              .experimental(
                  """
                  Not shown to win beyond the driver's CPU in the load harness (`bench \
                  coordinator` at 1,000 + 1,000 hosts, three runs against four without: \
                  [coordinator-scale.md](benchmarks/coordinator-scale.md)); not measured on a \
                  Spark application."""));

  public static final ConfigEntry<String> PLANNING_FALLBACK =
      declare(
          ConfigEntry.builder("spark.wanshuffle.planning.fallback", Text.lowerCase("name"))
              .section(Section.STEPS)
              .defaultValue(GREEDY_FALLBACK)
              .doc(
                  """
                  Scheduler used past `planning.budget`: `greedy` (scheduler-core's \
                  `GreedyFirstStep`: the largest-first greedy maximal set of pairs within k and δ \
                  as the step) or any algorithm of `spark.wanshuffle.algorithm` except `exact`. \
                  Naming the configured algorithm itself turns the budget off.""")
              .experimental(
                  """
                  `greedy` plans a step of 300 x 300 hosts in a median 6 ms of CPU against 101 ms \
                  for `auto` and 518 ms for `oggp` ([replan.md](benchmarks/replan.md)); no other \
                  fallback was measured end to end."""));

  // ---- listeners and capture: declared in CaptureSettings ----------------------------------
  // ---- several applications on one backbone: declared in ArbiterSettings -------------------

  static {
    CaptureSettings.entries().forEach(Settings::register);
    ArbiterSettings.entries().forEach(Settings::register);
  }

  private static <T> ConfigEntry<T> declare(ConfigEntry.Builder<T> b) {
    return register(b.build());
  }

  private static <T> ConfigEntry<T> register(ConfigEntry<T> e) {
    if (!e.key().startsWith(PREFIX)) {
      throw new IllegalStateException(e.key() + " is not under " + PREFIX);
    }
    for (ConfigEntry<?> other : ALL) {
      if (other.key().equals(e.key())) {
        throw new IllegalStateException(e.key() + " is declared twice");
      }
    }
    ALL.add(e);
    return e;
  }

  /**
   * @return every declared setting, in declaration order (this class's, then {@link
   *     CaptureSettings}', then {@link ArbiterSettings}')
   */
  public static List<ConfigEntry<?>> all() {
    return Collections.unmodifiableList(ALL);
  }

  /**
   * @return the keys of every declared setting, in declaration order
   */
  public static List<String> keys() {
    return ALL.stream().map(ConfigEntry::key).toList();
  }
}
