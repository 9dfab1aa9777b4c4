"""napkin's dashboard in the cluster: each process's dashboard (on its
loopback metrics listener) lists every process of the cluster, found through
the Redis bus, and a process killed with SIGKILL leaves the other's list."""
import re
import time
import urllib.request

import pytest

ROW = re.compile(r"<tr><th scope=\"row\">[^<]*(?: \(this one\))?</th><td>(\d+)</td>")


def processes(port):
    """The process ids a dashboard lists under the app's processes."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_napkin/dashboard", timeout=5) as response:
        page = response.read().decode()
    section = page.split('id="dash-processes"', 1)[1]
    return sorted(int(pid) for pid in ROW.findall(section))


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {timeout} s")
        time.sleep(0.2)


def test_every_dashboard_lists_the_clusters_processes(healthy, record):
    pids = sorted(b.pid for b in healthy.backends)
    for b in healthy.backends:
        wait_for(lambda: processes(b.metrics_port) == pids, 10, f"the dashboard on {b.metrics_port} did not list {pids}")
    record("processes each dashboard lists", len(pids), len(pids), True)

    victim, survivor = healthy.backends[0], healthy.backends[1]
    gone = victim.pid
    killed = time.monotonic()
    victim.kill()
    wait_for(lambda: gone not in processes(survivor.metrics_port), 10, "the killed process stayed on the other's list")
    record("a killed process left the other's list, s", f"{time.monotonic() - killed:.1f}", "< 10", True)
    victim.start()
