#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print, as a reader types it, the example block of a man page or Markdown file
that contains NEEDLE: the .nf/.fi block of a troff page as man renders it (groff,
through man_examples.py, so that what roff does to a quote or a leading dot is
what the test runs), or the fenced block of a Markdown file. Tests run the
recipes the docs print.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from man_examples import raw_blocks, render  # noqa: E402


def troff_blocks(path):
    for head, body in raw_blocks(path):
        yield render(head, body)


def markdown_blocks(text):
    for m in re.finditer(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S):
        yield m.group(1)


def main():
    path, needle = sys.argv[1], sys.argv[2]
    text = open(path, encoding="utf-8").read()
    blocks = markdown_blocks(text) if path.endswith(".md") else troff_blocks(path)
    found = [b for b in blocks if needle in b]
    if len(found) != 1:
        print(f"{path}: {len(found)} blocks hold {needle!r}, expected one", file=sys.stderr)
        return 1
    sys.stdout.write(found[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
