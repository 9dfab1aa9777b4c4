"""A rolling restart under load: every Rib House process replaced in turn
(scripts/cluster's roll, launch.Cluster.roll) while `wrk` loads pages through
nginx and hundreds of signed-in tabs follow their event streams.

What it must cost the users: nothing.

* `wrk`: no 5xx, no connection error, no timeout;
* every stream a draining process ends is told why (`event: drain`), comes
  back through nginx after the random delay napkin.js waits (another process
  brings its tab back, at its page) and is patched again within 5 s;
* no stream is ever answered "no session" (204), and afterwards every user
  is still signed in.

A tab here is a small asyncio client doing what napkin.js does on `drain`:
close, wait a random delay of up to the event's milliseconds, reconnect
with the last event id and the page's path. Tabs come from several local
addresses (127.0.0.2 …), as nginx allows 256 connections per address.

Run with Tests/Cluster/run -k rolling (needs wrk: scripts/setup --cluster).
"""
import asyncio
import os
import random
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest

from napkin_live import EventLines
from test_cluster import FromAddress, User, via_nginx

STREAMS = int(os.environ.get("ROLL_STREAMS") or 500)
SOURCES = [f"127.0.0.{i}" for i in range(2, 7)]
REPATCH_LIMIT = 5.0


class Tab:
    """One signed-in tab's stream, followed as napkin.js follows it."""

    def __init__(self, user, source):
        self.user, self.source = user, source
        self.path = user.page.stream_path
        self.last_event_id = user.page.event_id
        self.drained = False
        self.drained_at = None          # a drain event waiting for its first patch after
        self.repatched = []             # seconds from each drain event to the next patch
        self.patches = 0
        self.failures = []              # what went wrong, in words
        self.connected = False

    def target(self):
        params = []
        if self.last_event_id:
            params.append(("last-event-id", self.last_event_id))
        if self.drained:
            params.append(("path", self.user.path))
        return self.path + ("&" + urllib.parse.urlencode(params) if params else "")

    async def follow(self, host, port, stop):
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port, local_addr=(self.source, 0))
            except OSError as error:
                self.failures.append(f"connect: {error}")
                await asyncio.sleep(0.5)
                continue
            try:
                await self._read(reader, writer, host, port, stop)
            except (OSError, asyncio.IncompleteReadError, ValueError) as error:
                if not stop.is_set():
                    self.failures.append(f"read: {error!r}")
            finally:
                self.connected = False
                writer.close()

    async def _read(self, reader, writer, host, port, stop):
        # HTTP/1.0: nginx sends the stream as it comes and closes at its end.
        writer.write((f"GET {self.target()} HTTP/1.0\r\nHost: {host}:{port}\r\n"
                      f"Cookie: napkin_session={self.user.cookie}\r\nAccept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        status_line = await reader.readline()
        status = int(status_line.split()[1]) if status_line.startswith(b"HTTP/") else 0
        while (await reader.readline()).strip():
            pass
        if status != 200:
            self.failures.append(f"stream answered {status}" + (" (no session: signed out)" if status == 204 else ""))
            await asyncio.sleep(0.5)
            return
        self.connected = True
        lines = EventLines()
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                if not stop.is_set():
                    self.failures.append("the stream ended without a drain event")
                return
            done = lines.feed(line.decode("utf-8", "replace").rstrip("\r\n"))
            if not done:
                continue
            event, data, event_id = done
            if event == "patch":
                self.patches += 1
                if event_id:
                    self.last_event_id = event_id
                if self.drained_at is not None:
                    self.repatched.append(time.monotonic() - self.drained_at)
                    self.drained_at = None
            elif event == "drain":
                self.drained = True
                if self.drained_at is None:
                    self.drained_at = time.monotonic()
                spread = int(data or "0") / 1000
                self.connected = False
                writer.close()
                await asyncio.sleep(random.random() * spread)
                return
            elif event == "end":
                self.failures.append(f"event: end ({data})")


def run_tabs(tabs, host, port, stop, started):
    async def main():
        tasks = [asyncio.create_task(t.follow(host, port, stop)) for t in tabs]
        started.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


def wrk_summary(text):
    """Requests, non-2xx/3xx answers and socket errors from wrk's report."""
    requests = re.search(r"(\d+) requests in", text)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    return (int(requests.group(1)) if requests else 0, int(bad.group(1)) if bad else 0,
            sum(int(n) for n in errors.groups()) if errors else 0)


def failed_answers(access_log, most=20):
    """The first lines of nginx's access log that answer wrk (127.0.0.1's
    `GET /`) with neither 2xx nor 3xx: which process answered, and what."""
    failed = re.compile(r'^127\.0\.0\.1 .*"GET / HTTP/1\.1" (?!499)[45]\d\d ')
    with open(access_log, errors="replace") as log:
        lines = [line for line in log if failed.match(line)]
    return "".join(lines[:most]) or "(none logged)\n"


def test_rolling_restart_under_load(healthy, record):
    cluster = healthy
    wrk = shutil.which("wrk")
    if not wrk:
        pytest.fail("wrk is missing (scripts/setup --cluster installs it)")
    nginx = via_nginx(cluster)
    origin = cluster.public_origin

    # Signed-in users, one tab each, from several addresses.
    def signed_in(i):
        source = SOURCES[i % len(SOURCES)]
        user = User(FromAddress("nginx", cluster.url, source), f"Roller {i}", origin).sign_in()
        return Tab(user, source)

    started = time.monotonic()
    with ThreadPoolExecutor(16) as pool:
        tabs = list(pool.map(signed_in, range(STREAMS)))
    record("users signed in", f"{len(tabs)} in {time.monotonic() - started:.1f}s", str(STREAMS), len(tabs) == STREAMS)

    stop, tabs_started = threading.Event(), threading.Event()
    follower = threading.Thread(target=run_tabs, args=(tabs, nginx.host, nginx.port, stop, tabs_started), daemon=True)
    follower.start()
    tabs_started.wait(10)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and sum(t.patches > 0 for t in tabs) < len(tabs):
        time.sleep(0.1)
    assert all(t.patches > 0 for t in tabs), \
        f"{sum(t.patches == 0 for t in tabs)} streams were never patched: {[t.failures for t in tabs][:3]}"

    # Pages under wrk, as one more signed-in user, for as long as the roll takes.
    pager = User(nginx, "Roller wrk", origin).sign_in()
    load = subprocess.Popen([wrk, "-t1", "-c16", "-d120s", "--timeout", "10s", "-H",
                             f"Cookie: napkin_session={pager.cookie}", f"{cluster.url}/"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(1)  # wrk is under way before the first process leaves
        rolled = time.monotonic()
        steps = []
        cluster.roll(log=steps.append)
        roll_seconds = time.monotonic() - rolled
        time.sleep(1)
    finally:
        load.send_signal(signal.SIGINT)
        report, _ = load.communicate(timeout=30)
    requests, bad, errors = wrk_summary(report)

    # Every drained stream is followed by a patch; wait for the last ones.
    deadline = time.monotonic() + REPATCH_LIMIT + 2
    while time.monotonic() < deadline and any(t.drained_at is not None or not t.connected for t in tabs):
        time.sleep(0.1)
    stop.set()
    follower.join(15)

    record("rolling restart", f"{roll_seconds:.1f}s", "", True)
    for step in steps:
        record("  step", step, "", True)
    record("wrk page requests during the roll", requests, "> 0", requests > 0)
    record("wrk non-2xx/3xx answers", bad, "0", bad == 0)
    record("wrk socket errors", errors, "0", errors == 0)
    assert requests > 0, f"wrk made no request:\n{report}"
    assert bad == 0 and errors == 0, \
        f"failed requests during the roll:\n{report}\nnginx's failed answers:\n" + failed_answers(cluster.nginx.access_log)

    drains = [s for t in tabs for s in t.repatched]
    waiting = [t for t in tabs if t.drained_at is not None]
    never = [t for t in tabs if not t.drained]
    worst = max(drains) if drains else 0
    record("streams told to drain, then patched again", f"{len(drains)} (worst {worst:.2f}s)",
           f"every one ≤ {REPATCH_LIMIT:.0f}s", not waiting and worst <= REPATCH_LIMIT)
    assert not never, f"{len(never)} streams were never drained, though every process was restarted"
    assert not waiting, f"{len(waiting)} drained streams were not patched again"
    assert worst <= REPATCH_LIMIT, f"a stream took {worst:.2f}s from its drain event to its next patch"
    failures = [f for t in tabs for f in t.failures]
    record("stream failures (non-200, ends without drain, errors)", len(failures), "0", not failures)
    assert not failures, f"{len(failures)} stream failures, e.g. {failures[:5]}"

    # Still signed in, every one of them.
    def still_signed_in(tab):
        return tab.user.get("/").signed_in_as() == tab.user.name

    with ThreadPoolExecutor(16) as pool:
        signed_in_after = sum(pool.map(still_signed_in, tabs))
    record("users still signed in after the roll", signed_in_after, str(len(tabs)), signed_in_after == len(tabs))
    assert signed_in_after == len(tabs), f"{len(tabs) - signed_in_after} users were signed out"
