#!/usr/bin/env python3
"""wan-shuffle WAN delay line: forwards layer-2 frames between interfaces with a fixed one-way delay.

usage: delayline.py ONE_WAY_MS IF1 IF2 [IF3 ...]

The kernel here has no netem, so latency is added in user space. Packet sockets are opened with
PACKET_VNET_HDR so that GSO/TSO super-frames (up to 64 KiB) are received and re-sent whole: at
100-200 Mbit/s that is a few thousand frames per second, which one Python thread per interface keeps up
with. Frames of one path leave in arrival order, each ONE_WAY_MS (plus any added delay, below) after it arrived.

With two interfaces every frame goes to the other one. With more (the core of a backbone joining three or
four sites) the delay line is a learning switch: it notes the interface each source MAC address sends from,
forwards a frame to its destination's interface, and floods broadcast, multicast and not yet learned
destinations to every other interface; each frame is delayed once.

Added delay (fault injection): a line "extra ID in|out IFNAME MS" on standard input sets the delay added, on top of
ONE_WAY_MS, to the frames entering (in) or leaving (out) by that interface from then on; a frame entering by one and
leaving by another gets both. The delay line answers "ok ID" (or "error ID REASON"). Frames already queued keep their
due time. Each interface keeps one queue per interface the frames came from and sends the earliest due frame first, so
that a delay on one path neither reorders it nor holds up frames of the other paths.

The delay line stands for the WAN between the clusters, which does not slow down when the hosts are busy; the
hosts (Spark executors, driver) share this machine's cores with it, so it asks for real-time scheduling
(SCHED_FIFO): a frame then waits for its due time, not for a core. Without the privilege it says so and runs at
normal priority.
"""
import collections
import os
import socket
import sys
import threading
import time

SOL_PACKET = 263
PACKET_VNET_HDR = 15
PACKET_IGNORE_OUTGOING = 23
SO_RCVBUFFORCE = 33
ETH_P_ALL = 0x0003
REALTIME_PRIORITY = 10
VNET_HDR_LEN = 10  # struct virtio_net_hdr before every frame


def open_socket(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
    s.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)  # do not see our own transmissions again
    s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)  # bypasses rmem_max
    s.bind((ifname, 0))
    return s


class Port:
    """One interface: frames due to leave through it, one FIFO queue per interface they came from, released after
    their delay, the earliest due first."""

    def __init__(self, name):
        self.name = name
        self.sock = open_socket(name)
        self.queues = {}  # source interface name -> deque of (due, frame)
        self.ready = threading.Condition()
        self.waiting_for = None  # the due time release() sleeps until; None: it waits for a frame
        self.errors = 0
        self.extra_in = 0.0  # s, added to frames entering by this interface
        self.extra_out = 0.0  # s, added to frames leaving by it

    def enqueue(self, source, due, frame):
        with self.ready:
            self.queues.setdefault(source, collections.deque()).append((due, frame))
            # wake release() only when this frame is due before what it waits for
            if self.waiting_for is None or due < self.waiting_for:
                self.ready.notify()

    def next_frame(self):
        """Blocks until the earliest due head of the queues is due; returns that frame."""
        with self.ready:
            while True:
                heads = [(q[0][0], s) for s, q in self.queues.items() if q]
                if not heads:
                    self.waiting_for = None
                    self.ready.wait()
                    continue
                due, source = min(heads)
                wait = due - time.monotonic()
                if wait <= 0:
                    self.waiting_for = None
                    return self.queues[source].popleft()[1]
                self.waiting_for = due
                self.ready.wait(wait)

    def release(self):
        while True:
            frame = self.next_frame()
            try:
                self.sock.send(frame)
            except OSError:
                self.errors += 1


class Switch:
    """Receives on every port and queues each frame on the port(s) it goes to."""

    def __init__(self, ports, delay):
        self.ports, self.delay = ports, delay
        self.where = {}  # source MAC -> port it was seen on

    def targets(self, port, frame):
        others = [p for p in self.ports if p is not port]
        if len(others) == 1 or len(frame) < VNET_HDR_LEN + 12:
            return others
        dst = frame[VNET_HDR_LEN:VNET_HDR_LEN + 6]
        src = frame[VNET_HDR_LEN + 6:VNET_HDR_LEN + 12]
        if not src[0] & 1:
            self.where[src] = port
        out = None if dst[0] & 1 else self.where.get(dst)
        if out is None:
            return others
        return [] if out is port else [out]

    def receive(self, port):
        while True:
            frame = port.sock.recv(70000)
            arrived = time.monotonic() + self.delay + port.extra_in
            for target in self.targets(port, frame):
                target.enqueue(port.name, arrived + target.extra_out, frame)

    def control(self, lines):
        """Applies "extra ID in|out IFNAME MS" lines until the input ends."""
        by_name = {p.name: p for p in self.ports}
        for line in lines:
            words = line.split()
            if not words:
                continue
            ident = words[1] if len(words) > 1 else "?"
            try:
                if len(words) != 5 or words[0] != "extra" or words[2] not in ("in", "out"):
                    raise ValueError("expected: extra ID in|out IFNAME MS")
                if words[3] not in by_name:
                    raise ValueError(f"no interface {words[3]} (interfaces: {' '.join(by_name)})")
                ms = float(words[4])
                if not ms >= 0 or ms == float("inf"):
                    raise ValueError(f"delay must be >= 0 ms, got {words[4]}")
                setattr(by_name[words[3]], "extra_" + words[2], ms / 1000.0)
                print(f"ok {ident}", flush=True)
            except ValueError as e:
                print(f"error {ident} {e}", flush=True)

    def start(self):
        for p in self.ports:
            threading.Thread(target=self.receive, args=(p,), daemon=True).start()
            threading.Thread(target=p.release, daemon=True).start()


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: delayline.py ONE_WAY_MS IF1 IF2 [IF3 ...]")
    delay = float(sys.argv[1]) / 1000.0
    ports = [Port(name) for name in sys.argv[2:]]
    try:
        # threads started below inherit the policy; they block on recv or sleep until a frame is due
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REALTIME_PRIORITY))
        scheduling = f"SCHED_FIFO priority {REALTIME_PRIORITY}"
    except (AttributeError, OSError) as e:
        scheduling = f"normal priority (no real-time scheduling: {e})"
    switch = Switch(ports, delay)
    switch.start()
    names = " <-> ".join(p.name for p in ports)
    print(f"ready: {names}, one-way delay {delay * 1000:.1f} ms, {scheduling}", flush=True)
    threading.Thread(target=switch.control, args=(sys.stdin,), daemon=True).start()
    while True:
        time.sleep(30)
        errors = sum(p.errors for p in ports)
        if errors:
            print(f"send errors so far: {errors}", flush=True)


if __name__ == "__main__":
    main()
