#!/usr/bin/env python3
"""wan-shuffle WAN delay line: forwards layer-2 frames between two interfaces with a fixed one-way delay.

usage: delayline.py IF1 IF2 ONE_WAY_MS

The kernel here has no netem, so latency is added in user space. Packet sockets are opened with
PACKET_VNET_HDR so that GSO/TSO super-frames (up to 64 KiB) are received and re-sent whole: at
100-200 Mbit/s that is a few thousand frames per second, which one Python thread per direction keeps up
with. Frames leave in arrival order, each exactly ONE_WAY_MS after it arrived.

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


def open_socket(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
    s.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)  # do not see our own transmissions again
    s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)  # bypasses rmem_max
    s.bind((ifname, 0))
    return s


class Direction:
    """Frames from one socket, released to the other after the delay."""

    def __init__(self, src, dst, delay):
        self.src, self.dst, self.delay = src, dst, delay
        self.queue = collections.deque()
        self.ready = threading.Condition()
        self.errors = 0

    def receive(self):
        while True:
            frame = self.src.recv(70000)
            due = time.monotonic() + self.delay
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
                self.dst.send(frame)
            except OSError:
                self.errors += 1

    def start(self):
        for target in (self.receive, self.release):
            threading.Thread(target=target, daemon=True).start()


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: delayline.py IF1 IF2 ONE_WAY_MS")
    if1, if2, delay = sys.argv[1], sys.argv[2], float(sys.argv[3]) / 1000.0
    s1, s2 = open_socket(if1), open_socket(if2)
    try:
        # threads started below inherit the policy; they block on recv or sleep until a frame is due
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REALTIME_PRIORITY))
        scheduling = f"SCHED_FIFO priority {REALTIME_PRIORITY}"
    except (AttributeError, OSError) as e:
        scheduling = f"normal priority (no real-time scheduling: {e})"
    directions = [Direction(s1, s2, delay), Direction(s2, s1, delay)]
    for d in directions:
        d.start()
    print(f"ready: {if1} <-> {if2}, one-way delay {delay * 1000:.1f} ms, {scheduling}", flush=True)
    while True:
        time.sleep(30)
        errors = sum(d.errors for d in directions)
        if errors:
            print(f"send errors so far: {errors}", flush=True)


if __name__ == "__main__":
    main()
