"""Rib House as deployed: two processes sharing one Redis, behind nginx.

The cluster is the one scripts/cluster starts (conftest.py starts it with
the same launcher, scripts/cluster.d/launch.py, and the same nginx.conf
template) on free ports. A user here is a browser without JavaScript's
conveniences: it keeps its cookie, the page it was shown and that page's
tab, and reconnects its event stream as napkin.js does (a tab the process
does not hold answers 410; a live navigation naming the tab brings it back).

What the issue asks of a deployment, one test each:

* a process killed under a user (kill -9) goes unnoticed: the next page is
  still signed in, the tab's stream comes back and catches up, and a form
  the dead process rendered still posts;
* every process restarted: users are still signed in, old forms still post;
* an announcement posted to one process reaches tabs streaming from another;
* every process shows the same pit, and it keeps ticking when the process
  holding the pit's lease dies;
* Redis stopped: clear 503s for what needs a session, the rest served; Redis
  back: normal service (a new sign-in; Redis here keeps nothing on disk, so
  the sessions it held are gone);
* no Redis at all, one process: everything as before;
* nginx, as configured: event streams unbuffered, a GET passed to the next
  process when one fails, a POST never sent twice;
* a sign-out or sign-in on one process shows on every other;
* "In the house now": a diner whose only tab is on a process killed with
  kill -9 leaves the other process's list within 5 s, while a diner with a
  tab on each process stays;
* and hundreds of tabs through nginx on one process: marked as expected to
  fail until Rib House lifts its per-address connection limit for its proxy
  (the mark says why).

Run it with Tests/Cluster/run (RIBHOUSE_BINARY names the release build).
Standard library only. Every wait polls with a deadline.
"""
import html
import http.client
import json
import re
import signal
import socket
import threading
import time
import urllib.parse
import uuid

import pytest

import launch
# Tests/Support, on the path conftest.py sets.
from napkin_live import EventStream, FormFinder, HTTPTarget, recv_until

NAME = "Cluster Pitmaster"
BADGE_RE = re.compile(r'<span class="name">([^<]*)</span>')
UNAVAILABLE = "Sessions are unavailable right now. Try again in a moment."


def badge(name):
    return f'<span class="name">{html.escape(name)}</span>'


# MARK: - HTTP


class Endpoint(HTTPTarget):
    """Where requests go: nginx, or one Rib House process directly."""

    def __init__(self, name, url):
        super().__init__(url)
        self.name = name

    def __repr__(self):
        return f"{self.name} ({self.url})"


class FromAddress(Endpoint):
    """An endpoint reached from local address `source` (any 127.0.0.x is
    this machine): nginx sees another client."""

    def __init__(self, name, url, source):
        super().__init__(name, url)
        self.source = source

    def connection(self, source=None, timeout=10):
        return super().connection(source or self.source, timeout)


def via_nginx(cluster):
    return Endpoint("nginx", cluster.url)


def direct(backend):
    return Endpoint(backend.name, backend.url or f"http://{backend.address}")


def poll(predicate, timeout, every=0.05):
    """predicate() until truthy (returned, with the seconds it took) or `timeout`: (None, timeout)."""
    start = time.monotonic()
    while True:
        try:
            value = predicate()
        except (OSError, http.client.HTTPException):
            value = None
        waited = time.monotonic() - start
        if value:
            return value, waited
        if waited >= timeout:
            return None, waited
        time.sleep(every)


# MARK: - Pages and forms


class Page:
    def __init__(self, text):
        self.text = text
        finder = FormFinder()
        finder.feed(text)
        self.forms, self.body = finder.forms, finder.body

    @property
    def tab(self):
        return self.body.get("data-napkin-tab")

    @property
    def stream_path(self):
        return self.body.get("data-napkin-stream")

    @property
    def event_id(self):
        return self.body.get("data-napkin-event-id")

    def form(self, action):
        for form in self.forms:
            if form["fields"].get("_action") == action:
                return form
        return None

    def signed_in_as(self):
        m = BADGE_RE.search(self.text)
        return html.unescape(m.group(1)) if m else None


# MARK: - The user's open tab


class Stream(EventStream):
    """One `GET /_napkin/events?tab=…`, read in a background thread: every
    `event: patch` (its id and decoded data) and an `event: end`."""

    def __init__(self, endpoint, cookie, path, last_event_id=None, timeout=120):
        self.endpoint, self.path = endpoint, path
        self.patches = []          # (id, {"id": fragment, "html": …}, monotonic time)
        super().__init__(endpoint.connection(timeout=timeout), path, cookie, last_event_id)

    def _keep(self, event, data, event_id):
        if event == "patch":
            try:
                patch = json.loads(data)
            except ValueError:
                patch = {"id": None, "html": data}
            self.patches.append((event_id, patch, time.monotonic()))

    @property
    def last_event_id(self):
        with self._cond:
            ids = [p[0] for p in self.patches if p[0]]
            return ids[-1] if ids else None

    def wait_total(self, count, timeout):
        """Waits until `count` patches have come in all; whether they have."""
        with self._cond:
            return self._cond.wait_for(lambda: len(self.patches) >= count or self.closed, timeout) \
                and len(self.patches) >= count

    def wait_for(self, predicate, timeout, since=0):
        """The first patch from index `since` on whose html passes `predicate`, or None."""
        found = []

        def seen():
            for p in self.patches[since:]:
                if predicate(p[1].get("html") or ""):
                    found.append(p)
                    return True
            return self.closed

        with self._cond:
            self._cond.wait_for(seen, timeout)
        return found[0] if found else None


