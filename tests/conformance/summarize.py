#!/usr/bin/env python3
"""Summarises the JUnit XML reports of an RCK run.

Usage: summarize.py REPORTS_DIR [EXPECTED_REPORTS_DIR]

Prints one pass/fail/skip line per test class, then each failing test with the first line of
its failure, then a closing line "rck: N passed, N failed, N skipped". Writes the first lines of
every failure's message and stack to REPORTS_DIR/failures.txt. Exit status: 1 if any test
failed or errored or if no test ran, else 0. With EXPECTED_REPORTS_DIR (a --trace run against
the reference fixture), failures.txt also shows the reference server's exchange for each
failing test: the requests and statuses the kit expected.
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import OrderedDict


def first_line(text):
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


HTTP_LINE = re.compile(r"(>> (GET|POST|PUT|HEAD|DELETE) \S+|<< HTTP/\S+ \d+.*)")


def http_exchange(case, limit=40):
    """Request/status lines logged by run.sh --trace (httpclient5 header log), last `limit`."""
    lines = []
    for tag in ("system-out", "system-err"):
        for node in case.iter(tag):
            for line in (node.text or "").splitlines():
                m = HTTP_LINE.search(line)
                if m:
                    lines.append("    " + m.group(1))
    return lines[-limit:]


def traced_cases(reports_dir):
    """(class, test) -> exchange lines, for every test case in a --trace run."""
    out = {}
    for path in sorted(glob.glob(os.path.join(reports_dir, "TEST-*.xml"))):
        for case in ET.parse(path).getroot().iter("testcase"):
            cls = case.get("classname", "?").rsplit(".", 1)[-1]
            out[(cls, case.get("name", "?"))] = http_exchange(case, limit=60)
    return out


def main(reports_dir, expected_dir=None):
    expected = traced_cases(expected_dir) if expected_dir else {}
    files = sorted(glob.glob(os.path.join(reports_dir, "TEST-*.xml")))
    if not files:
        print(f"rck: no JUnit XML reports in {reports_dir}")
        print("rck: 0 passed, 0 failed, 0 skipped")
        return 1
    classes = OrderedDict()  # class -> {"pass","fail","skip","time"}
    failures = []  # (class, test, first line, detail)
    for path in files:
        for case in ET.parse(path).getroot().iter("testcase"):
            cls = case.get("classname", "?").rsplit(".", 1)[-1]
            name = case.get("name", "?")
            c = classes.setdefault(cls, {"pass": 0, "fail": 0, "skip": 0, "time": 0.0})
            c["time"] += float(case.get("time") or 0)
            bad = case.find("failure")
            if bad is None:
                bad = case.find("error")
            if bad is not None:
                c["fail"] += 1
                msg = bad.get("message") or ""
                text = bad.text or ""
                line = first_line(msg) or first_line(text)
                detail = "\n".join((msg + "\n" + text).strip().splitlines()[:25])
                exchange = http_exchange(case)
                if exchange:
                    detail += "\n  HTTP exchange (last %d lines):\n" % len(exchange)
                    detail += "\n".join(exchange)
                ref = expected.get((cls, name))
                if ref:
                    detail += "\n  Reference server's exchange (what the kit expected):\n"
                    detail += "\n".join(ref)
                failures.append((cls, name, line, detail))
            elif case.find("skipped") is not None:
                c["skip"] += 1
            else:
                c["pass"] += 1

    for cls, c in classes.items():
        print(f"{cls}: {c['pass']} passed, {c['fail']} failed, {c['skip']} skipped "
              f"({c['time']:.1f}s)")
    if failures:
        print(f"\nFailing tests ({len(failures)}):")
        for cls, name, line, _ in failures:
            print(f"  {cls}.{name}: {line[:300]}")
    with open(os.path.join(reports_dir, "failures.txt"), "w") as out:
        for cls, name, _, detail in failures:
            out.write(f"=== {cls}.{name}\n{detail}\n\n")
    passed = sum(c["pass"] for c in classes.values())
    failed = sum(c["fail"] for c in classes.values())
    skipped = sum(c["skip"] for c in classes.values())
    print(f"rck: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or passed + failed == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
