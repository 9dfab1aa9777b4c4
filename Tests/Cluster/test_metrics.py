"""Metrics as an operator reads them: a real Prometheus (Debian's
`prometheus`) scrapes every Rib House process of the suite's cluster on its
loopback metrics listener, and its HTTP API reports each target up and
napkin series with non-zero values; `promtool check metrics` passes on what
each process serves.

Prometheus runs on a free port with a configuration written for the run
(scraping every half second), its data in a temporary directory; it is
stopped when the module ends. Every wait polls with a deadline.
"""
import json
import pathlib
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

import launch


def tool(name):
    found = shutil.which(name) or (f"/usr/bin/{name}" if pathlib.Path(f"/usr/bin/{name}").exists() else None)
    if not found:
        pytest.fail(f"{name} is missing (scripts/setup --cluster installs Debian's prometheus)")
    return found


def scrape(port):
    """The text one process serves at /metrics, and how long it took."""
    start = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        body = response.read()
        content_type = response.headers["Content-Type"]
    return body, content_type, time.monotonic() - start


@pytest.fixture(scope="module")
def prometheus(cluster, workdir):
    """Prometheus scraping every Rib House process of `cluster`; yields
    (its API base URL, the scraped targets)."""
    binary = tool("prometheus")
    port = launch.free_port()
    targets = [f"127.0.0.1:{b.metrics_port}" for b in cluster.backends]
    home = pathlib.Path(tempfile.mkdtemp(prefix="napkin-prometheus.", dir=workdir))
    config = home / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 500ms\n  scrape_timeout: 400ms\n"
        "scrape_configs:\n  - job_name: ribhouse\n    static_configs:\n"
        f"      - targets: {json.dumps(targets)}\n")
    log = open(home / "prometheus.log", "wb")
    process = subprocess.Popen(
        [binary, f"--config.file={config}", f"--storage.tsdb.path={home / 'data'}",
         f"--web.listen-address=127.0.0.1:{port}"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        def ready():
            try:
                with urllib.request.urlopen(f"{base}/-/ready", timeout=1) as response:
                    return response.status == 200
            except OSError:
                return False
        if not launch.wait_until(ready, 30):
            pytest.fail(f"prometheus did not get ready; log {home / 'prometheus.log'}:\n{launch.tail(home / 'prometheus.log')}")
        yield base, targets
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def query(base, expression):
    """The instant vector `expression` evaluates to: {instance: value}."""
    url = f"{base}/api/v1/query?" + urllib.parse.urlencode({"query": expression})
    with urllib.request.urlopen(url, timeout=5) as response:
        answer = json.load(response)
    assert answer["status"] == "success", answer
    return {r["metric"].get("instance", ""): float(r["value"][1]) for r in answer["data"]["result"]}


def test_prometheus_scrapes_every_process(healthy, prometheus, record):
    base, targets = prometheus
    # Traffic on every process, straight to each (nginx may pick either).
    for b in healthy.backends:
        for path in ("/", "/api/pit", "/no/such/page"):
            try:
                urllib.request.urlopen(f"http://{b.address}{path}", timeout=5).read()
            except urllib.error.HTTPError:
                pass
    start = time.monotonic()
    seen = {}

    def scraped():
        seen["up"] = query(base, 'up{job="ribhouse"}')
        seen["requests"] = query(base, 'sum by (instance) (napkin_http_requests_total{route="fallback"})')
        seen["not_found"] = query(base, 'sum by (instance) (napkin_http_requests_total{status="4xx"})')
        seen["memory"] = query(base, "process_resident_memory_bytes")
        return (all(seen["up"].get(t) == 1 for t in targets)
                and all(seen[k].get(t, 0) > 0 for k in ("requests", "not_found", "memory") for t in targets))

    ok = launch.wait_until(scraped, 30, every=0.25)
    record("every process up and counted", f"{time.monotonic() - start:.1f} s", "≤ 30 s", ok)
    assert ok, f"what Prometheus saw: {seen}"


def test_promtool_passes_on_every_process(healthy, record):
    promtool = tool("promtool")
    for b in healthy.backends:
        body, content_type, seconds = scrape(b.metrics_port)
        assert content_type.startswith("text/plain; version=0.0.4")
        checked = subprocess.run([promtool, "check", "metrics"], input=body, capture_output=True, timeout=30)
        problems = (checked.stdout + checked.stderr).decode(errors="replace").strip()
        record(f"{b.name} scrape", f"{len(body)} B in {seconds * 1000:.1f} ms", "promtool clean", checked.returncode == 0 and not problems)
        assert checked.returncode == 0 and not problems, problems


def test_every_process_exports_its_lags_and_presence(healthy):
    for b in healthy.backends:
        body, _, _ = scrape(b.metrics_port)
        for series in (b"napkin_http_loop_lag_seconds_count ", b"napkin_main_actor_lag_seconds_count ",
                       b"napkin_fanout_lag_seconds_count ", b'napkin_presence_entries{topic="diners"} '):
            assert series in body, f"{b.name} exports no {series.decode()}"


def test_app_port_serves_no_metrics_without_a_token(healthy):
    for b in healthy.backends:
        try:
            body = urllib.request.urlopen(f"http://{b.address}/metrics", timeout=5).read()
        except urllib.error.HTTPError as error:
            body = error.read()
        assert b"napkin_http_requests_total" not in body
