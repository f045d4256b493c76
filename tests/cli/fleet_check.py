#!/usr/bin/env python3
# fleet_check.py: the fleet summary `show --format grid` prints after the machines' tables says what they say.
#
# usage: fleet_check.py GRID_OUTPUT [SUTS]
# Every line of every fleet table must carry its SUT class's base cell and change cell of that result
# class byte for byte, the interval must be the one --stats prints in that cell, and every (result
# class, SUT class) of the tables whose cell is a change (not a level: no base there) must have its
# line, once.  SUTS: how many SUT classes to expect.
import re
import sys


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse(text):
    """The machines' tables {(sut, rclass): [cells after Result Class]} and the fleet lines."""
    tables, fleet, where, sut = {}, [], None, None
    for line in text.splitlines():
        m = re.match(r"Results for SUT Class (.*):$", line)
        if m:
            where, sut = "table", m.group(1)
            continue
        if line.startswith("Fleet summary"):
            where = "fleet"
            continue
        if not line.startswith("| ") or "Result Class" in line:
            continue
        c = cells(line)
        if where == "table" and not c[1].startswith("geometric mean"):
            tables[(sut, c[1])] = c[2:]
        elif where == "fleet":
            fleet.append(c)
    return tables, fleet


def main():
    text = open(sys.argv[1]).read()
    stats = open(sys.argv[2]).read() if len(sys.argv) > 2 else None
    want_suts = int(sys.argv[3]) if len(sys.argv) > 3 else None
    tables, fleet = parse(text)
    st_tables = parse(stats)[0] if stats else {}
    assert fleet, "no fleet summary"
    seen, rclass = set(), None
    for c in fleet:
        rclass = c[0] or rclass
        sut, base, change, interval, verdict = c[1:6]
        key = (sut, rclass)
        assert key in tables, "fleet line %r has no table row" % (key,)
        assert key not in seen, "fleet line %r twice" % (key,)
        seen.add(key)
        assert tables[key][0] == base, (key, tables[key][0], base)
        assert tables[key][1] == change, (key, tables[key][1], change)
        if st_tables:
            # --stats prints "(I) +1.92% [+1.42, +2.42] at ...": the same interval, without its % signs
            assert "%s %s at " % (change, interval.replace("%", "")) in st_tables[key][1], (key, st_tables[key][1], interval)
        mark = change[:4]
        expect = {"(I) ": "improvement", "(R) ": "regression", "(?) ": "undecided", "(-) ": "insufficient"}
        assert verdict == expect.get(mark, verdict), (key, change, verdict)
    changes = {k for k, v in tables.items() if v[1].endswith("%")}
    assert seen == changes, "changes without a fleet line: %r" % (changes - seen)
    if want_suts is not None:
        assert len({s for s, _ in tables}) == want_suts, sorted({s for s, _ in tables})
    print("%d fleet lines agree with their tables" % len(seen))


main()
