"""Measurements for the attack suite: every test records what it measured
with the `record` fixture; the table is printed at the end of the run and
written to Tests/Attack/artifacts/summary.txt (and summary.json)."""
import json
import pathlib

import pytest

ARTIFACTS = pathlib.Path(__file__).resolve().parent / "artifacts"

# (test, metric, value, limit, verdict) in the order they were recorded.
RESULTS = []


@pytest.fixture
def record(request):
    """record(metric, value, limit="", ok=None): one row of the summary table."""
    test = request.node.name.removeprefix("test_")

    def add(metric, value, limit="", ok=None):
        verdict = "" if ok is None else ("ok" if ok else "FAIL")
        RESULTS.append((test, metric, str(value), str(limit), verdict))

    return add


def _table(rows):
    header = ("attack", "measurement", "value", "limit", "")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    out = [line(header), line(tuple("-" * w for w in widths))]
    previous = None
    for row in rows:
        out.append(line(("" if row[0] == previous else row[0], *row[1:])))
        previous = row[0]
    return "\n".join(out)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not RESULTS:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = _table(RESULTS)
    (ARTIFACTS / "summary.txt").write_text(table + "\n")
    (ARTIFACTS / "summary.json").write_text(json.dumps(
        [dict(zip(("attack", "measurement", "value", "limit", "verdict"), r)) for r in RESULTS], indent=1) + "\n")
    terminalreporter.section("attack measurements")
    terminalreporter.write_line(table)
    terminalreporter.write_line(f"(also in {ARTIFACTS / 'summary.txt'})")
