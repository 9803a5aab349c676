#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a pcap file of RoCE v2 frames for the CLI tests of 'rocectl capture'
and 'check wire', built from the layouts (Ethernet, IPv4, UDP 4791, BTH and
AETH of IBTA vol 1 9.2/9.3.5, the CM REQ/REP of include/rdma/ibta_vol1_c12.h)
the way tests/unit/test_roce_wire.c builds them.

usage: roce_pcap.py OUT.pcap SPEC...
SPEC, one flow each:
  data:SRC:DST:QP:TOS:N[:PSN0]   N RC SEND ONLY requests, PSNs PSN0.. (default 0)
  retx:SRC:DST:QP:TOS:PSN        one RC SEND ONLY at PSN (after a higher: a regression)
  nak:SRC:DST:QP:TOS:SYNDROME    one ACKNOWLEDGE with this AETH syndrome
  cnp:SRC:DST:QP:TOS:N           N CNPs (opcode 0x81)
  req:SRC:DST:QPN:TCLASS         a CM REQ (UD SEND ONLY to QP1), IP ToS 0
  rep:SRC:DST:QPN                the REP that answers the last REQ from DST to SRC
  flows:SRC:DST:TOS:N            N flows of one SEND ONLY each, to QPs 0x100 on
SRC, DST: the last octet of 10.0.0.X. ssh-free, dependency-free: struct only.
"""
import struct
import sys

LINKTYPE_ETHERNET = 1


def eth(payload):
    return bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1]) + struct.pack(">H", 0x0800) + payload


def ip4(tos, src, dst, payload):
    return struct.pack(">BBHHHBBH4s4s", 0x45, tos, 20 + len(payload), 0, 0x4000, 64, 17, 0,
                       bytes([10, 0, 0, src]), bytes([10, 0, 0, dst])) + payload


def udp(payload):
    return struct.pack(">HHHH", 49152, 4791, 8 + len(payload), 0) + payload


def bth(op, qp, psn):
    return bytes([op, 0, 0xff, 0xff, 0]) + qp.to_bytes(3, "big") + b"\x80" + psn.to_bytes(3, "big")


def frame(tos, src, dst, body):
    return eth(ip4(tos, src, dst, udp(body + b"\0\0\0\0")))


def mad(attr, msg):
    hdr = bytes([1, 7, 2, 3, 0, 0, 0, 0]) + struct.pack(">IIHHI", 0, 1, attr, 0, 0)
    return bth(0x64, 1, 0) + struct.pack(">II", 0x80010000, 1) + hdr + msg


def frames(spec, state):
    kind, *a = spec.split(":")
    n = [int(x, 0) for x in a]
    if kind == "data":
        psn0 = n[5] if len(n) > 5 else 0
        return [frame(n[3], n[0], n[1], bth(0x04, n[2], psn0 + i) + bytes(64)) for i in range(n[4])]
    if kind == "retx":
        return [frame(n[3], n[0], n[1], bth(0x04, n[2], n[4]) + bytes(64))]
    if kind == "nak":
        return [frame(n[3], n[0], n[1], bth(0x11, n[2], 0) + bytes([n[4], 0, 0, 1]))]
    if kind == "cnp":
        return [frame(n[3], n[0], n[1], bth(0x81, n[2], 0) + bytes(16)) for _ in range(n[4])]
    if kind == "flows":
        return [frame(n[2], n[0], n[1], bth(0x04, 0x100 + i, 0)) for i in range(n[3])]
    if kind == "req":
        state["comm"] = state.get("comm", 0x1000) + 1
        m = bytearray(232)
        m[0:4] = state["comm"].to_bytes(4, "big")
        m[32:35] = n[2].to_bytes(3, "big")
        m[56:72] = bytes(10) + b"\xff\xff" + bytes([10, 0, 0, n[0]])
        m[72:88] = bytes(10) + b"\xff\xff" + bytes([10, 0, 0, n[1]])
        m[92] = n[3]
        return [frame(0, n[0], n[1], mad(0x10, bytes(m)))]
    if kind == "rep":
        m = bytearray(232)
        m[0:4] = (state.get("comm", 0) + 0x100).to_bytes(4, "big")
        m[4:8] = state.get("comm", 0).to_bytes(4, "big")
        m[12:15] = n[2].to_bytes(3, "big")
        return [frame(0, n[0], n[1], mad(0x13, bytes(m)))]
    sys.exit(f"roce_pcap.py: unknown spec '{spec}'")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    state = {}
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, LINKTYPE_ETHERNET))
        t = 1_700_000_000
        for spec in sys.argv[2:]:
            for i, fr in enumerate(frames(spec, state)):
                t += 1
                f.write(struct.pack("<IIII", t // 1000, (t % 1000) * 1000, len(fr), len(fr)) + fr)


main()
