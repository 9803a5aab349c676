#!/usr/bin/python3
"""Parse OpenMetrics text on stdin with the reference parser of
python3-prometheus-client (Debian's package); print the error and exit 1 if
it refuses the text, print the number of families otherwise."""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

try:
    families = list(text_string_to_metric_families(sys.stdin.read()))
except Exception as e:  # the parser raises ValueError and others
    print(f"{sys.argv[1] if len(sys.argv) > 1 else 'stdin'}: {e}")
    sys.exit(1)
print(len(families))
