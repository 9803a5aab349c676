#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run a command on a real pseudo-terminal of COLS columns and print what it
wrote there (the terminal's \\r\\n as \\n), then exit with its status:

  pty_run.py COLS COMMAND [ARG...]

The window size is set on the terminal (TIOCSWINSZ) before the command
starts, as a terminal emulator does; COLUMNS is passed on only if the caller set it. Reading stops at the
command's end or after 60 s (then exit 124).
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time


def main():
    cols, argv = int(sys.argv[1]), sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        # the size before the command starts, on its own terminal (no race)
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
        os.execvp(argv[0], argv)
    out, deadline = b"", time.monotonic() + 60
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 1)
        if not r:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:		# EIO: the command closed its terminal
            break
        if not chunk:
            break
        out += chunk
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return 124
    _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(out.replace(b"\r\n", b"\n"))
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
