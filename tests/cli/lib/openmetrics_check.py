#!/usr/bin/python3
"""Parse OpenMetrics text with the reference parser of python3-prometheus-client
(Debian's package): from stdin (openmetrics_check.py [LABEL]), or each FILE
apart (openmetrics_check.py --files FILE...: one interpreter for many
documents, the parser's import alone costs more than a document). Print the
error, named by LABEL or FILE, and exit 1 if the parser refuses a text; print
the number of families of each otherwise."""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families


def check(label, text):
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as e:  # the parser raises ValueError and others
        print(f"{label}: {e}")
        return False
    print(len(families))
    return True


if len(sys.argv) > 1 and sys.argv[1] == "--files":
    ok = True
    for name in sys.argv[2:]:
        with open(name, encoding="utf-8") as f:
            ok = check(name, f.read()) and ok
    sys.exit(0 if ok else 1)
sys.exit(0 if check(sys.argv[1] if len(sys.argv) > 1 else "stdin", sys.stdin.read()) else 1)
