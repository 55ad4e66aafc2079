package io.wanshuffle.spark.arbiter;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * One synchronous read of every node under the arbiter's namespace, each with its {@link Stat}:
 * what a driver reads after its own write is acknowledged to confirm a claim ({@link
 * ZooKeeperShare}). A read on the session after its own acknowledged write sees every write
 * ZooKeeper ordered before it.
 */
final class NamespaceListing {
  private NamespaceListing() {}

  /**
   * @param client a started Curator client
   * @param namespace the namespace's path
   * @return each child node as read now (path, stat, bytes); a node removed between the listing and
   *     its read is left out
   * @throws Exception what Curator throws for a failed listing or read (connection loss, timeout)
   */
  static List<ChildData> read(CuratorFramework client, String namespace) throws Exception {
    List<ChildData> nodes = new ArrayList<>();
    for (String child : client.getChildren().forPath(namespace)) {
      String path = namespace + "/" + child;
      Stat stat = new Stat();
      try {
        byte[] data = client.getData().storingStatIn(stat).forPath(path);
        nodes.add(new ChildData(path, stat, data));
      } catch (KeeperException.NoNodeException gone) {
        // removed meanwhile: the watch tells
      }
    }
    return nodes;
  }
}
