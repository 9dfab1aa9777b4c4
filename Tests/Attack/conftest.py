"""Measurements for the attack suite: every test records what it measured
with the `record` fixture; the table is printed at the end of the run and
written to Tests/Attack/artifacts/summary.txt (and summary.json).

It also puts Tests/Support on sys.path, for napkin_live (what this suite
shares with Tests/Cluster)."""
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ARTIFACTS = HERE / "artifacts"
sys.path.insert(0, str(HERE.parent / "Support"))

import napkin_live  # noqa: E402  (found through the path above)

MEASUREMENTS = napkin_live.Measurements(ARTIFACTS, first_column="attack", title="attack measurements")


@pytest.fixture
def record(request):
    """record(metric, value, limit="", ok=None): one row of the summary table."""
    return MEASUREMENTS.recorder(request.node.name)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    MEASUREMENTS.report(terminalreporter)
