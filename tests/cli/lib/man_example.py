#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The example outputs of a man page, as the binary prints them.

Every .nf/.fi block of the page's EXAMPLES that begins with "$ rocectl" is a
command (continued by a trailing backslash) and the output it prints. Run in
DIR (the fixtures) with the rocectl under test first on PATH:

  man_example.py check PAGE DIR   each block's output against the binary's; a diff, exit 1
  man_example.py write PAGE DIR   the blocks rewritten with the binary's output
"""
import difflib
import os
import re
import subprocess
import sys

UNESCAPE = [("\\(dq", '"'), ("\\-", "-"), ("\\&", ""), ("\\e", "\\"), ("\\\\", "\\")]


def unescape(s):
    s = re.sub(r"\\f[BIRP]", "", s)
    for a, b in UNESCAPE:
        s = s.replace(a, b)
    return s


def escape(s):
    s = s.replace("\\", "\\\\").replace("-", "\\-")
    return "\n".join("\\&" + l if l[:1] in (".", "'") else l for l in s.split("\n"))


def examples(text):
    """(start, end) of each example block's body, its command and its output."""
    sec = re.search(r"^\.SH EXAMPLES\n(.*?)(?=^\.SH |\Z)", text, re.M | re.S)
    if not sec:
        return
    for m in re.finditer(r"^\.nf\n(.*?)^\.fi$", sec.group(1), re.M | re.S):
        lines = unescape(m.group(1)).split("\n")
        if not lines[0].startswith("$ rocectl"):
            continue
        cmd = [lines[0][2:]]
        i = 1
        while cmd[-1].endswith("\\"):
            cmd[-1] = cmd[-1][:-1]
            cmd.append(lines[i].strip())
            i += 1
        raw = m.group(1).split("\n")
        yield (sec.start(1) + m.start(1), sec.start(1) + m.end(1), raw[:i],
               " ".join(c.strip() for c in cmd), "\n".join(lines[i:]))


def run(cmd, where):
    env = dict(os.environ, PATH=os.path.dirname(os.environ["ROCECTL"]) + ":" + os.environ["PATH"],
               COLUMNS="80")
    p = subprocess.run(["bash", "-c", cmd], cwd=where, env=env, capture_output=True, text=True,
                       timeout=60)
    return p.stdout


def main():
    mode, page, where = sys.argv[1:4]
    text = open(page, encoding="utf-8").read()
    found = list(examples(text))
    if not found:
        print(f"{page}: no '$ rocectl' example in EXAMPLES", file=sys.stderr)
        return 1
    bad = 0
    for start, end, head, cmd, want in reversed(found):
        got = run(cmd, where)
        if mode == "write":
            body = "\n".join(head) + "\n" + escape(got)
            text = text[:start] + body + text[end:]
        elif got != want:
            bad = 1
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), got.splitlines(True),
                f"{page}: $ {cmd}", "rocectl prints"))
    if mode == "write":
        open(page, "w", encoding="utf-8").write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main())
