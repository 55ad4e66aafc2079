package io.wanshuffle.spark.config;

import java.util.ArrayList;
import java.util.List;

/**
 * ZooKeeper's values: an ensemble's addresses ({@code host:port[,host:port...]}, the connect string
 * of ZooKeeper's clients without a chroot) and a znode path ({@code /a/b}, ZooKeeper's path rules).
 */
final class ZooKeeperValues {
  private ZooKeeperValues() {}

  /**
   * @return comma-separated {@code host:port} pairs (port 1..65535, blanks around items removed,
   *     empty items refused), as one connect string joined by commas; the empty text reads as empty
   */
  static ValueType<String> ensemble() {
    return ValueType.of(
        "`host:port[,host:port...]`",
        (key, text) -> {
          if (text.isBlank()) {
            return "";
          }
          List<String> hosts = new ArrayList<>();
          for (String item : text.split(",", -1)) {
            String h = item.trim();
            int colon = h.lastIndexOf(':');
            if (colon <= 0 || h.contains("/") || h.chars().anyMatch(Character::isWhitespace)) {
              throw new ConfigValueException(
                  key, text, "expected host:port[,host:port...], e.g. zk1:2181,zk2:2181");
            }
            int port;
            try {
              port = Integer.parseInt(h.substring(colon + 1));
            } catch (NumberFormatException e) {
              port = -1;
            }
            if (port < 1 || port > 65535) {
              throw new ConfigValueException(key, text, "port of '" + h + "' is not 1..65535");
            }
            hosts.add(h);
          }
          return String.join(",", hosts);
        });
  }

  /**
   * @return an absolute znode path: starts with {@code /}, no trailing {@code /}, no empty, {@code
   *     .} or {@code ..} component, no control character; not {@code /} itself, nor under
   *     ZooKeeper's own {@code /zookeeper}
   */
  static ValueType<String> znodePath() {
    return ValueType.of(
        "znode path",
        (key, text) -> {
          String p = text.trim();
          if (!p.startsWith("/") || p.length() == 1 || p.endsWith("/")) {
            throw new ConfigValueException(
                key, text, "expected an absolute znode path such as /wan-shuffle/site-pair-1");
          }
          for (String part : p.substring(1).split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
              throw new ConfigValueException(
                  key, text, "a znode path has no empty, '.' or '..' component");
            }
          }
          if (p.chars().anyMatch(Character::isISOControl)) {
            throw new ConfigValueException(key, text, "a znode path has no control character");
          }
          if (p.equals("/zookeeper") || p.startsWith("/zookeeper/")) {
            throw new ConfigValueException(key, text, "/zookeeper is ZooKeeper's own subtree");
          }
          return p;
        });
  }
}
