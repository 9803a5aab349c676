#!/usr/bin/env python3
"""Check rocectl JSON documents (one per line, or one pretty document) against
the JSON style of CONTRIBUTING.md. Prints one line per violation; exit 1 if any.

usage: json_style.py NAME < documents
       json_style.py --files FILE...   (each: a first line naming it, then its documents)
"""
import json
import re
import sys

RFC3339_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
KEY = re.compile(r"^([a-z][a-z0-9_]*|\d+(\.\d+)?)$")
# Keys of the old styles: a unit spelled otherwise, or none where one is needed.
RETIRED = {"secs", "bs", "interval_s", "latency_us", "percentiles_ns", "iops", "mib_s",
           "avg_ns", "observed", "block_size", "bytes", "cpu_us_per_io", "bw_mib_s",
           "bw_gbit_s", "msg_rate_mpps", "output"}
# Units other than the style's: latencies in ns, durations in s.
BAD_SUFFIX = ("_us", "_ms", "_mib_s", "_gbit_s", "_mpps", "_kb", "_mb", "_secs", "_sec")

problems = []


def pairs(where):
    def hook(items):
        seen = set()
        for k, _ in items:
            if k in seen:
                problems.append(f"{where}: key '{k}' twice in one object")
            seen.add(k)
        return dict(items)
    return hook


def walk(v, path, where):
    if isinstance(v, dict):
        for k, x in v.items():
            if not KEY.match(k):
                problems.append(f"{where}: key '{path}.{k}' is not snake_case")
            if k in RETIRED:
                problems.append(f"{where}: key '{path}.{k}' is of the old style")
            if k.endswith(BAD_SUFFIX):
                problems.append(f"{where}: key '{path}.{k}' has a unit other than ns, s or bytes")
            walk(x, f"{path}.{k}", where)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, f"{path}[{i}]", where)
    elif v == "":
        problems.append(f"{where}: '{path}' is \"\" (null means unknown)")


def check(doc, where):
    if doc.get("schema_version") != 3:
        problems.append(f"{where}: schema_version is {doc.get('schema_version')!r}, not 3")
    keys = list(doc)
    if keys[:3] != ["schema_version", "hostname", "time"]:
        problems.append(f"{where}: starts with {keys[:3]}, not schema_version, hostname, time")
    if not isinstance(doc.get("hostname"), (str, type(None))):
        problems.append(f"{where}: hostname is not a string")
    if not RFC3339_UTC.match(str(doc.get("time"))):
        problems.append(f"{where}: time {doc.get('time')!r} is not RFC 3339 UTC")
    walk(doc, "", where)


def check_text(name, text):
    docs = [text] if text.lstrip().startswith("{\n") else [l for l in text.splitlines() if l.strip()]
    if not docs:
        problems.append(f"{name}: no JSON document")
    for i, d in enumerate(docs):
        where = name if len(docs) == 1 else f"{name} #{i + 1}"
        try:
            doc = json.loads(d, object_pairs_hook=pairs(where))
        except ValueError as e:
            problems.append(f"{where}: not JSON: {e}")
            continue
        check(doc, where)


def main():
    # --files FILE...: each file's first line names it, the rest is its
    # output, checked as stdin is: one interpreter for hundreds of documents.
    if len(sys.argv) > 1 and sys.argv[1] == "--files":
        for path in sys.argv[2:]:
            with open(path) as f:
                name, _, text = f.read().partition("\n")
            check_text(name, text)
    else:
        check_text(sys.argv[1] if len(sys.argv) > 1 else "stdin", sys.stdin.read())
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
