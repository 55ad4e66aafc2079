package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SizesTest {
  @Test
  void sparkSizesInBytes() {
    assertEquals(0, Sizes.TYPE.parse("s", "0"));
    assertEquals(512, Sizes.TYPE.parse("s", "512b"));
    assertEquals(512 * 1024, Sizes.TYPE.parse("s", "512k"));
    assertEquals(4L << 20, Sizes.TYPE.parse("s", " 4m "));
  }

  @Test
  void negativeOrWordsAreRefusedNamingKeyAndValue() {
    for (String bad : new String[] {"-1", "lots", ""}) {
      assertEquals(
          "s = '" + bad + "': expected a size of at least 0 such as 0, 512k, 4m (bytes)",
          assertThrows(ConfigValueException.class, () -> Sizes.TYPE.parse("s", bad)).getMessage());
    }
  }
}
