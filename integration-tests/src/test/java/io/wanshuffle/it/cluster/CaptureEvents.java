package io.wanshuffle.it.cluster;

import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;

/** Collects the plugin's capture events from the driver's listener bus and loads their files. */
final class CaptureEvents extends SparkListener {
  private final List<WanShuffleStageCaptured> stages = new ArrayList<>();
  private final List<WanShuffleStepCompleted> steps = new ArrayList<>();

  static CaptureEvents install(SparkContext sc) {
    CaptureEvents c = new CaptureEvents();
    sc.addSparkListener(c);
    return c;
  }

  @Override
  public synchronized void onOtherEvent(SparkListenerEvent e) {
    if (e instanceof WanShuffleStageCaptured s) {
      stages.add(s);
    } else if (e instanceof WanShuffleStepCompleted s) {
      steps.add(s);
    }
  }

  /** Forgets what was collected so far. */
  synchronized void clear() {
    stages.clear();
    steps.clear();
  }

  /** Waits for the listener bus, then returns the stage events collected since {@link #clear()}. */
  List<WanShuffleStageCaptured> stages(SparkContext sc) throws Exception {
    sc.listenerBus().waitUntilEmpty();
    synchronized (this) {
      return List.copyOf(stages);
    }
  }

  /**
   * @return step events collected since {@link #clear()}
   */
  synchronized List<WanShuffleStepCompleted> steps() {
    return List.copyOf(steps);
  }

  /** Loads a stage's capture file (written by a background thread: waits up to 30 s). */
  static StageCapture load(WanShuffleStageCaptured e) throws Exception {
    if (e.captureFile() == null) {
      throw new AssertionError("stage " + e.stageId() + ": no capture file (capture.dir unset?)");
    }
    Path f = Path.of(e.captureFile());
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!Files.exists(f)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("capture file never written: " + f);
      }
      Thread.sleep(50);
    }
    return CaptureFiles.readStage(f);
  }
}
