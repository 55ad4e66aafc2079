#!/usr/bin/env python3
"""wan-shuffle WAN delay line: forwards layer-2 frames between interfaces with a fixed one-way delay.

usage: delayline.py ONE_WAY_MS IF1 IF2 [IF3 ...]

The kernel here has no netem, so latency is added in user space. Packet sockets are opened with
PACKET_VNET_HDR so that GSO/TSO super-frames (up to 64 KiB) are received and re-sent whole: at
100-200 Mbit/s that is a few thousand frames per second, which one Python thread per interface keeps up
with. Frames leave in arrival order, each exactly ONE_WAY_MS after it arrived.

With two interfaces every frame goes to the other one. With more (the core of a backbone joining three or
four sites) the delay line is a learning switch: it notes the interface each source MAC address sends from,
forwards a frame to its destination's interface, and floods broadcast, multicast and not yet learned
destinations to every other interface; each frame is delayed once.

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
    """One interface: frames due to leave through it, released after the delay."""

    def __init__(self, name):
        self.name = name
        self.sock = open_socket(name)
        self.queue = collections.deque()
        self.ready = threading.Condition()
        self.errors = 0

    def enqueue(self, due, frame):
        with self.ready:
            self.queue.append((due, frame))
            self.ready.notify()

    def release(self):
        while True:
            with self.ready:
                while not self.queue:
                    self.ready.wait()
                due, frame = self.queue.popleft()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
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
            due = time.monotonic() + self.delay
            for target in self.targets(port, frame):
                target.enqueue(due, frame)

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
    Switch(ports, delay).start()
    names = " <-> ".join(p.name for p in ports)
    print(f"ready: {names}, one-way delay {delay * 1000:.1f} ms, {scheduling}", flush=True)
    while True:
        time.sleep(30)
        errors = sum(p.errors for p in ports)
        if errors:
            print(f"send errors so far: {errors}", flush=True)


if __name__ == "__main__":
    main()
