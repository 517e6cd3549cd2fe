#!/usr/bin/env python3
"""Lists the distinct error responses a server gave during an RCK run.

Usage: errors.py REPORTS_DIR

REPORTS_DIR must come from a run with bodies logged:
  RCK_JAVA_OPTS=-Dorg.slf4j.simpleLogger.log.org.apache.hc.client5.http.wire=debug \\
    tests/conformance/run.sh --trace [--reference] --reports-dir DIR
Prints one line per distinct (request shape, code, type, message): the status, the ErrorModel
`type`, the route with names replaced by placeholders, the message (file locations shown as
<loc>), and the first test that saw it. Run it on a reference run and on a Firn run and diff.
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import OrderedDict

REQ = re.compile(r"headers - \S+ >> (GET|POST|PUT|HEAD|DELETE) (\S+)")
ERR = re.compile(r'wire - \S+ << "(\{"error".*)"$')
FIELDS = re.compile(r'"message":"(.*?)","type":"(\w+)","code":(\d+)')


def shape(path):
    path = re.sub(r"\?.*", "", path)
    path = re.sub(r"^/v1/[^/]+/(namespaces|tables|views)", r"/v1/\1", path)  # drop a prefix
    path = re.sub(r"/(tables|views)/[^/]+(/metrics)?$", r"/\1/{x}\2", path)
    return re.sub(r"/namespaces/[^/]+", "/namespaces/{ns}", path)


def main(reports_dir):
    seen = OrderedDict()
    for path in sorted(glob.glob(os.path.join(reports_dir, "TEST-*.xml"))):
        for case in ET.parse(path).getroot().iter("testcase"):
            cls = case.get("classname", "?").rsplit(".", 1)[-1].replace("RESTCompatibilityKit", "")
            text = "\n".join(n.text or "" for t in ("system-out", "system-err") for n in case.iter(t))
            req = None
            for line in text.splitlines():
                m = REQ.search(line)
                if m:
                    req = f"{m.group(1)} {shape(m.group(2))}"
                    continue
                m = ERR.search(line)
                f = FIELDS.search(m.group(1)) if m else None
                if f and req:
                    msg = re.sub(r"file:[^ \"]*", "<loc>", f.group(1))[:160]
                    key = (f.group(3), f.group(2), req, msg)
                    seen.setdefault(key, f"{cls}.{case.get('name')}")
    if not seen:
        print("no error bodies found: run with the wire logger on (see --help)", file=sys.stderr)
        return 1
    for (code, typ, req, msg), test in sorted(seen.items()):
        print(f"{code} {typ:30s} {req:48s} {msg}  [{test}]")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
