#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""html_report.py FILE|- : check a report of 'rocectl check|doctor -o html'
and print what it shows as one JSON document, for tests/cli/html.bats.

Fails (exit 1, one line a problem on stderr) when the page is not
self-contained and locked down: no Content-Security-Policy meta element with
default-src 'none'; a style-src other than the hash of its one <style>
element (the hash to put in lib/fleet_html.c is printed); a <script>, an
event handler attribute (on*), a style attribute; an href, src or xlink:href
that is not a fragment of the page itself (#...); any "url(" or "@import"
in the sheet. Parsed with Python's html.parser, as a browser tokenizes: an
injected tag would show up here as a tag.

The JSON: {"csp", "title", "hosts": [{"id", "host", "status", "cells":
{AREA: WORD}}], "switches": [{"key", "members": [{"host", "status",
"where"}]}], "findings": [{"section", "status", "id", "target", "fix"}],
"tags": [every tag name seen, once]}.
"""
import base64
import hashlib
import json
import re
import sys
from html.parser import HTMLParser


class Report(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.csp = None
        self.styles = []
        self.tags = set()
        self.title = ""
        self.hosts = []
        self.switches = []
        self.findings = []
        self.areas = []
        self.stack = []      # what text goes to
        self.text = None
        self.row = None      # the grid row or the finding being read
        self.section = None
        self.in_grid = False
        self.in_head_row = False
        self.member = None

    # ---- text capture ---------------------------------------------------
    def begin_text(self):
        self.text = ""

    def end_text(self):
        t, self.text = self.text, None
        return (t or "").strip()

    def handle_data(self, data):
        if self.text is not None:
            self.text += data

    # ---- tags -----------------------------------------------------------
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        self.check_attrs(tag, attrs)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = a.get("content")
        if tag in ("style", "title"):
            self.begin_text()
        if tag == "table" and a.get("class") == "grid":
            self.in_grid = True
        if self.in_grid and tag == "tr":
            if "id" in a:
                self.row = {"id": a["id"], "cells": [], "classes": []}
            else:
                self.in_head_row = True
        if self.in_grid and tag in ("td", "th"):
            if self.row is not None:
                self.row["classes"].append(a.get("class"))
            self.begin_text()
        if tag == "g" and a.get("class") == "switch":
            self.switches.append({"key": a.get("data-switch"), "members": []})
        if tag == "g" and a.get("class") == "member":
            self.member = {"host": a.get("data-host")}
            self.switches[-1]["members"].append(self.member)
        if tag == "rect" and self.member is not None and "host" in (a.get("class") or "").split():
            self.member["status"] = a["class"].split()[1]
        if tag == "text" and self.member is not None:
            self.begin_text()
        if tag == "section" and a.get("class") == "host":
            self.section = a.get("id")
        if tag == "tr" and a.get("class") == "finding":
            self.row = {"section": self.section, "cells": []}
        if tag == "td" and self.row is not None and "section" in self.row:
            self.begin_text()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in ("meta", "br", "rect", "line"):
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag == "style":
            self.styles.append(self.text or "")
            self.text = None
        elif tag == "title" and self.text is not None:
            t = self.end_text()
            if not self.title:
                self.title = t
        elif self.in_grid and tag in ("td", "th"):
            t = self.end_text()
            if self.in_head_row:
                self.areas.append(t)
            elif self.row is not None:
                self.row["cells"].append(t)
        elif self.in_grid and tag == "tr":
            if self.row is not None:
                self.grid_row()
            self.row = None
            self.in_head_row = False
        elif tag == "table" and self.in_grid:
            self.in_grid = False
        elif tag == "text" and self.member is not None and self.text is not None:
            t = self.end_text()
            self.member.setdefault("where", t)
        elif tag == "g" and self.member is not None:
            self.member = None
        elif tag == "td" and self.row is not None and "section" in self.row:
            self.row["cells"].append(self.end_text())
        elif tag == "tr" and self.row is not None and "section" in self.row:
            c = self.row["cells"]
            self.findings.append({"section": self.row["section"], "status": c[0], "id": c[1],
                                  "target": c[2], "message": c[3], "expected": c[4],
                                  "got": c[5], "evidence": c[6], "fix": c[7]})
            self.row = None

    def grid_row(self):
        head = self.areas
        cells = dict(zip(head, self.row["cells"]))
        first = head.index("status") + 1
        last = len(head) - 1
        self.hosts.append({"id": self.row["id"], "host": cells["host"], "status": cells["status"],
                           "cells": {h: cells[h] for h in head[first:last]}})

    def check_attrs(self, tag, attrs):
        if tag == "script":
            self.problems.append("a <script> element")
        for k, v in attrs:
            k = k.lower()
            if k.startswith("on"):
                self.problems.append(f"an event handler attribute {k} on <{tag}>")
            if k == "style":
                self.problems.append(f"a style attribute on <{tag}>")
            if k in ("href", "src", "xlink:href", "action", "formaction", "srcset", "poster",
                     "data", "background") and not (v or "").startswith("#"):
                self.problems.append(f"<{tag} {k}=\"{v}\">: not a fragment of the page")


def main():
    src = sys.stdin.buffer.read() if sys.argv[1] == "-" else open(sys.argv[1], "rb").read()
    page = src.decode("utf-8")       # the report is UTF-8: a decode error fails
    p = Report()
    p.feed(page)
    p.close()
    if not p.csp:
        p.problems.append("no Content-Security-Policy meta element")
    else:
        d = {x.split()[0]: x.split()[1:] for x in p.csp.split(";") if x.strip()}
        if d.get("default-src") != ["'none'"]:
            p.problems.append(f"default-src is not 'none': {p.csp}")
        if len(p.styles) != 1:
            p.problems.append(f"{len(p.styles)} <style> elements, not one")
        else:
            h = base64.b64encode(hashlib.sha256(p.styles[0].encode()).digest()).decode()
            if d.get("style-src") != [f"'sha256-{h}'"]:
                p.problems.append(f"style-src {d.get('style-src')} is not the sheet's hash: "
                                  f"rctl_html_css_hash in lib/fleet_html.c wants \"sha256-{h}\"")
        for k in d:
            if k not in ("default-src", "style-src", "base-uri", "form-action"):
                p.problems.append(f"CSP directive {k} beyond the four expected")
    for s in p.styles:
        if re.search(r"url\s*\(|@import", s, re.I):
            p.problems.append("the sheet loads something (url( or @import)")
    for x in p.problems:
        print(f"html_report: {x}", file=sys.stderr)
    json.dump({"csp": p.csp, "title": p.title, "hosts": p.hosts, "switches": p.switches,
               "findings": p.findings, "tags": sorted(p.tags)}, sys.stdout)
    print()
    return 1 if p.problems else 0


if __name__ == "__main__":
    sys.exit(main())
