"""Rib House at the edges of HTTP/1.1: request heads that libmicrohttpd
0.9.75 would serve, misframe or drop, and clients that trickle their heads.

Each test sends raw bytes and reads exactly what comes back on the wire.
Run with Tests/Attack/run (which sets RIBHOUSE_URL and RIBHOUSE_PID), e.g.
`Tests/Attack/run .build/release/RibHouse -k http_edges`. Standard library only.
"""
import re
import resource
import selectors
import socket
import statistics
import time

import pytest

from test_attacks import Prober, server, source_ip  # noqa: F401  (server: the suite's fixture)

# What napkin puts on every answer of an app (SecurityHeaders).
SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options")
# ServerConfiguration.requestHeadTimeout's default.
HEAD_DEADLINE_S = 10


def exchange(server, data, timeout=3.0, half_close=False):
    """Sends `data` on a fresh connection and reads until the server closes or
    `timeout` passes: (every byte that came, whether the server closed)."""
    s = socket.create_connection((server.host, server.port), timeout=timeout)
    try:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        out, closed = b"", False
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            out += chunk
        return out, closed
    finally:
        s.close()


def answers(data):
    """The status lines in what came back: one per answer sent."""
    return re.findall(rb"HTTP/1\.[01] (\d{3})", data)


def head_fields(data):
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {line.split(":", 1)[0].strip().lower() for line in head if ":" in line}


def well_formed(data, status):
    """One answer with `status`, a Content-Type and napkin's security headers; what is missing."""
    problems = []
    statuses = answers(data)
    if statuses != [str(status).encode()]:
        problems.append(f"status lines {statuses} (wanted one {status})")
    fields = head_fields(data)
    for name in ("Content-Type",) + SECURITY_HEADERS:
        if name.lower() not in fields:
            problems.append(f"no {name}")
    return problems


