package io.wanshuffle.spark.coordinator.protocol;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Wire form of the coordinator's replies ({@link Registered}, {@link GrantReply}): plain {@code
 * byte[]}.
 *
 * <p>Why: an executor's RpcEnv deserialises replies with the class loader it had when it was
 * created, before the executor added the application's {@code --jars}; a reply object of a class
 * from the plugin jar then fails with {@code ClassNotFoundException} in Netty and the executor
 * exits ("Driver disassociated"). A {@code byte[]} needs no class from the plugin jar; the channel
 * decodes it in the task thread, which sees the jar. (Requests are read on the driver, whose RPC
 * threads see {@code --jars} classes.)
 *
 * <p>Format ({@link DataOutputStream}): a tag byte ({@code 'R'} registered, {@code 'G'} grant
 * reply), then for {@code Registered}: long demandId, boolean gated, long heldMs, long baseSpeed,
 * int receiverPorts, boolean hasFirstPoll and, if true, the first poll's grant reply without its
 * tag; for {@code GrantReply}: byte status ordinal, long stepId, int n, n x (UTF host, long
 * budget).
 */
public final class WireCodec {
  private static final byte REGISTERED = 'R';
  private static final byte GRANT = 'G';

  private WireCodec() {}

  /**
   * @param r a registration reply @return its wire form
   */
  public static byte[] encode(Registered r) {
    return write(
        out -> {
          out.writeByte(REGISTERED);
          out.writeLong(r.demandId());
          out.writeBoolean(r.gated());
          out.writeLong(r.heldMs());
          out.writeLong(r.baseSpeed());
          out.writeInt(r.receiverPorts());
          out.writeBoolean(r.firstPoll() != null);
          if (r.firstPoll() != null) {
            writeGrant(out, r.firstPoll());
          }
        });
  }

  /**
   * @param g a grant reply @return its wire form
   */
  public static byte[] encode(GrantReply g) {
    return write(
        out -> {
          out.writeByte(GRANT);
          writeGrant(out, g);
        });
  }

  private static void writeGrant(DataOutputStream out, GrantReply g) throws IOException {
    out.writeByte(g.status().ordinal());
    out.writeLong(g.stepId());
    out.writeInt(g.srcHosts().length);
    for (int i = 0; i < g.srcHosts().length; i++) {
      out.writeUTF(g.srcHosts()[i]);
      out.writeLong(g.budgets()[i]);
    }
    out.writeLong(g.heldMs());
  }

  private static GrantReply readGrant(DataInputStream in) throws IOException {
    GrantReply.Status status = GrantReply.Status.values()[in.readByte()];
    long stepId = in.readLong();
    int n = in.readInt();
    String[] hosts = new String[n];
    long[] budgets = new long[n];
    for (int i = 0; i < n; i++) {
      hosts[i] = in.readUTF();
      budgets[i] = in.readLong();
    }
    return new GrantReply(status, stepId, hosts, budgets, in.readLong());
  }

  /**
   * @param bytes wire form from {@link #encode(Registered)}
   * @return the registration reply
   * @throws IllegalArgumentException if the bytes are not a registration reply
   */
  public static Registered decodeRegistered(byte[] bytes) {
    try (DataInputStream in = open(bytes, REGISTERED)) {
      long demandId = in.readLong();
      boolean gated = in.readBoolean();
      long heldMs = in.readLong();
      long baseSpeed = in.readLong();
      int receiverPorts = in.readInt();
      GrantReply first = in.readBoolean() ? readGrant(in) : null;
      return new Registered(demandId, gated, first, heldMs, baseSpeed, receiverPorts);
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("malformed wan-shuffle registration reply", e);
    }
  }

  /**
   * @param bytes wire form from {@link #encode(GrantReply)}
   * @return the grant reply
   * @throws IllegalArgumentException if the bytes are not a grant reply
   */
  public static GrantReply decodeGrantReply(byte[] bytes) {
    try (DataInputStream in = open(bytes, GRANT)) {
      return readGrant(in);
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("malformed wan-shuffle grant reply", e);
    }
  }

  private interface Writer {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] write(Writer w) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      w.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static DataInputStream open(byte[] bytes, byte tag) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
    byte t = in.readByte();
    if (t != tag) {
      throw new IOException("tag " + (char) t + ", expected " + (char) tag);
    }
    return in;
  }
}
