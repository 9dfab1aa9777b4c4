"""What the suites that drive a live Rib House share (Tests/Attack,
Tests/Cluster): HTTP requests and their replies, a page's forms, and the
measurements table their `record` fixture fills.

Each suite's conftest.py puts this folder on sys.path. Standard library only.
"""
import html.parser
import http.client
import json
import re
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