REFUSED_HEADS = [
    ("Content-Length with Transfer-Encoding, then a pipelined GET",
     b"POST /api/announcements HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"0\r\n\r\nGET /api/menu HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("Transfer-Encoding: gzip", b"POST /api/announcements HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc", 501),
    ("HTTP/1.1 without Host", b"GET /api/menu HTTP/1.1\r\n\r\n", 400),
    ("two Host fields", b"GET /api/menu HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    ("a body past the 1 MiB limit announced", b"POST /api/announcements HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     b"Content-Length: 99000000\r\n\r\n", 413),
]


@pytest.mark.parametrize("what,data,status", REFUSED_HEADS, ids=[c[0] for c in REFUSED_HEADS])
def test_edges_01_refused_heads(server, record, what, data, status):
    start = time.perf_counter()
    out, closed = exchange(server, data)
    seconds = time.perf_counter() - start
    problems = well_formed(out, status)
    if not closed:
        problems.append("the connection stayed open")
    record(f"{what}: answers, seconds", f"{[s.decode() for s in answers(out)]}, {seconds:.2f}",
           f"one {status}, closed, headers", not problems)
    assert not problems, f"{what}: {problems}; got {out[:300]!r}"


def test_edges_02_heads_near_the_pool_limit(server, record):
    silent, counts = [], {}
    for size in list(range(6000, 8100, 100)) + [7940, 7990, 8040, 8060]:
        for kind in ("header", "url"):
            if kind == "header":
                start = b"GET /api/menu HTTP/1.1\r\nHost: x\r\nX-Pad: "
                data = start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"
            else:
                start, tail = b"GET /api/menu?", b" HTTP/1.1\r\nHost: x\r\n\r\n"
                data = start + b"a" * (size - len(start) - len(tail)) + tail
            out, _ = exchange(server, data, timeout=3.0)
            statuses = answers(out)
            key = statuses[0].decode() if len(statuses) == 1 else f"{len(statuses)} answers"
            counts[key] = counts.get(key, 0) + 1
            if len(statuses) != 1 or statuses[0] not in (b"200", b"431"):
                silent.append(f"{kind} {size}: {statuses}")
    record("heads of 6,000-8,060 bytes: answers", ", ".join(f"{k}×{v}" for k, v in sorted(counts.items())),
           "each one 200 or 431", not silent)
    assert not silent, f"heads answered otherwise than once with 200 or 431: {silent}"


LIBMICROHTTPD_ERRORS = [
    ("Content-Length: abc", b"GET /api/menu HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
    ("a 7 KB cookie", b"GET /api/menu HTTP/1.1\r\nHost: x\r\nCookie: a=" + b"b" * 7000 + b"\r\n\r\n", 431),
    ("HTTP/2.0 on the request line", b"GET /api/menu HTTP/2.0\r\nHost: x\r\n\r\n", 505),
    ("a header line without a colon", b"GET /api/menu HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400),
    ("a 20 KB URL", b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
]


@pytest.mark.xfail(strict=True, reason="libmicrohttpd 0.9.75 answers these itself, before any napkin callback: "
                                       "no Content-Type or security headers, and the header block twice for a bad "
                                       "Content-Length or a cookie past the pool")
@pytest.mark.parametrize("what,data,status", LIBMICROHTTPD_ERRORS, ids=[c[0] for c in LIBMICROHTTPD_ERRORS])
def test_edges_03_errors_libmicrohttpd_makes(server, record, what, data, status):
    out, _ = exchange(server, data)
    problems = well_formed(out, status)
    record(f"{what}: answers", f"{[s.decode() for s in answers(out)]}; {', '.join(problems) or 'ok'}",
           f"one {status} with headers", not problems)
    assert not problems, f"{what}: {problems}"


def test_edges_04_trickled_heads(server, record):
    """Connections that send their head a byte a second, from many addresses:
    each is closed at the head deadline, and others are answered meanwhile."""
    count, addresses = 2000, 100
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 512)), hard))
    head = b"GET /api/menu HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    selector = selectors.DefaultSelector()
    socks, opened, closed_after, connect_errors = [], {}, {}, 0
    try:
        for i in range(count):
            s = socket.socket()
            s.bind((f"127.1.{i % addresses // 250}.{1 + i % addresses % 250}", 0))
            s.settimeout(5)
            try:
                s.connect((server.host, server.port))
            except OSError:
                connect_errors += 1
                s.close()
                continue
            s.setblocking(False)
            socks.append(s)
            opened[s] = time.monotonic()
            selector.register(s, selectors.EVENT_READ)
        sent = {s: 0 for s in socks}
        with Prober(server) as menu:
            end = time.monotonic() + HEAD_DEADLINE_S + 4
            next_byte = time.monotonic()
            while time.monotonic() < end and len(closed_after) < len(socks):
                if time.monotonic() >= next_byte:
                    for s in socks:
                        if s in closed_after or sent[s] >= len(head):
                            continue
                        try:
                            sent[s] += s.send(head[sent[s]:sent[s] + 1])
                        except OSError:
                            closed_after[s] = time.monotonic() - opened[s]
                            selector.unregister(s)
                    next_byte += 1.0
                for key, _ in selector.select(timeout=0.05):
                    s = key.fileobj
                    try:
                        data = s.recv(4096)
                    except OSError:
                        data = b""
                    if not data:
                        closed_after[s] = time.monotonic() - opened[s]
                        selector.unregister(s)
    finally:
        selector.close()
        for s in socks:
            s.close()
    cut = sorted(closed_after.values())
    record("trickling connections (a byte a second)", f"{len(socks)} from {addresses} addresses",
           f"{count}", len(socks) == count)
    record(f"closed by the server within {HEAD_DEADLINE_S + 4} s", len(cut), len(socks), len(cut) == len(socks))
    if cut:
        record("seconds until closed", f"median {statistics.median(cut):.1f}, max {cut[-1]:.1f}",
               f"<= {HEAD_DEADLINE_S + 2}", cut[-1] <= HEAD_DEADLINE_S + 2)
    record("GET /api/menu from elsewhere meanwhile, ms", menu.describe(), "max < 1000", menu.worst_ms < 1000)
    assert connect_errors == 0, f"{connect_errors} trickling connections could not connect"
    assert len(cut) == len(socks), f"{len(socks) - len(cut)} trickling connections were still open after " \
                                   f"{HEAD_DEADLINE_S + 4} s"
    assert cut[-1] <= HEAD_DEADLINE_S + 2, f"the last trickling connection was closed after {cut[-1]:.1f} s"
    assert menu.times and menu.worst_ms < 1000, f"GET /api/menu during the trickle: {menu.describe()}"
    assert server.alive(), "the server died during the trickle"
