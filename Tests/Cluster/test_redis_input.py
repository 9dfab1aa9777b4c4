"""What the cluster reads from Redis is input, and nginx bounds what one
client address can hold.

Redis wants a password; it holds no session id (keys are keyed hashes,
records sealed), so neither a listed key nor a planted record signs anyone
in; a pit published by anyone but the lease's holder, or stamped in the
future, is dropped; an announcement published straight to Redis must meet
the rules a posted one does. nginx refuses an address's requests past 256
at once, while another address is still served."""
import json
import time
import uuid

import launch
from test_cluster import NAME, FromAddress, Stream, User, announce, direct, has_toast, pit, poll, via_nginx


def publish(cluster, channel, payload):
    return cluster.redis.command("PUBLISH", f"napkin:bus:{channel}", payload)


def envelope(value, stamp=None, holder=None, origin="forger"):
    message = {"origin": origin, "stamp": stamp if stamp is not None else time.time() * 1000, "value": value}
    if holder is not None:
        message["holder"] = holder
    return json.dumps(message).encode()


def test_redis_wants_the_password(healthy, record):
    refused = None
    try:
        healthy.redis.command("GET", "napkin:lease:pit", password=False)
    except launch.RedisError as error:
        refused = str(error)
    record("a command without AUTH", (refused or "answered")[:40], "NOAUTH", bool(refused and "NOAUTH" in refused))
    assert refused and refused.startswith("NOAUTH"), f"Redis answered a client without the password: {refused}"
    assert healthy.redis.command("PING") == "PONG"


def test_redis_holds_no_session_id(healthy, record):
    user = User(via_nginx(healthy), NAME, healthy.public_origin).sign_in()
    keys = healthy.redis.command("KEYS", "napkin:session:*")
    values = [healthy.redis.command("GET", k) or "" for k in keys]
    leaked = [k for k, v in zip(keys, values) if user.cookie in k or user.cookie in v]
    record("session keys listed", len(keys), "> 0", len(keys) > 0)
    record("keys or values naming a cookie", len(leaked), "0", not leaked)
    assert keys and not leaked, f"Redis names the session id {user.cookie}: {leaked[:1]}"


def test_a_planted_record_signs_nobody_in(healthy, record):
    # A record as napkin stored them before: under the id, unsealed, with
    # an empty CSRF token; the cookie is the forger's choosing.
    cookie = uuid.uuid4().hex
    user = json.dumps({"name": "Mallory", "barbecueFoods": []})
    planted = json.dumps({"id": cookie, "csrfToken": "", "values": {"user": user}})
    healthy.redis.command("SET", f"napkin:session:{cookie}", planted, "PX", "60000")
    outcomes = []
    for backend in healthy.backends:
        reply = direct(backend).request("GET", "/", headers={"Cookie": f"napkin_session={cookie}", "Accept": "text/html"})
        outcomes.append((reply.status, "Mallory" in reply.text, reply.cookie() not in (None, cookie)))
    record("planted record: (status, signed in, new cookie) per process", outcomes)
    assert all(status == 200 and not signed and fresh for status, signed, fresh in outcomes), \
        f"a planted record was taken: {outcomes}"


def test_a_forged_pit_is_dropped(healthy, record):
    endpoints = [direct(b) for b in healthy.backends]
    holder = healthy.redis.command("GET", "napkin:lease:pit")
    assert holder, "nobody holds the pit's lease"
    start = max(pit(e)["round"] for e in endpoints)
    forged = dict(pit(endpoints[0]), round=999_999)
    forged.pop("headline", None)
    forged.pop("averageTemperature", None)
    # The holder's name is readable in Redis; a stamp far in the future
    # would freeze every process's pit on the forgery.
    for message in (envelope(forged, stamp=9e15, holder=holder), envelope(forged, holder="not-the-holder"),
                    envelope(forged)):
        publish(healthy, "state.pit", message)
    moved, waited = poll(lambda: all(start + 3 <= (pit(e) or {"round": 0})["round"] < 999_999 for e in endpoints), 10)
    rounds = [(pit(e) or {}).get("round") for e in endpoints]
    record("rounds after three forged pits", rounds, f"> {start + 2}, never 999999", bool(moved))
    assert moved, f"the pit took a forgery or stopped: rounds {rounds}, were {start}"


def test_a_forged_announcement_is_dropped(healthy, record):
    user = User(via_nginx(healthy), NAME, healthy.public_origin).sign_in()
    stream = user.open_stream()
    assert stream.status == 200 and stream.wait_patches(1, 5) >= 1
    forged = ["x" * 5_000, "hidden\u202etext", "big " + "y" * 20_000_000]
    for text in forged:
        publish(healthy, "events.announcements", envelope({"text": text}))
    real = f"Ribs at six {uuid.uuid4().hex[:6]}"
    since = len(stream.patches)
    assert announce(via_nginx(healthy), real).status == 202
    toast = stream.wait_for(has_toast(real), 5, since)
    shown = [t[:12] for t in forged if any(t[:200] in (p[1].get("html") or "") for p in stream.patches)]
    record("forged announcements shown", len(shown), "0", not shown and toast is not None)
    stream.close()
    assert toast, "the real announcement never arrived"
    assert not shown, f"forged announcements were shown: {shown}"


def test_nginx_limits_connections_per_address(healthy, record):
    crowd = FromAddress("nginx", healthy.url, "127.0.0.5")
    streams, refused = [], None
    try:
        for i in range(40):
            guest = User(crowd, f"Guest {i}", healthy.public_origin)
            # A first page for the cookie: nginx sends the requests that carry
            # it, the tabs' streams too, to one process.
            if guest.get("/").status != 200:
                refused = guest.last.status
                break
            for _ in range(8):
                shown = guest.get("/")
                if shown.status != 200:
                    refused = shown.status
                    break
                stream = Stream(crowd, guest.cookie, guest.page.stream_path, guest.page.event_id)
                streams.append(stream)
                if stream.status != 200:
                    refused = stream.status
                    break
            if refused:
                break
        opened = sum(s.status == 200 for s in streams)
        record("streams one address held before nginx refused", opened, "≈ 256", refused is not None)
        record("nginx's answer past the limit", refused, "429", refused == 429)
        assert refused == 429 and 240 <= opened <= 256, f"{opened} streams open, then {refused}"
        other = FromAddress("nginx", healthy.url, "127.0.0.6")
        elsewhere = other.request("GET", "/", headers={"Accept": "text/html"})
        record("another address meanwhile", elsewhere.status, "200", elsewhere.status == 200)
        assert elsewhere.status == 200, f"another address was refused too: {elsewhere.status}"
    finally:
        for s in streams:
            s.close()
    back, waited = poll(lambda: crowd.request("GET", "/", headers={"Accept": "text/html"}).status == 200, 10)
    record("the address served again once its streams closed, s", f"{waited:.2f}", "10", bool(back))
    assert back, "the address stayed refused after its streams closed"
