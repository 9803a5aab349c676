#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Find man-page source lines that render words run together.

groff's alternating font macros (.BR, .IR, .RB, .RI, .BI, .IB) join their
arguments with no space, so ".BR got . On error" renders "got.Onerror"; the
joining macros (.B, .I) take a quote only at the start of an argument, so
'.B "error": {...}' renders the quotes oddly. A linter that reads the source
as text misses both; this reads the arguments as groff does (groff(7),
"Request and macro arguments") and names each file:line.
"""
import re
import sys

ALTERNATING = {"BR", "RB", "IR", "RI", "BI", "IB"}
JOINING = {"B", "I", "SM", "SB"}


def args_of(rest):
    """The arguments of a macro line, as groff splits them; None if a quote is misplaced."""
    out, i, n = [], 0, len(rest)
    while i < n:
        while i < n and rest[i] == " ":
            i += 1
        if i >= n:
            break
        if rest[i] == '"':
            i += 1
            a = ""
            while i < n:
                if rest[i] == '"':
                    if i + 1 < n and rest[i + 1] == '"':
                        a += '"'
                        i += 2
                        continue
                    i += 1
                    break
                a += rest[i]
                i += 1
            if i < n and rest[i] != " ":
                return None  # text glued to a closing quote: '"error":'
            out.append(a)
        else:
            j = rest.find(" ", i)
            j = n if j < 0 else j
            a = rest[i:j]
            if '"' in a:
                return None  # a quote inside a word is printed as is
            out.append(a)
            i = j
    return out


def plain(a):
    return re.sub(r"\\f[BIRP]|\\f\[[A-Z]*\]|\\&", "", a)


def word_end(a):
    """Punctuation that a sentence goes on from: ".BR i th" is a deliberate join, ". On" is not."""
    a = plain(a)
    return bool(a) and a[-1] in ".,;:!?)"


def word_start(a):
    a = plain(a)
    return bool(a) and (a[0].isalnum() or a.startswith("\\-") or a.startswith("\\("))


def check(path):
    bad = []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            m = re.match(r"^\.([A-Z]{1,2})(?: (.*))?$", line.rstrip("\n"))
            if not m or m.group(2) is None:
                continue
            mac, rest = m.group(1), m.group(2)
            if mac not in ALTERNATING and mac not in JOINING:
                continue
            args = args_of(rest)
            if args is None:
                bad.append(f"{path}:{no}: misplaced quote in .{mac}: {rest}")
                continue
            if mac in ALTERNATING:
                for a, b in zip(args, args[1:]):
                    if word_end(a) and word_start(b):
                        bad.append(f"{path}:{no}: .{mac} runs '{plain(a)}' and '{plain(b)}' together")
                        break
    return bad


def main():
    bad = [b for p in sys.argv[1:] for b in check(p)]
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
