#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print, as a reader types it, the example block of a man page or Markdown file
that contains NEEDLE: the .nf/.fi block of a troff page, or the fenced block of a
Markdown file, with troff's escapes undone. Tests run the recipes the docs print.
"""
import re
import sys

ESCAPES = [("\\(dq", '"'), ("\\-", "-"), ("\\&", ""), ("\\e", "\\"), ("\\\\", "\\")]


def troff_blocks(text):
    for m in re.finditer(r"^\.nf\n(.*?)^\.fi$", text, re.M | re.S):
        block = re.sub(r"\\f[BIRP]", "", m.group(1))
        for a, b in ESCAPES:
            block = block.replace(a, b)
        yield block


def markdown_blocks(text):
    for m in re.finditer(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S):
        yield m.group(1)


def main():
    path, needle = sys.argv[1], sys.argv[2]
    text = open(path, encoding="utf-8").read()
    blocks = markdown_blocks(text) if path.endswith(".md") else troff_blocks(text)
    found = [b for b in blocks if needle in b]
    if len(found) != 1:
        print(f"{path}: {len(found)} blocks hold {needle!r}, expected one", file=sys.stderr)
        return 1
    sys.stdout.write(found[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
