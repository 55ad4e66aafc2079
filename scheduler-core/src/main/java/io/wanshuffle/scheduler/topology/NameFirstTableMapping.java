package io.wanshuffle.scheduler.topology;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.TableMapping;

/**
 * Hadoop's {@link TableMapping} that first looks a host up in the table by the name it is given,
 * and only for names the table does not list goes Hadoop's way (the name turned into its IP address
 * by DNS, then looked up, answers cached).
 *
 * <p>Why: Hadoop's mapping asks DNS for every name, even one the table lists as it is. For a table
 * of names that are not in DNS (a planning input, a test topology) every lookup fails, and a
 * resolver that times out costs seconds per host (5 s for each of 12 names in a table of 320). A
 * table listing addresses, as Hadoop expects, is read as Hadoop reads it; a table listing a
 * resolvable host by its name finds it (Hadoop alone would look up its address and answer the
 * default rack).
 */
final class NameFirstTableMapping extends TableMapping {
  /**
   * @param names host names or addresses
   * @return one path per name, in order: the table's line for the name itself, else Hadoop's answer
   *     for its address ({@link NetworkTopology#DEFAULT_RACK} when unknown)
   */
  @Override
  public List<String> resolve(List<String> names) {
    List<String> paths = new ArrayList<>(rawMapping.resolve(new ArrayList<>(names)));
    List<Integer> unlisted = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      if (NetworkTopology.DEFAULT_RACK.equals(paths.get(i))) {
        unlisted.add(i);
      }
    }
    if (!unlisted.isEmpty()) {
      List<String> viaDns =
          super.resolve(new ArrayList<>(unlisted.stream().map(names::get).toList()));
      for (int u = 0; u < unlisted.size(); u++) {
        paths.set(unlisted.get(u), viaDns.get(u));
      }
    }
    return paths;
  }
}
