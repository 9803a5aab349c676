#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every example and recipe block of the man pages, as man shows it.

A block is each .nf/.fi block of man/*.8 and man/*.5 outside SYNOPSIS. It is
rendered alone by groff, as man renders the page (-man -Tascii), so that what
roff does to it (quotes eaten, a leading dot or quote taken as a request) is
what the tests see. Its key is its page and its first rendered line.

  man_examples.py list MANDIR               PAGE<TAB>KEY of every block
  man_examples.py show MANDIR PAGE KEY      the block as rendered
  man_examples.py check MANDIR LEDGER ROOT  every block in LEDGER exactly once,
                                            every entry a block, every test it
                                            names a @test of its file; exit 1
The ledger (tests/cli/data/man-examples) says for each block how it is run:
"run ENGINE" (tests/cli/man-examples.bats), "test FILE: NAME" or "lab FILE:
NAME" (a test elsewhere that runs it), "outline REASON" (a JSON outline, not a
command) or "skip REASON" (what it needs that this machine has not).
"""
import glob
import os
import re
import subprocess
import sys

# the body of a section is indented by 7 columns (an.tmac's IN 7n in -Tascii)
BODY_INDENT = 7


def raw_blocks(path):
    text = open(path, encoding="utf-8").read()
    head = text.split("\n", 1)[0] if text.startswith(".TH") else ".TH X 8"
    for sec in re.finditer(r"^\.SH ([^\n]*)\n(.*?)(?=^\.SH |\Z)", text, re.M | re.S):
        if sec.group(1).strip('"') == "SYNOPSIS":
            continue
        for m in re.finditer(r"^\.nf\n(.*?)^\.fi$", sec.group(2), re.M | re.S):
            yield head, m.group(1)


def render(head, body):
    doc = f"{head}\n.SH X\n.nf\n{body}.fi\n"
    out = subprocess.run(["groff", "-man", "-Tascii", "-P-cbou"], input=doc,
                         capture_output=True, text=True, check=True).stdout
    lines = out.split("\n")
    # the page's header and footer lines and the heading "X" around the block
    start = next(i for i, l in enumerate(lines) if l == "X") + 1
    end = max(i for i, l in enumerate(lines) if l.strip()) - 1
    block = lines[start:end + 1]
    while block and not block[-1].strip():
        block.pop()
    return "\n".join(l[BODY_INDENT:] if l[:BODY_INDENT] == " " * BODY_INDENT else l.lstrip()
                     for l in block) + "\n"


def blocks(mandir):
    for path in sorted(glob.glob(os.path.join(mandir, "*.[58]"))):
        for head, body in raw_blocks(path):
            text = render(head, body)
            key = next(l for l in text.split("\n") if l.strip()).strip()
            yield os.path.basename(path), key, text


def ledger(path):
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != 3:
            raise SystemExit(f"{path}:{n}: not PAGE<TAB>KEY<TAB>HOW: {line!r}")
        yield n, f[0], f[1], f[2]


def check(mandir, path, root):
    found = {}
    bad = 0
    for page, key, _ in blocks(mandir):
        if (page, key) in found:
            print(f"{page}: two blocks begin with {key!r}: make the first lines differ")
            bad = 1
        found[(page, key)] = 0
    for n, page, key, how in ledger(path):
        where = f"{path}:{n}"
        if (page, key) not in found:
            print(f"{where}: {page} has no block beginning {key!r} (stale entry)")
            bad = 1
            continue
        found[(page, key)] += 1
        verb, _, rest = how.partition(" ")
        if verb in ("test", "lab"):
            file, _, name = rest.partition(": ")
            tests = open(os.path.join(root, file), encoding="utf-8").read()
            if f'@test "{name}"' not in tests:
                print(f"{where}: {file} has no test {name!r}")
                bad = 1
        elif verb in ("outline", "skip"):
            if len(rest) < 12:
                print(f"{where}: {verb} without its reason")
                bad = 1
        elif verb != "run" or not rest:
            print(f"{where}: how {how!r} is none of run ENGINE, test, lab, outline, skip")
            bad = 1
    for (page, key), n in found.items():
        if n != 1:
            print(f"{page}: the block beginning {key!r} is "
                  f"{'in the ledger %d times' % n if n else 'neither run nor listed with a reason'}")
            bad = 1
    return bad


def main():
    cmd, mandir = sys.argv[1], sys.argv[2]
    if cmd == "list":
        for page, key, _ in blocks(mandir):
            print(f"{page}\t{key}")
    elif cmd == "show":
        page, key = sys.argv[3:5]
        texts = [t for p, k, t in blocks(mandir) if (p, k) == (page, key)]
        if len(texts) != 1:
            print(f"{page}: {len(texts)} blocks begin with {key!r}", file=sys.stderr)
            return 1
        sys.stdout.write(texts[0])
    elif cmd == "check":
        return check(mandir, sys.argv[3], sys.argv[4])
    return 0


if __name__ == "__main__":
    sys.exit(main())
