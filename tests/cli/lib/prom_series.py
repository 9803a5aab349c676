#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""promtool test rules input_series from rocectl's own Prometheus output.

prom_series.py [--before FILE] [--interval SECS] [--steps N] [--t0 SECS] [--labels L] AFTER

AFTER is what rocectl wrote (-o prometheus); BEFORE, when given, what it wrote
for the sample INTERVAL seconds earlier. Each sample of AFTER becomes a series
of N+1 values one minute apart: starting at its BEFORE value and growing by
its change over the interval, scaled to a minute; a gauge (a family not
ending in _total) or a series with no BEFORE stays at its AFTER value. T0,
the wall-clock time of the run, is subtracted from the *_timestamp_seconds
gauges: the run happened at the test's time 0. L adds labels, as a scrape
adds instance and job. Prints YAML for the input_series of a promtool test.
"""
import argparse
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$')


def samples(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            m = SAMPLE.match(line)
            if not m:
                sys.exit(f'prom_series: not a sample line: {line!r}')
            out[(m.group(1), m.group(2) or '')] = float(m.group(3))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--before')
    ap.add_argument('--interval', type=float, default=60)
    ap.add_argument('--steps', type=int, default=15)
    ap.add_argument('--labels', default='')
    ap.add_argument('--t0', type=float, default=0)
    ap.add_argument('after')
    a = ap.parse_args()
    after = samples(a.after)
    before = samples(a.before) if a.before else {}
    for (name, labels), v1 in after.items():
        v0 = before.get((name, labels), v1) if name.endswith('_total') else v1
        if name.endswith('_timestamp_seconds'):
            v0 = v1 = v1 - a.t0
        step = (v1 - v0) * 60 / a.interval
        inner = labels[1:-1] if labels else ''
        lab = ','.join(x for x in (inner, a.labels) if x)
        series = f'{name}{{{lab}}}' if lab else name
        # YAML's single-quoted scalar: a quote in a label value is doubled
        quoted = series.replace("'", "''")
        print(f"      - series: '{quoted}'")
        print(f"        values: '{v0!r}{'+' if step >= 0 else ''}{step!r}x{a.steps}'")


if __name__ == '__main__':
    main()
