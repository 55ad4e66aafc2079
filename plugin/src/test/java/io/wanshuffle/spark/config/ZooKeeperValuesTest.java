package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class ZooKeeperValuesTest {
  private static final String KEY = "spark.wanshuffle.arbiter.zookeeper";

  @Test
  void anEnsembleIsHostPortPairs() {
    ValueType<String> t = ZooKeeperValues.ensemble();
    assertEquals("zk1:2181,zk2:2182", t.parse(KEY, " zk1:2181 , zk2:2182 "));
    assertEquals("10.0.0.1:2181", t.parse(KEY, "10.0.0.1:2181"));
    assertEquals("", t.parse(KEY, " "), "blank: no arbiter");
    for (String bad :
        new String[] {"zk1", "zk1:", ":2181", "zk1:0", "zk1:70000", "zk1:2181,", "zk1:21x"}) {
      ConfigValueException e =
          assertThrows(ConfigValueException.class, () -> t.parse(KEY, bad), bad);
      assertTrue(e.getMessage().contains(KEY) && e.getMessage().contains(bad), e.getMessage());
    }
    assertThrows(ConfigValueException.class, () -> t.parse(KEY, "zk1:2181/chroot"));
  }

  @Test
  void aNamespaceIsAnAbsoluteZnodePath() {
    ValueType<String> t = ZooKeeperValues.znodePath();
    assertEquals("/wan-shuffle/site-pair-1", t.parse("k", " /wan-shuffle/site-pair-1 "));
    for (String bad :
        new String[] {"wan", "/", "/a/", "/a//b", "/a/./b", "/a/../b", "/zookeeper/x"}) {
      assertThrows(ConfigValueException.class, () -> t.parse("k", bad), bad);
    }
  }

  @Test
  void theArbiterIsOffUnlessAnEnsembleIsSetAndItsSettingsAreChecked() {
    WanShuffleConf none = WanShuffleConf.from(new SparkConf(false));
    assertEquals("", none.get(ArbiterSettings.ZOOKEEPER));
    assertEquals(Optional.empty(), none.get(ArbiterSettings.NAMESPACE));
    assertEquals(1.0, none.get(ArbiterSettings.WEIGHT));
    assertEquals(10_000L, none.get(ArbiterSettings.SESSION_TIMEOUT));
    assertEquals(250L, none.get(ArbiterSettings.PUBLISH_INTERVAL));
    assertThrows(
        ConfigValueException.class,
        () -> WanShuffleConf.from(new SparkConf(false).set(ArbiterSettings.WEIGHT.key(), "0")));
    assertThrows(
        ConfigValueException.class,
        () -> WanShuffleConf.from(new SparkConf(false).set(ArbiterSettings.ZOOKEEPER.key(), "zk")));
    assertFalse(WanShuffleConf.from(new SparkConf(false)).adaptiveWindows(), "fixed by default");
    assertTrue(
        WanShuffleConf.from(new SparkConf(false).set(Settings.WINDOW.key(), Settings.ADAPTIVE))
            .adaptiveWindows(),
        "windows move");
  }
}
