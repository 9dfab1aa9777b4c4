"""The cluster suite's plumbing: the cluster itself (started with the same
launcher as scripts/cluster, scripts/cluster.d/launch.py) and the
measurements table. Every test records what it measured with the `record`
fixture; the table is printed at the end of the run and written to
Tests/Cluster/artifacts/summary.txt (and summary.json).

It also puts Tests/Support on sys.path, for napkin_live (what this suite
shares with Tests/Attack)."""
import os
import pathlib
import shutil
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ARTIFACTS = HERE / "artifacts"
sys.path.insert(0, str(ROOT / "scripts" / "cluster.d"))
sys.path.insert(0, str(HERE.parent / "Support"))

import launch  # noqa: E402  (found through the paths above)
import napkin_live  # noqa: E402

BINARY = os.environ.get("RIBHOUSE_BINARY", "")
# The pit ticks every 200 ms here (2 s by default), so "the pit keeps
# ticking" is seen within a fraction of a second.
PIT_INTERVAL_MS = int(os.environ.get("RIBHOUSE_PIT_INTERVAL") or 200)

MEASUREMENTS = napkin_live.Measurements(ARTIFACTS, first_column="test", title="cluster measurements")


@pytest.fixture
def record(request):
    """record(metric, value, limit="", ok=None): one row of the summary table."""
    return MEASUREMENTS.recorder(request.node.name)


@pytest.fixture(scope="session")
def binary():
    if not BINARY or not os.access(BINARY, os.X_OK):
        pytest.exit("RIBHOUSE_BINARY names no executable; run the suite with Tests/Cluster/run", returncode=2)
    for tool in ("redis-server", "nginx"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            pytest.exit(f"{tool} is missing (scripts/setup --cluster installs it)", returncode=2)
    return BINARY


@pytest.fixture(scope="session")
def workdir():
    path = ARTIFACTS / "cluster"
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@pytest.fixture(scope="session")
def cluster(binary, workdir):
    """redis-server, two Rib House processes sharing it, nginx in front; all
    on free ports, logs under Tests/Cluster/artifacts/cluster/."""
    c = launch.Cluster(binary, 2, workdir=workdir / "main",
                       extra_args=["--pit-interval", str(PIT_INTERVAL_MS), "--new-session-timeout", "60"])
    # Each process serves /metrics on a loopback listener of its own (a
    # Prometheus scrapes them in test_metrics.py).
    for b in c.backends:
        b.metrics_port = launch.free_port()
        b.extra_args += ["--metrics-port", str(b.metrics_port)]
    try:
        c.start()
    except launch.LaunchError as error:
        pytest.exit(f"the cluster did not start: {error}", returncode=1)
    yield c
    c.stop()
    left = [p.name for p in c.processes() if p.alive()]
    assert not left, f"still running after the cluster stopped: {left}"


@pytest.fixture
def healthy(cluster):
    """The cluster as a test expects to find it: every process up (one an
    earlier test killed and left down is started again)."""
    if not cluster.nginx.alive():
        pytest.fail(f"nginx is not running ({cluster.nginx.describe_exit()}; log {cluster.nginx.error_log})")
    if cluster.redis and not cluster.redis.alive():
        cluster.redis.start()
    for b in cluster.backends:
        if not b.alive():
            b.start()
    return cluster


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    MEASUREMENTS.report(terminalreporter)
