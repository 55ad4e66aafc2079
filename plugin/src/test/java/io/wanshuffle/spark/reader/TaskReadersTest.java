package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.TaskContext$;
import org.apache.spark.TaskContextImpl;
import org.junit.jupiter.api.Test;

class TaskReadersTest {
  private final TaskReaders readers = new TaskReaders();
  private final TaskContextImpl task = TaskContext$.MODULE$.empty();
  private final TaskContextImpl other = TaskContext$.MODULE$.empty();

  @Test
  void aReaderSeesTheOtherReadersOfItsOwnTaskOnly() {
    TaskReaders.Reader r1 = () -> {};
    TaskReaders.Reader r2 = () -> {};
    TaskReaders.Reader r3 = () -> {};
    readers.add(task, r1);
    assertTrue(readers.siblings(task, r1).isEmpty(), "alone in its task");
    readers.add(task, r2);
    readers.add(other, r3);
    assertEquals(List.of(r2), readers.siblings(task, r1));
    assertEquals(List.of(r1), readers.siblings(task, r2));
    assertTrue(readers.siblings(other, r3).isEmpty());
    assertEquals(2, readers.tasks());

    readers.remove(task);
    assertTrue(readers.siblings(task, r1).isEmpty(), "forgotten at task end");
    assertEquals(1, readers.tasks());
    readers.clear();
    assertEquals(0, readers.tasks());
  }

  @Test
  void siblingsIsACopy() {
    TaskReaders.Reader r1 = () -> {};
    TaskReaders.Reader r2 = () -> {};
    readers.add(task, r1);
    readers.add(task, r2);
    List<TaskReaders.Reader> s = readers.siblings(task, r1);
    readers.add(task, () -> {}); // a reader that starts while the siblings stand aside
    assertEquals(1, s.size());
  }
}
