package io.wanshuffle.spark.compat;

import java.util.function.Consumer;
import java.util.function.Predicate;
import scala.Function1;
import scala.PartialFunction;
import scala.runtime.AbstractPartialFunction;
import scala.runtime.BoxedUnit;

/**
 * An RPC endpoint's message handler ({@code RpcEndpoint.receive} and {@code receiveAndReply}) as
 * the Scala partial function Spark asks for, from a Java predicate and action; the same on Scala
 * 2.12 and 2.13.
 */
public final class ScalaHandlers {
  private ScalaHandlers() {}

  /**
   * @param accepts the messages handled
   * @param handle what to do with an accepted message (called only for those)
   * @return the partial function: defined at the accepted messages, others fall through to Spark's
   *     default (an unknown message is reported by Spark's dispatcher)
   */
  public static PartialFunction<Object, BoxedUnit> of(
      Predicate<Object> accepts, Consumer<Object> handle) {
    return new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(Object msg) {
        return accepts.test(msg);
      }

      @Override
      @SuppressWarnings("unchecked")
      public <A1, B1> B1 applyOrElse(A1 msg, Function1<A1, B1> dflt) {
        if (!accepts.test(msg)) {
          return dflt.apply(msg);
        }
        handle.accept(msg);
        return (B1) BoxedUnit.UNIT;
      }
    };
  }
}