class User:
    """A browser: signs in through the login form, keeps its cookie, the
    page it was last shown (so its forms and its tab) and one open tab's stream."""

    def __init__(self, endpoint, name, origin):
        self.endpoint, self.name, self.origin = endpoint, name, origin
        self.cookie = None
        self.page = None
        self.path = "/"
        self.stream = None
        self.reconnects = []       # how each stream reconnect went

    def headers(self, **extra):
        h = {"Accept": "text/html"}
        if self.cookie:
            h["Cookie"] = f"napkin_session={self.cookie}"
        h.update(extra)
        return h

    def sign_in(self, endpoint=None):
        endpoint = endpoint or self.endpoint
        first = endpoint.request("GET", "/", headers=self.headers())
        assert first.status == 200, f"GET / on {endpoint} answered {first.status}: {first.text[:200]}"
        self.cookie = first.cookie() or self.cookie
        assert self.cookie, "GET / set no napkin_session cookie"
        page = Page(first.text)
        form = page.form("login")
        assert form, f"no login form on the first page: {first.text[:300]}"
        planted = self.cookie
        reply = self.post(form, {"name": self.name}, endpoint)
        assert reply.status == 303, f"login answered {reply.status}: {reply.text[:200]}"
        assert self.cookie != planted, "the session id did not rotate at login"
        shown = self.get(urllib.parse.urlsplit(reply.headers.get("Location", "/")).path or "/", endpoint)
        assert shown.status == 200 and shown.signed_in_as() == self.name, \
            f"not signed in after login: {shown.text[:300]}"
        return self

    def get(self, path="/", endpoint=None):
        """A page load (a new tab): remembers the page."""
        endpoint = endpoint or self.endpoint
        reply = endpoint.request("GET", path, headers=self.headers())
        self._took(reply, path)
        return self.last

    def navigate(self, path="/", endpoint=None):
        """A live navigation of the current tab (napkin.js: a fetch naming the tab)."""
        endpoint = endpoint or self.endpoint
        reply = endpoint.request("GET", path, headers=self.headers(**{
            "X-Napkin-Tab": self.page.tab, "Sec-Fetch-Dest": "empty"}))
        self._took(reply, path)
        return self.last

    def _took(self, reply, path):
        self.last = LoadedPage(reply)
        if reply.cookie():
            self.cookie = reply.cookie()
        if reply.status == 200:
            self.page, self.path = self.last.page, path

    def post(self, form, values=None, endpoint=None):
        """Submits a form as a browser without JavaScript does (its 303 not followed)."""
        endpoint = endpoint or self.endpoint
        fields = dict(form["fields"], **(values or {}))
        reply = endpoint.request("POST", form["attrs"].get("action", "/_napkin/action"), headers=self.headers(**{
            "Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin}),
            body=urllib.parse.urlencode(fields))
        if reply.cookie():
            self.cookie = reply.cookie()
        return reply

    def open_stream(self, endpoint=None):
        """The current page's stream, from the page's own event id."""
        if self.stream:
            self.stream.close()
        self.stream = Stream(endpoint or self.endpoint, self.cookie, self.page.stream_path, self.page.event_id)
        return self.stream

    def reconnect(self, endpoint=None, timeout=15):
        """What napkin.js does when its stream ends: connect again with the
        last event id; a 410 (this process does not hold the tab) is
        answered by a live navigation naming the tab, then a new stream.
        Returns the new Stream (status 200) and notes how it went."""
        endpoint = endpoint or self.endpoint
        last = (self.stream.last_event_id if self.stream else None) or self.page.event_id
        if self.stream:
            self.stream.close()
        deadline = time.monotonic() + timeout
        steps = []
        while True:
            self.stream = Stream(endpoint, self.cookie, self.page.stream_path, last)
            steps.append(str(self.stream.status))
            if self.stream.status == 200:
                break
            if self.stream.status == 410:
                shown = self.navigate(self.path, endpoint)
                steps.append(f"navigate {shown.status}")
                if shown.status == 200:
                    continue
            if time.monotonic() >= deadline:
                break
            time.sleep(0.2)
        self.reconnects.append(" → ".join(steps))
        return self.stream


class LoadedPage:
    def __init__(self, reply):
        self.reply, self.status = reply, reply.status
        self.page = Page(reply.text) if reply.status == 200 else None

    @property
    def text(self):
        return self.reply.text

    def signed_in_as(self):
        return self.page.signed_in_as() if self.page else None


def served_by(cluster, cookie, timeout=5):
    """The Rib House process nginx sends this cookie's requests to: one
    tagged request, then its line in nginx's access log."""
    tag = uuid.uuid4().hex
    reply = via_nginx(cluster).request("GET", f"/api/menu?which={tag}", headers={"Cookie": f"napkin_session={cookie}"})
    assert reply.status == 200, f"GET /api/menu through nginx answered {reply.status}"

    def find():
        for line in cluster.nginx.access_log.read_text(errors="replace").splitlines():
            if tag in line:
                # "upstream=A, B upstream_status=502, 200" when A failed and B answered.
                m = re.search(r"upstream=(.*?) upstream_status=", line)
                tried = re.findall(r"[\d.]+:\d+", m.group(1)) if m else []
                return tried[-1] if tried else None
        return None

    address, _ = poll(find, timeout)
    assert address, f"nginx logged no line for the tagged request {tag}"
    for b in cluster.backends:
        if b.address == address:
            return b
    raise AssertionError(f"nginx sent the request to {address}, which is none of {[b.address for b in cluster.backends]}")


def other(cluster, backend):
    return next(b for b in cluster.backends if b is not backend)


def has_toast(text):
    return lambda fragment: text in html.unescape(fragment)


def announce(endpoint, text):
    return endpoint.request("POST", "/api/announcements", headers={"Content-Type": "application/json"},
                            body=json.dumps({"text": text}))


def pit(endpoint):
    reply = endpoint.request("GET", "/api/pit", headers={"Accept": "application/json"}, timeout=5)
    return reply.json() if reply.status == 200 else None


def signed_in_user(cluster, name=NAME):
    user = User(via_nginx(cluster), name, cluster.public_origin).sign_in()
    stream = user.open_stream()
    assert stream.status == 200, f"the user's stream answered {stream.status}"
    got = stream.wait_patches(2, 10)
    assert got >= 2, "a signed-in user's stream through nginx receives no patches from the pit"
    return user


# MARK: - 1. Through nginx


def test_01_signed_in_through_nginx(healthy, record):
    cluster = healthy
    user = signed_in_user(cluster)
    backend = served_by(cluster, user.cookie)
    record("the session is served by", backend.name)

    # Patches reach the tab as they are written (nothing buffered): one
    # per pit tick, at the pit's pace.
    stream = user.stream
    start = len(stream.patches)
    got = stream.wait_patches(10, 10)
    times = [p[2] for p in stream.patches[start:]]
    gaps = [b - a for a, b in zip(times, times[1:])]
    worst = max(gaps) if gaps else float("inf")
    record("patches through nginx in 10 s", got, ">= 10", got >= 10)
    record("longest gap between patches, ms", f"{worst * 1000:.0f}", "< 1000", worst < 1.0)
    assert got >= 10 and worst < 1.0, f"patches came late through nginx: {got} patches, gaps {gaps}"

    # An announcement reaches the tab at once through nginx.
    text = f"Burnt ends back on the board {uuid.uuid4().hex[:6]}"
    since = len(stream.patches)
    sent = time.monotonic()
    assert announce(via_nginx(cluster), text).status == 202
    toast = stream.wait_for(has_toast(text), 5, since)
    latency = (toast[2] - sent) * 1000 if toast else float("inf")
    record("announcement → toast through nginx, ms", f"{latency:.0f}", "< 1000", latency < 1000)
    assert toast, "the announcement's toast never reached the tab through nginx"

    # Sessions spread over the processes (the hash is on the session cookie).
    spread = {}
    for i in range(12):
        u = User(via_nginx(cluster), f"Guest {i}", cluster.public_origin).sign_in()
        name = served_by(cluster, u.cookie).name
        spread[name] = spread.get(name, 0) + 1
    record("12 new sessions per process", ", ".join(f"{k}: {v}" for k, v in sorted(spread.items())))
    assert len(spread) == len(cluster.backends), f"nginx sent every session to one process: {spread}"
    stream.close()


# MARK: - 2. A process dies under a user


def test_02_kill_the_process_serving_the_session(healthy, record):
    cluster = healthy
    user = signed_in_user(cluster)
    victim = served_by(cluster, user.cookie)
    survivor = other(cluster, victim)
    old_page = user.page
    logout = old_page.form("logout")
    assert logout, "the signed-in page has no Logout form"
    record("killed (kill -9)", f"{victim.name}, which served the session")

    victim.kill()
    closed = user.stream.wait_closed(5)
    record("the tab's stream ended with the process", "yes" if closed else "no", "yes", closed)
    assert closed, "the stream through nginx stayed open after its process died"

    # The next page, through nginx, is still signed in (another process
    # rebuilt the session from its record).
    page = user.get("/")
    record("next page: status, signed in as", f"{page.status}, {page.signed_in_as()!r}", f"200, {NAME!r}",
           page.status == 200 and page.signed_in_as() == NAME)
    assert page.status == 200 and page.signed_in_as() == NAME, f"signed out by a dead process: {page.text[:300]}"
    assert served_by(cluster, user.cookie) is survivor

    # The old tab comes back: its stream reconnects (a 410 first when the
    # survivor does not hold the tab, then a live navigation naming it),
    # catches up with the whole page, and is patched again.
    user.page = old_page
    start = time.monotonic()
    stream = user.reconnect()
    record("stream reconnect", user.reconnects[-1], "ends in 200", stream.status == 200)
    assert stream.status == 200, f"the tab's stream did not come back: {user.reconnects[-1]}"
    got = stream.wait_patches(2, 5)
    took = time.monotonic() - start
    record("patches after reconnect (5 s)", got, ">= 2", got >= 2)
    record("reconnect to 2 patches, s", f"{took:.2f}")
    assert got >= 2, "the reconnected stream received no patches"
    first = stream.patches[0][1]
    caught_up = NAME in html.unescape(first.get("html", "")) and 'class="name"' in first.get("html", "")
    record("first patch is the page, signed in", "yes" if caught_up else f"no ({first.get('id')})")

    # A form the dead process rendered still posts, and does what it says.
    reply = user.post(logout)
    record("the dead process's Logout form", reply.status, "303", reply.status == 303)
    assert reply.status == 303, f"the old Logout form answered {reply.status}: {reply.text[:200]}"
    after = user.get("/")
    record("after it: signed in as", repr(after.signed_in_as()), "None", after.signed_in_as() is None)
    assert after.status == 200 and after.signed_in_as() is None and after.page.form("login"), \
        f"Logout from the dead process's page did not sign the user out: {after.text[:300]}"
    stream.close()

    victim.start()
    back = user.sign_in()
    assert back.page.signed_in_as() == NAME


# MARK: - 3. Every process restarted


def test_03_restart_every_process(healthy, record):
    cluster = healthy
    users = [signed_in_user(cluster, f"{NAME} {i}") for i in range(4)]
    pages = [u.page for u in users]

    start = time.monotonic()
    for b in cluster.backends:
        b.send(signal.SIGTERM)
    clean = all(b.wait(20) for b in cluster.backends)
    stopped = time.monotonic() - start
    record("every process stopped on SIGTERM, s", f"{stopped:.2f}", "clean exit", clean)
    assert clean, "a Rib House process did not stop on SIGTERM"
    codes = {b.name: b.describe_exit() for b in cluster.backends}
    record("exit", ", ".join(f"{k}: {v}" for k, v in codes.items()))
    for u in users:
        assert u.stream.wait_closed(5), "a stream stayed open though every process stopped"

    start = time.monotonic()
    for b in cluster.backends:
        b.start()
    record("every process started again (same ports), s", f"{time.monotonic() - start:.2f}")

    # Still signed in, each of them.
    signed_in = 0
    for u, old in zip(users, pages):
        page = u.get("/")
        signed_in += page.status == 200 and page.signed_in_as() == u.name
        u.page = old
    record("users still signed in", signed_in, len(users), signed_in == len(users))
    assert signed_in == len(users), "a restart signed users out"

    # Their old tabs' streams come back.
    patched = 0
    for u in users:
        stream = u.reconnect()
        patched += stream.status == 200 and stream.wait_patches(2, 5) >= 2
    record("old tabs patched again", patched, len(users), patched == len(users))
    record("how they reconnected", "; ".join(sorted(set(u.reconnects[-1] for u in users))))
    assert patched == len(users), f"old tabs did not come back: {[u.reconnects for u in users]}"

    # A form from before the restart still posts.
    user, old = users[0], pages[0]
    reply = user.post(old.form("logout"))
    record("a pre-restart Logout form", reply.status, "303", reply.status == 303)
    assert reply.status == 303, f"a form from before the restart answered {reply.status}: {reply.text[:200]}"
    assert user.get("/").signed_in_as() is None, "the pre-restart Logout form did not sign the user out"
    for u in users:
        u.stream.close()


# MARK: - 4. Announcements cross processes


def test_04_announcement_reaches_another_process(healthy, record):
    cluster = healthy
    a, b = cluster.backends
    for sender, receiver in ((a, b), (b, a)):
        user = User(via_nginx(cluster), NAME, cluster.public_origin).sign_in()
        # The tab streams straight from `receiver` (napkin.js's way back
        # when the process does not hold the tab).
        stream = user.reconnect(direct(receiver))
        assert stream.status == 200, f"no stream from {receiver.name}: {user.reconnects[-1]}"
        assert stream.wait_patches(1, 5) >= 1, f"the stream from {receiver.name} is not patched"
        text = f"From {sender.name} to {receiver.name}: ribs at six {uuid.uuid4().hex[:6]}"
        since = len(stream.patches)
        sent = time.monotonic()
        reply = announce(direct(sender), text)
        assert reply.status == 202, f"POST /api/announcements to {sender.name} answered {reply.status}: {reply.text}"
        toast = stream.wait_for(has_toast(text), 5, since)
        latency = (toast[2] - sent) * 1000 if toast else float("inf")
        record(f"{sender.name} → tab on {receiver.name}, ms", f"{latency:.0f}", "< 2000", latency < 2000)
        assert toast, f"an announcement posted to {sender.name} never reached a tab streaming from {receiver.name}"
        stream.close()


# MARK: - 5. One pit, and a lease that moves


def same_pit(cluster):
    """Each process's pit, once they all agree on the round: (round, pits) or None."""
    pits = [pit(direct(b)) for b in cluster.backends]
    if all(pits) and len({p["round"] for p in pits}) == 1:
        return pits[0]["round"], pits
    return None


def ticking(endpoint, after_round):
    p = pit(endpoint)
    return p["round"] if p and p["round"] > after_round else None


def test_05_one_pit_and_its_lease(healthy, record):
    cluster = healthy
    agreed, waited = poll(lambda: same_pit(cluster), 5, every=0.02)
    record("both processes report the same round within, s", f"{waited:.2f}", "5", agreed is not None)
    assert agreed, f"the processes disagree on the pit: {[pit(direct(b)) for b in cluster.backends]}"
    rnd, pits = agreed
    same = pits[0] == pits[1]
    record("the same pit (every field)", "yes" if same else "no")

    # Kill each process in turn: one of them holds the pit's lease. The
    # survivor's pit keeps advancing, from where it was, within a few seconds.
    for victim in list(cluster.backends):
        survivor = other(cluster, victim)
        before = pit(direct(survivor))["round"]
        victim.kill()
        killed = time.monotonic()
        # Stalls of the survivor's pit, until it has moved on 5 rounds.
        stall, last, last_at, worst = None, before, killed, 0.0
        deadline = killed + 10
        while time.monotonic() < deadline:
            p = pit(direct(survivor))
            now = time.monotonic()
            if p and p["round"] > last:
                worst = max(worst, now - last_at)
                last, last_at = p["round"], now
            if last >= before + 5:
                stall = worst
                break
            time.sleep(0.02)
        if stall is None:
            worst = max(worst, time.monotonic() - last_at)
        record(f"{victim.name} killed: {survivor.name}'s pit stalled at most, s",
               f"{worst:.2f}" + ("" if stall is not None else " (never moved 5 rounds)"), "< 6",
               stall is not None and worst < 6)
        assert stall is not None and worst < 6, \
            f"with {victim.name} dead, the pit on {survivor.name} stopped: round {last} (was {before})"
        record(f"{survivor.name}'s round went on from", f"{before} → {last}", "> before", last > before)
        victim.start()
        agreed, waited = poll(lambda: same_pit(cluster), 5, every=0.02)
        record(f"{victim.name} back: same round within, s", f"{waited:.2f}", "5", agreed is not None)
        assert agreed, f"after {victim.name} came back the processes disagree: {[pit(direct(b)) for b in cluster.backends]}"


# MARK: - 6. Redis goes away and comes back


def test_06_redis_outage(healthy, record):
    cluster = healthy
    # Signed in on one process directly, so the other has never held the session.
    home, elsewhere = cluster.backends
    user = User(direct(home), NAME, cluster.public_origin).sign_in()
    nginx = via_nginx(cluster)

    assert cluster.redis.stop(signal.SIGTERM), "redis-server did not stop on SIGTERM"
    stopped = time.monotonic()

    # A new visitor's first page needs a session record: 503, saying why.
    def unavailable():
        r = nginx.request("GET", "/", headers={"Accept": "text/html"})
        return r if r.status == 503 else None

    reply, waited = poll(unavailable, 10)
    record("a new visitor's page", f"{reply.status if reply else 'no 503'} after {waited:.2f} s", "503",
           reply is not None)
    assert reply, "with Redis stopped, a new visitor's page did not answer 503"
    clear = UNAVAILABLE in reply.text
    record("it says", repr(reply.text.strip()[:70]), "the clear message", clear)
    assert clear, f"the 503 did not say what happened: {reply.text[:200]}"

    # The signed-in user: the process holding the session may still show
    # it (nothing to write); any other must say it cannot, never sign the
    # user out.
    there = direct(home).request("GET", "/", headers=user.headers())
    there_ok = (there.status == 200 and Page(there.text).signed_in_as() == NAME) or \
        (there.status == 503 and UNAVAILABLE in there.text)
    record(f"the user's page on {home.name} (holds the session)",
           f"{there.status}" + (", signed in" if there.status == 200 and there_ok else ""), "200 signed in, or 503",
           there_ok)
    assert there_ok, f"with Redis stopped, the user's own process answered {there.status}: {there.text[:200]}"
    away = direct(elsewhere).request("GET", "/", headers=user.headers())
    record(f"the user's page on {elsewhere.name} (never held it)", away.status, "503", away.status == 503 and UNAVAILABLE in away.text)
    assert away.status == 503 and UNAVAILABLE in away.text, \
        f"with Redis stopped, a process without the session answered {away.status}: {away.text[:200]}"
    # A form post changes the session: it waits for Redis, and says so.
    post = user.post(user.page.form("logout"))
    record("a form post (Logout)", post.status, "503", post.status == 503 and UNAVAILABLE in post.text)
    assert post.status == 503 and UNAVAILABLE in post.text, \
        f"a form post without Redis answered {post.status}: {post.text[:200]}"
    told = announce(nginx, "Nobody hears this")
    record("an announcement", f"{told.status} {told.text.strip()[:60]!r}", "503", told.status == 503)
    assert told.status == 503, f"an announcement that reached no other process answered {told.status}"
    # What needs no session is served as ever.
    menus = [nginx.request("GET", "/api/menu").status for _ in range(4)]
    menus += [direct(b).request("GET", "/api/menu").status for b in cluster.backends]
    record("GET /api/menu", ", ".join(map(str, menus)), "200", all(s == 200 for s in menus))
    assert all(s == 200 for s in menus), f"GET /api/menu without Redis answered {menus}"
    alive = all(b.alive() for b in cluster.backends)
    record("every process still running", "yes" if alive else "no", "yes", alive)
    assert alive, "a Rib House process died when Redis went away"

    # An outage of a few seconds: the answers stay clear throughout.
    answers = {}
    while time.monotonic() - stopped < 4:
        r = nginx.request("GET", "/", headers={"Accept": "text/html"})
        answers[r.status] = answers.get(r.status, 0) + 1
        time.sleep(0.25)
    record("new visitors during the outage", ", ".join(f"{k}×{v}" for k, v in sorted(answers.items())), "503",
           set(answers) == {503})
    assert set(answers) == {503}, f"during the outage new visitors got {answers}"

    # Redis back, on the same port, empty.
    cluster.redis.start()
    outage = time.monotonic() - stopped

    def served():
        r = nginx.request("GET", "/", headers={"Accept": "text/html"})
        return r if r.status == 200 else None

    reply, waited = poll(served, 15, every=0.1)
    record("Redis back: a new visitor served within, s", f"{waited:.2f}", "15", reply is not None)
    record("outage, s", f"{outage:.1f}")
    assert reply, "after Redis came back, a new visitor's page still did not answer 200"
    # Every process recovers, not just the one nginx chose.
    recovered = [poll(lambda b=b: direct(b).request("GET", "/", headers={"Accept": "text/html"}).status == 200,
                      15, every=0.1)[0] for b in cluster.backends]
    assert all(recovered), "a process did not recover after Redis came back"

    # Redis kept nothing (no persistence here), so the old session is
    # gone from the store: what the old cookie gets now is noted.
    old = direct(home).request("GET", "/", headers=user.headers())
    old_page = Page(old.text) if old.status == 200 else None
    record("the old cookie now", f"{old.status}, signed in as {old_page.signed_in_as() if old_page else None!r}")

    again = signed_in_user(cluster, f"{NAME} again")
    record("a new sign-in, stream patched", "yes", "yes", True)
    # Announcements cross processes again (each process's subscription to
    # the bus came back): posted to the process that does not serve the tab.
    away = other(cluster, served_by(cluster, again.cookie))
    start = time.monotonic()
    heard = None
    while heard is None and time.monotonic() - start < 15:
        text = f"Back in business {uuid.uuid4().hex[:6]}"
        since = len(again.stream.patches)
        if announce(direct(away), text).status == 202:
            heard = again.stream.wait_for(has_toast(text), 1, since)
        else:
            time.sleep(0.25)
    took = time.monotonic() - start
    record(f"an announcement to {away.name} reaches the tab again within, s", f"{took:.2f}", "15", heard is not None)
    assert heard, f"after Redis came back, announcements posted to {away.name} no longer reach other processes"
    again.stream.close()
    agreed, waited = poll(lambda: same_pit(cluster), 10, every=0.05)
    record("the pit: same round on both within, s", f"{waited:.2f}", "10", agreed is not None)
    assert agreed, f"after Redis came back the processes disagree on the pit: {[pit(direct(b)) for b in cluster.backends]}"
    moving, waited = poll(lambda: ticking(direct(cluster.backends[0]), agreed[0]), 6)
    record("the pit ticks again within, s", f"{waited:.2f}", "6", moving is not None)
    assert moving, "the pit stopped for good after the Redis outage"


# MARK: - 7. No Redis at all


def test_07_one_process_without_redis(binary, workdir, record):
    plain = launch.RibHouse(binary, workdir / "plain", 1, launch.free_port(),
                            extra_args=["--pit-interval", "200"])
    plain.start()
    try:
        assert "--redis" not in plain.argv()
        endpoint = direct(plain)
        user = User(endpoint, NAME, plain.url).sign_in()
        stream = user.open_stream()
        got = stream.wait_patches(2, 10)
        record("sign in, then patches (10 s)", got, ">= 2", got >= 2)
        assert got >= 2, "a single process without Redis does not patch its tabs"
        text = f"Single-process special {uuid.uuid4().hex[:6]}"
        since = len(stream.patches)
        assert announce(endpoint, text).status == 202
        toast = stream.wait_for(has_toast(text), 5, since)
        record("announcement → toast", "yes" if toast else "no", "yes", toast is not None)
        assert toast
        logout = user.post(user.page.form("logout"))
        assert logout.status == 303
        assert user.get("/").signed_in_as() is None
        stream.close()
    finally:
        stopped = plain.stop()
        record("stopped on SIGTERM", "yes" if stopped else "no (killed)", "yes", stopped)
    assert stopped, "Rib House did not stop on SIGTERM"


# MARK: - 8. nginx as configured


class FailingUpstream:
    """A stand-in for a Rib House process that takes a request and dies
    before answering: counts what reached it."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.requests = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                data, _ = recv_until(conn, b"\r\n\r\n", size=65536)
                if data:
                    self.requests.append(data.split(b" ", 1)[0].decode())

    def close(self):
        self.sock.close()


def failing_cluster(workdir, name):
    """nginx, as configured, in front of two processes that fail every request."""
    upstreams = [FailingUpstream(), FailingUpstream()]
    nginx = launch.Nginx(workdir / name, launch.free_port(), [f"127.0.0.1:{u.port}" for u in upstreams])
    nginx.start()
    return nginx, upstreams, Endpoint("nginx", nginx.url)


def through_failing_cluster(workdir, name, method, path, **kwargs):
    """`method path` sent through an nginx whose every process fails: the
    answer, and how many processes were sent it."""
    nginx, upstreams, endpoint = failing_cluster(workdir, name)
    try:
        reply = endpoint.request(method, path, **kwargs)
        return reply, sum(u.requests.count(method) for u in upstreams)
    finally:
        nginx.stop()
        for u in upstreams:
            u.close()


def test_08_nginx_passes_a_get_on_but_never_a_post(workdir, record):
    # Each on an nginx of its own: a failed process is skipped for a while
    # (fail_timeout), which would hide it from the second request.
    get, gets = through_failing_cluster(workdir, "retry-get", "GET", "/api/menu")
    record("GET, every process failing: tried on", f"{gets}, then {get.status}", "2, then 502",
           gets == 2 and get.status == 502)
    assert get.status == 502 and gets == 2, f"a failed GET was tried on {gets} processes, answered {get.status}"

    post, posts = through_failing_cluster(workdir, "retry-post", "POST", "/_napkin/action", body="a=b",
                                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    record("POST, its process failing: sent to", f"{posts}, then {post.status}", "1, then 502",
           posts == 1 and post.status == 502)
    assert post.status == 502 and posts == 1, f"a POST was sent to {posts} processes (never more than one)"


# MARK: - 9. A change on one process, seen on another


def test_09_sign_out_on_one_process_shows_on_another(healthy, record):
    cluster = healthy
    a, b = cluster.backends
    user = User(direct(a), NAME, cluster.public_origin).sign_in()
    on_a = user.page
    stream = user.open_stream(direct(a))
    assert stream.status == 200 and stream.wait_patches(1, 5) >= 1, "no patched stream on the first process"
    # The second process learns the session too (a page there) …
    shown = user.get("/", direct(b))
    assert shown.signed_in_as() == NAME, f"{b.name} does not show the session: {shown.text[:200]}"
    # … and the user signs out there, with the form the first one rendered.
    reply = user.post(on_a.form("logout"), endpoint=direct(b))
    record(f"Logout from {a.name}'s page, posted to {b.name}", reply.status, "303", reply.status == 303)
    assert reply.status == 303, f"Logout posted to {b.name} answered {reply.status}: {reply.text[:200]}"
    pages = {p.name: user.get("/", direct(p)).signed_in_as() for p in (b, a)}
    record("then signed in as, on each", ", ".join(f"{k}: {v!r}" for k, v in pages.items()), "None on both",
           all(v is None for v in pages.values()))
    assert all(v is None for v in pages.values()), f"a process still shows the user signed in: {pages}"
    # Signed in again on the second process, under another name: the first shows it.
    reply = user.post(user.page.form("login"), {"name": f"{NAME} II"}, direct(b))
    assert reply.status == 303, f"login on {b.name} answered {reply.status}"
    pages = {p.name: user.get("/", direct(p)).signed_in_as() for p in (b, a)}
    record("signed in again on one, as", ", ".join(f"{k}: {v!r}" for k, v in pages.items()), f"{NAME} II on both",
           all(v == f"{NAME} II" for v in pages.values()))
    assert all(v == f"{NAME} II" for v in pages.values()), f"the processes disagree on who is signed in: {pages}"
    stream.close()


# MARK: - 10. Many tabs through one proxy


def test_10_many_tabs_through_nginx(binary, workdir, record):
    tabs, per_session = 320, 8
    solo = launch.Cluster(binary, 1, workdir=workdir / "many-tabs", redis=False,
                          extra_args=["--pit-interval", "500", "--no-access-log"])
    solo.start()
    streams, problems = [], []
    try:
        for i in range(tabs // per_session):
            # Guests behind four addresses: nginx lets one address hold 256.
            endpoint = FromAddress("nginx", solo.url, f"127.0.0.{2 + i % 4}")
            try:
                user = User(endpoint, f"Guest {i}", solo.public_origin).sign_in()
                for _ in range(per_session):
                    shown = user.get("/")
                    if shown.status != 200:
                        problems.append(f"page {shown.status}")
                        continue
                    streams.append(Stream(endpoint, user.cookie, user.page.stream_path, user.page.event_id))
            except (AssertionError, OSError, http.client.HTTPException) as error:
                problems.append(str(error).splitlines()[0][:120])
            if problems:
                break
        opened = sum(s.status == 200 for s in streams)
        deadline = time.monotonic() + 5
        patched = sum(s.wait_total(1, max(0, deadline - time.monotonic())) for s in streams if s.status == 200)
        record("tabs open through nginx", opened, tabs, opened == tabs)
        record("tabs patched (5 s)", patched, tabs, patched == tabs)
        if problems:
            record("first problem", problems[0])
        assert opened == tabs and patched == tabs and not problems, \
            f"{opened} of {tabs} tabs opened through nginx, {patched} patched; first problem: {problems[:1]}"
    finally:
        for s in streams:
            s.close()
        solo.stop()


# MARK: - 11. Who is in the house, when a process dies


def diners(fragment):
    """The names "In the house now" lists in `fragment`, or None when it is not that list."""
    m = re.search(r"In the house now</h2><ul>(.*?)</ul>", fragment)
    return None if m is None else [html.unescape(n) for n in re.findall(r"<li>(.*?)</li>", m.group(1))]


def test_11_a_killed_process_leaves_the_house(healthy, record):
    cluster = healthy
    a, b = cluster.backends
    tag = uuid.uuid4().hex[:6]
    # Ada's only tab is on a; Cy has a tab on each; Bo watches from b.
    ada = User(direct(a), f"Ada {tag}", cluster.public_origin).sign_in()
    assert ada.open_stream(direct(a)).status == 200
    cy = User(direct(a), f"Cy {tag}", cluster.public_origin).sign_in()
    assert cy.open_stream(direct(a)).status == 200
    cy_on_b = User(direct(b), cy.name, cluster.public_origin)
    cy_on_b.cookie = cy.cookie
    assert cy_on_b.get("/").signed_in_as() == cy.name, f"{b.name} does not show Cy signed in"
    assert cy_on_b.open_stream().status == 200
    bo = User(direct(b), f"Bo {tag}", cluster.public_origin).sign_in()
    stream = bo.open_stream()
    assert stream.status == 200

    def lists(*names):
        return lambda fragment: (d := diners(fragment)) is not None and all(n in d for n in names)

    everyone = (ada.name, cy.name, bo.name)
    listed = lists(*everyone)(bo.last.text) or stream.wait_for(lists(*everyone), 5)
    record(f"{b.name} lists the diners of both processes", "yes" if listed else "no", "yes", bool(listed))
    assert listed, f"{b.name}'s list never showed {everyone}: {diners(bo.last.text)}"

    since = len(stream.patches)
    a.kill()
    killed = time.monotonic()
    gone = stream.wait_for(lambda f: (d := diners(f)) is not None and ada.name not in d, 10, since)
    took = (gone[2] - killed) if gone else float("inf")
    record(f"{a.name} killed: Ada gone from {b.name}'s list within, s", f"{took:.2f}", "< 5", took < 5)
    assert gone and took < 5, f"Ada was still in the house on {b.name} {took:.1f} s after {a.name} died"
    left = diners(gone[1]["html"])
    record("Cy, with a tab on each, still listed", "yes" if cy.name in left else "no", "yes", cy.name in left)
    assert cy.name in left and bo.name in left, f"the list lost a diner whose tab is alive: {left}"
    for s in (stream, cy_on_b.stream, ada.stream, cy.stream):
        s.close()
    a.start()
