#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A small NVMe/TCP target on 127.0.0.1 that answers rocectl's host well
enough to bring a session up, then lies in the way --mode says, for
tests/cli/nvmf-liar.bats.

Layouts: NVM Express TCP Transport Specification 1.0 (ICReq/ICResp,
CapsuleCmd/CapsuleResp, C2HData, R2T, H2CData), as include/linux/nvme-tcp.h
spells them; the commands as drivers/nvme/target/{fabrics-cmd,admin-cmd,
io-cmd-bdev}.c answer them. No digests (the host asks for none by default).

Modes (one per run):
  honest      answer everything correctly (the control case)
  nq-wrap     Set Features (Number of Queues) completes with dw0 0xffffffff
  r2t-flood   every write is answered with an endless stream of R2Ts for its
              whole length, never a completion
  short-read  a read gets half its data in a C2HData, then a success CapsuleResp
  slow        each I/O command is answered alone, DELAY seconds after the
              previous answer (one at a time), as a target a little faster than
              the host's timeout

The port it listens on is written to --port-file once it listens. Every
socket wait has a timeout; the whole process ends after --lifetime seconds.
"""
import argparse
import os
import select
import socket
import struct
import sys
import threading
import time

NQN = "nqn.2026-12.test.rocectl:liar"
BS_SHIFT = 9                # 512-byte blocks
NSZE = 1 << 20              # blocks
MAXH2C = 128 * 1024


class Gone(Exception):
    pass


def recv_exact(s, n, deadline):
    b = b""
    while len(b) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Gone("timeout")
        r, _, _ = select.select([s], [], [], min(left, 1.0))
        if not r:
            continue
        c = s.recv(n - len(b))
        if not c:
            raise Gone("closed")
        b += c
    return b


def hdr(ptype, flags, hlen, pdo, plen):
    return struct.pack("<BBBBI", ptype, flags, hlen, pdo, plen)


def capsule_resp(cid, dw0=0, dw1=0, status=0, sqid=0):
    cqe = struct.pack("<IIHHHH", dw0, dw1, 0, sqid, cid, status << 1)
    return hdr(0x05, 0, 24, 0, 24) + cqe


def c2h_data(cid, offset, data, flags=0x04):
    return (hdr(0x07, flags, 24, 24, 24 + len(data)) +
            struct.pack("<HHIII", cid, 0, offset, len(data), 0) + data)


def r2t(cid, ttag, offset, length):
    return hdr(0x09, 0, 24, 0, 24) + struct.pack("<HHIII", cid, ttag, offset, length, 0)


def id_ctrl():
    p = bytearray(4096)
    p[77] = 5                                   # MDTS: 2^5 pages
    struct.pack_into("<H", p, 78, 1)            # CNTLID
    struct.pack_into("<I", p, 80, 0x00010400)   # VER 1.4
    p[512] = 0x66
    p[513] = 0x44
    struct.pack_into("<H", p, 514, 128)         # MAXCMD
    struct.pack_into("<I", p, 516, 1)           # NN
    struct.pack_into("<I", p, 536, 0x5)         # SGLS
    p[768:768 + len(NQN)] = NQN.encode()
    struct.pack_into("<I", p, 1792, (64 + 8192) // 16)  # IOCCSZ: 8 KiB in the capsule
    struct.pack_into("<I", p, 1796, 1)          # IORCSZ
    return bytes(p)


def id_ns():
    p = bytearray(4096)
    struct.pack_into("<QQQ", p, 0, NSZE, NSZE, NSZE)
    p[128 + 2] = BS_SHIFT                       # LBAF0: LBADS
    return bytes(p)


def ns_list():
    p = bytearray(4096)
    struct.pack_into("<I", p, 0, 1)
    return bytes(p)


class Conn:
    def __init__(self, s, args):
        self.s = s
        self.a = args
        self.cc = 0
        self.qid = 0
        self.last_io = time.monotonic()
        self.pending = {}
        self.deadline = time.monotonic() + args.lifetime

    def send(self, b):
        self.s.settimeout(5)
        self.s.sendall(b)

    def icreq(self):
        b = recv_exact(self.s, 128, self.deadline)
        if b[0] != 0x00:
            raise Gone("no ICReq")
        resp = bytearray(128)
        resp[0:8] = hdr(0x01, 0, 128, 0, 128)
        struct.pack_into("<HBBI", resp, 8, 0, 0, 0, MAXH2C)
        self.send(bytes(resp))

    def pdu(self):
        h = recv_exact(self.s, 8, self.deadline)
        ptype, flags, hlen, pdo, plen = struct.unpack("<BBBBI", h)
        if plen < 8 or plen > 64 * 1024 * 1024:
            raise Gone("bad plen")
        rest = recv_exact(self.s, plen - 8, self.deadline)
        return ptype, flags, hlen, pdo, h + rest

    def admin(self, sqe, cid, data):
        opc = sqe[0]
        if opc == 0x7f:
            fct = sqe[4]
            cdw10, cdw11, cdw12 = struct.unpack_from("<III", sqe, 40)
            if fct == 0x01:                     # Connect
                self.qid = cdw10 >> 16
                return self.send(capsule_resp(cid, dw0=1))
            if fct == 0x04:                     # Property Get
                val = {0x00: (1 << 24) | 127, 0x08: 0x00010400, 0x14: self.cc,
                       0x1c: (1 if self.cc & 1 else 0) |
                       (0x8 if (self.cc >> 14) & 3 else 0)}.get(cdw11, 0)
                return self.send(capsule_resp(cid, dw0=val & 0xffffffff, dw1=val >> 32))
            if fct == 0x00:                     # Property Set
                if cdw11 == 0x14:
                    self.cc = cdw12
                return self.send(capsule_resp(cid))
            return self.send(capsule_resp(cid, status=0x01))
        if opc == 0x06:                         # Identify
            cns = struct.unpack_from("<I", sqe, 40)[0] & 0xff
            page = {1: id_ctrl(), 2: ns_list(), 0: id_ns()}.get(cns)
            if page is None:
                return self.send(capsule_resp(cid, status=0x02))
            return self.send(c2h_data(cid, 0, page) + capsule_resp(cid))
        if opc == 0x09:                         # Set Features
            fid = struct.unpack_from("<I", sqe, 40)[0] & 0xff
            if fid == 0x07:
                dw0 = 0xffffffff if self.a.mode == "nq-wrap" else 0x00030003
                return self.send(capsule_resp(cid, dw0=dw0))
            return self.send(capsule_resp(cid))
        if opc == 0x18:                         # Keep Alive
            return self.send(capsule_resp(cid))
        return self.send(capsule_resp(cid, status=0x01))

    def io(self, sqe, cid, data):
        opc = sqe[0]
        nlb = (struct.unpack_from("<I", sqe, 48)[0] & 0xffff) + 1
        length = nlb << BS_SHIFT
        if self.a.mode == "slow":
            wait = self.last_io + self.a.delay - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self.last_io = time.monotonic()
        if opc == 0x02:                         # Read
            if self.a.mode == "short-read":
                return self.send(c2h_data(cid, 0, bytes(length // 2)) + capsule_resp(cid, sqid=self.qid))
            return self.send(c2h_data(cid, 0, bytes(length)) + capsule_resp(cid, sqid=self.qid))
        if opc == 0x01:                         # Write
            if data:
                return self.send(capsule_resp(cid, sqid=self.qid))
            if self.a.mode == "r2t-flood":
                while time.monotonic() < self.deadline:
                    self.send(r2t(cid, 1, 0, length))
            self.pending[cid] = length
            return self.send(r2t(cid, 1, 0, length))
        return self.send(capsule_resp(cid, status=0x01, sqid=self.qid))

    def h2c(self, pdu, pdo):
        cid = struct.unpack_from("<H", pdu, 8)[0]
        if cid not in self.pending:
            raise Gone("H2CData for no write")
        self.pending[cid] -= len(pdu) - pdo
        if self.pending[cid] <= 0:
            del self.pending[cid]
            self.send(capsule_resp(cid, sqid=self.qid))

    def run(self):
        self.icreq()
        while True:
            ptype, flags, hlen, pdo, pdu = self.pdu()
            if ptype == 0x06:
                self.h2c(pdu, pdo)
                continue
            if ptype != 0x04:
                raise Gone("unexpected PDU %#x" % ptype)
            sqe = pdu[8:72]
            cid = struct.unpack_from("<H", sqe, 2)[0]
            data = pdu[pdo:] if pdo else b""
            if self.qid and sqe[0] != 0x7f:
                self.io(sqe, cid, data)
            else:
                self.admin(sqe, cid, data)


def serve_one(s, args):
    try:
        Conn(s, args).run()
    except (Gone, OSError):
        pass
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True,
                    choices=["honest", "nq-wrap", "r2t-flood", "short-read", "slow"])
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--delay", type=float, default=0.8)
    ap.add_argument("--lifetime", type=float, default=60)
    args = ap.parse_args()
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    os.rename(tmp, args.port_file)
    end = time.monotonic() + args.lifetime
    while time.monotonic() < end:
        r, _, _ = select.select([ls], [], [], 1.0)
        if r:
            s, _ = ls.accept()
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=serve_one, args=(s, args), daemon=True).start()
    sys.exit(0)


if __name__ == "__main__":
    main()
