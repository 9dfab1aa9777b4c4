"""What the suites that drive a live Rib House share (Tests/Attack,
Tests/Cluster): HTTP requests and their replies, raw socket reads, a page's
forms, an open tab's event stream read in the background, and the
measurements table their `record` fixture fills.

Each suite's conftest.py puts this folder on sys.path. Standard library only.
"""
import html.parser
import http.client
import json
import re
import socket
import threading
import time
import urllib.parse


# MARK: - HTTP


class Reply:
    def __init__(self, status, headers, body, seconds):
        self.status, self.headers, self.body, self.seconds = status, headers, body, seconds

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")

    def cookie(self, name="napkin_session"):
        for value in self.headers.get_all("Set-Cookie") or []:
            m = re.match(rf"\s*{name}=([^;]*)", value)
            if m:
                return m.group(1)
        return None

    def json(self):
        return json.loads(self.body)


class HTTPTarget:
    """Where requests go, by its URL: a fresh connection each request (from
    `source`, a local address, when one is named), the reply read whole and timed."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.url, self.host, self.port = url.rstrip("/"), parts.hostname, parts.port

    def connection(self, source=None, timeout=10):
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout,
                                          source_address=(source, 0) if source else None)

    def request(self, method, path, headers=None, body=None, source=None, timeout=10):
        conn = self.connection(source, timeout)
        try:
            start = time.perf_counter()
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            data = resp.read()
            return Reply(resp.status, resp.headers, data, time.perf_counter() - start)
        finally:
            conn.close()


def recv_until(sock, marker, size=4096):
    """Reads from `sock` until what came holds `marker` or the peer closes:
    (what came, None), or (what came before it, the OSError) when a read fails."""
    data = b""
    try:
        while marker not in data:
            chunk = sock.recv(size)
            if not chunk:
                break
            data += chunk
    except OSError as error:
        return data, error
    return data, None


# MARK: - Pages


class FormFinder(html.parser.HTMLParser):
    """Every <form> with its fields, as a browser would submit them, and the <body>'s data attributes."""

    def __init__(self):
        super().__init__()
        self.forms, self.body, self._form = [], {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body = attrs
        elif tag == "form":
            self._form = {"attrs": attrs, "fields": {}}
        elif tag == "input" and self._form is not None and attrs.get("name"):
            self._form["fields"][attrs["name"]] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None


# MARK: - Event streams


class EventLines:
    """Puts the lines of a text/event-stream together into events: `feed`
    takes one line (its line break removed) and returns (event, data, id)
    at the blank line that ends an event (`event` "message" when the frame
    names none, its `data:` lines joined, `id` None when it has none), else
    None. Comments are skipped."""

    def __init__(self):
        self.event, self.data, self.event_id = None, [], None

    def feed(self, line):
        if not line:
            done = (self.event or "message", "\n".join(self.data), self.event_id) \
                if self.event is not None or self.data else None
            self.event, self.data, self.event_id = None, [], None
            return done
        if not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                self.event = value
            elif field == "data":
                self.data.append(value)
            elif field == "id":
                self.event_id = value
        return None


def read_events(resp):
    """The events of a text/event-stream response as it comes, each
    (event, data, id), as EventLines puts them together."""
    lines = EventLines()
    while True:
        line = resp.readline()
        if not line:
            return
        done = lines.feed(line.rstrip(b"\r\n").decode("utf-8", "replace"))
        if done:
            yield done


class EventStream:
    """One `GET path` of an event stream on `conn` with the session's cookie
    (and Last-Event-ID when given), read in a background thread: counts
    `event: patch` frames (`patch_count`) and remembers an `event: end`'s
    data. A subclass keeps more of each event in `_keep`. `closed` once the
    stream has ended (at `closed_at`), with `error` if reading it failed; a
    status other than 200 is closed at once, its body in `body`."""

    def __init__(self, conn, path, cookie, last_event_id=None):
        self.patch_count = 0
        self.end_data = None
        self.closed = False
        self.closed_at = None
        self.error = None
        self._cond = threading.Condition()
        self._conn = conn
        headers = {"Cookie": f"napkin_session={cookie}", "Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if last_event_id:
            headers["Last-Event-ID"] = str(last_event_id)
        self._conn.request("GET", path, headers=headers)
        self._resp = self._conn.getresponse()
        self.status = self._resp.status
        self.content_type = self._resp.getheader("Content-Type", "")
        if self.status != 200:
            self.body = self._resp.read()
            self._finish()
            self._conn.close()
            return
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for event, data, event_id in read_events(self._resp):
                self._dispatch(event, data, event_id)
        except Exception as error:  # closed under us, or timed out
            self.error = error
        finally:
            self._finish()

    def _finish(self):
        with self._cond:
            self.closed = True
            self.closed_at = time.monotonic()
            self._cond.notify_all()

    def _dispatch(self, event, data, event_id):
        with self._cond:
            self._keep(event, data, event_id)
            if event == "patch":
                self.patch_count += 1
            elif event == "end":
                self.end_data = data
            self._cond.notify_all()

    def _keep(self, event, data, event_id):
        """What a subclass keeps of each event; called with the lock held."""

    def wait_patches(self, count, timeout):
        """Waits for `count` more patches; returns how many came."""
        with self._cond:
            start = self.patch_count
            self._cond.wait_for(lambda: self.patch_count >= start + count or self.closed, timeout)
            return self.patch_count - start

    def wait_closed(self, timeout):
        with self._cond:
            self._cond.wait_for(lambda: self.closed, timeout)
            return self.closed

    def close(self):
        try:
            if self._conn.sock:
                self._conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._conn.close()


# MARK: - Measurements


class Measurements:
    """The rows a suite's tests record, (test, metric, value, limit, verdict)
    in the order they were recorded; at the end of the run, a table printed
    under `title` and written to `artifacts`/summary.txt (and summary.json).
    `first_column` heads the column that names the test."""

    def __init__(self, artifacts, first_column, title):
        self.artifacts, self.first_column, self.title = artifacts, first_column, title
        self.rows = []

    def recorder(self, test_name):
        """record(metric, value, limit="", ok=None): one row of the summary table."""
        test = test_name.removeprefix("test_")

        def add(metric, value, limit="", ok=None):
            verdict = "" if ok is None else ("ok" if ok else "FAIL")
            self.rows.append((test, metric, str(value), str(limit), verdict))

        return add

    def table(self):
        rows = self.rows
        header = (self.first_column, "measurement", "value", "limit", "")
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
        line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
        out = [line(header), line(tuple("-" * w for w in widths))]
        previous = None
        for row in rows:
            out.append(line(("" if row[0] == previous else row[0], *row[1:])))
            previous = row[0]
        return "\n".join(out)

    def report(self, terminalreporter):
        """Writes the table to the artifacts and prints it (pytest_terminal_summary); nothing if no rows."""
        if not self.rows:
            return
        self.artifacts.mkdir(parents=True, exist_ok=True)
        table = self.table()
        (self.artifacts / "summary.txt").write_text(table + "\n")
        (self.artifacts / "summary.json").write_text(json.dumps(
            [dict(zip((self.first_column, "measurement", "value", "limit", "verdict"), r)) for r in self.rows],
            indent=1) + "\n")
        terminalreporter.section(self.title)
        terminalreporter.write_line(table)
        terminalreporter.write_line(f"(also in {self.artifacts / 'summary.txt'})")
