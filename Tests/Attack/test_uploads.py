"""Uploads, tried as an attacker would: multipart/form-data posts to Rib House.

napkin streams a multipart body's files to temporary files as they arrive
(never whole in memory) and removes them when the request ends, however it
ends. Each test checks, besides its own findings, what every attack in
test_attacks.py checks afterwards (the server alive, the user signed in and
patched, memory back near its baseline), and that no temporary upload file
is left, on disk or open in the server.

Run it with Tests/Attack/run (`Tests/Attack/run -k uploads`).
"""
import glob
import os
import socket
import time
import urllib.parse

# The fixtures and helpers the attack suite shares (conftest.py puts Tests/Support on the path).
from test_attacks import (  # noqa: F401  (fixtures are used by name)
    KiB, MiB, RSSSampler, attack, form_with_action, margin, mib, read_status, run_workers, server, source_ip, user)

# napkin's defaults (UploadLimits, ServerConfiguration) and Rib House's photo limit.
MAX_UPLOAD = 16 * MiB
MAX_PARTS = 64
PHOTO_LIMIT = 2 * MiB
# How long the files of clients that hung up mid-upload may stay: napkin
# notices a hang-up within a loop turn (the idle timeout is 30 s).
HANG_UP_ALLOWANCE = 5
TMPDIR = os.environ.get("TMPDIR") or "/tmp"

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + bytes(200)
BOUNDARY = "----napkinAttackBoundary7MA4YWxk"


def multipart(parts, boundary=BOUNDARY):
    """A body from (name, value) text fields and (name, filename, type, bytes) files."""
    out = bytearray()
    for part in parts:
        if len(part) == 2:
            name, value = part
            out += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            out += value.encode() if isinstance(value, str) else value
        else:
            name, filename, kind, content = part
            out += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                    f"Content-Type: {kind}\r\n\r\n").encode()
            out += content
        out += b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out)


def process_start(pid):
    """When process `pid` started, in seconds since the epoch (to about a second)."""
    with open("/proc/stat") as f:
        boot = next(int(line.split()[1]) for line in f if line.startswith("btime "))
    with open(f"/proc/{pid}/stat") as f:
        # starttime is field 22; the fields after the command name start at field 3.
        ticks = int(f.read().rsplit(")", 1)[1].split()[19])
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def made_since(path, moment):
    """Whether the file at `path` was last written at `moment` or later (gone: no)."""
    try:
        return os.path.getmtime(path) >= moment
    except OSError:
        return False


def upload_files(server):
    """Temporary upload files: on disk in the server's TMPDIR, and open in the server.
    Files older than the server are not its own (another program's, on a shared machine)."""
    started = process_start(server.pid) - 2
    on_disk = [path for path in glob.glob(os.path.join(TMPDIR, "napkin-upload-*")) if made_since(path, started)]
    open_in_server = []
    for fd in glob.glob(f"/proc/{server.pid}/fd/*"):
        try:
            if "napkin-upload-" in os.readlink(fd):
                open_in_server.append(fd)
        except OSError:
            pass
    return on_disk, open_in_server


def expect_no_upload_files(attack, record, timeout=10.0):
    """Polls until no temporary upload file is left, for up to `timeout` seconds."""
    start = time.monotonic()
    while True:
        on_disk, open_files = upload_files(attack.server)
        if not on_disk and not open_files or time.monotonic() - start > timeout:
            break
        time.sleep(0.1)
    ok = not on_disk and not open_files
    record("temporary upload files left", f"{len(on_disk)} on disk, {len(open_files)} open "
           f"(after {time.monotonic() - start:.1f} s)", "0, 0", ok)
    attack.expect(ok, f"upload files left after the attack: {on_disk[:3]} (open: {open_files[:3]})")


def head(server, length=None, path="/_napkin/action", extra=""):
    text = (f"POST {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
            f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nOrigin: {server.url}\r\n{extra}")
    text += f"Content-Length: {length}\r\n\r\n" if length is not None else "Transfer-Encoding: chunked\r\n\r\n"
    return text.encode()


def begin_upload(server, i, start):
    """A connection from the i-th client address that has sent `start` and waits."""
    s = socket.socket()
    try:
        s.bind((source_ip(i), 0))
        s.settimeout(15)
        s.connect((server.host, server.port))
        s.sendall(start)
    except OSError:
        s.close()
        raise
    return s


def announce_form(user):
    page = user.get("/")
    form = form_with_action(page.text, "announce")
    assert form, "no announce form on the page"
    return form


def post_announce(user, fields, files, javascript=False):
    form = announce_form(user)
    parts = [(k, v) for k, v in form["fields"].items() if k not in fields and k != "photo"]
    parts += list(fields.items()) + files
    headers = {"Cookie": f"napkin_session={user.cookie}", "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
               "Origin": user.server.url, "Accept": "text/html"}
    if javascript:
        headers["X-Napkin"] = "1"
    return user.server.request("POST", form["attrs"].get("action", "/_napkin/action"), headers=headers,
                               body=multipart(parts), timeout=30)


# MARK: - The attacks


def test_u1_gigabyte_upload_is_refused_early(server, user, attack, record):
    # Announced: refused from the head, before a byte of the body.
    s = socket.create_connection((server.host, server.port), timeout=10)
    try:
        start = time.perf_counter()
        s.sendall(head(server, length=1024 * MiB))
        status = read_status(s)
        seconds = time.perf_counter() - start
    finally:
        s.close()
    record("1 GiB announced: answer", f"{status} in {seconds * 1000:.0f} ms", "413", status == 413)
    attack.expect(status == 413, f"a 1 GiB multipart upload was answered {status}, not 413 from its head")

    # Not announced (chunked): refused once past the limit, its file gone at once.
    sent, answer = 0, None
    chunk = b"%x\r\n" % (256 * KiB) + b"x" * (256 * KiB) + b"\r\n"
    with RSSSampler(server) as rss:
        s = socket.create_connection((server.host, server.port), timeout=10)
        try:
            part = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="big.png"\r\n'
                    f"Content-Type: image/png\r\n\r\n").encode() + PNG
            s.sendall(head(server) + b"%x\r\n" % len(part) + part + b"\r\n")
            while sent < 1024 * MiB:
                try:
                    s.sendall(chunk)
                except OSError:
                    break
                sent += 256 * KiB
                if sent > 3 * MAX_UPLOAD:
                    break
            answer = read_status(s)
        finally:
            s.close()
    record("1 GiB chunked: sent before the refusal, MiB", mib(sent), f"<= {mib(3 * MAX_UPLOAD)}")
    record("1 GiB chunked: answer", answer, "413 or closed", answer in (413, "closed") or str(answer).startswith("error"))
    record("peak RSS during, MiB", f"{mib(rss.peak)} (+{mib(rss.peak - attack.baseline)})", "<= +8",
           rss.peak - attack.baseline <= 8 * MiB)
    attack.expect(answer in (413, "closed") or str(answer).startswith("error:"),
                  f"a chunked upload past the limit was answered {answer}")
    attack.expect(rss.peak - attack.baseline <= 8 * MiB,
                  f"memory rose {mib(rss.peak - attack.baseline)} MiB during a 1 GiB upload: it should stay flat")
    expect_no_upload_files(attack, record)
    attack.finish()


def test_u2_slow_uploads(server, user, attack, record):
    """300 uploads that stall after their first 100 KiB, then all finish at once:
    files go to disk, so memory stays near flat, and every one is answered."""
    count, first, rest = 300, 100 * KiB, 100 * KiB
    part = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="slow.png"\r\n'
            f"Content-Type: image/png\r\n\r\n").encode()
    tail = f"\r\n--{BOUNDARY}--\r\n".encode()
    length = len(part) + first + rest + len(tail)
    socks, connect_errors = [], []
    try:
        with RSSSampler(server) as stall:
            for i in range(count):
                try:
                    socks.append(begin_upload(server, i, head(server, length=length) + part + PNG + b"s" * (first - len(PNG))))
                except OSError as error:
                    connect_errors.append(repr(error))
            time.sleep(1.0)
            attack.check_server_alive("the slow uploads")
            menu = [server.request("GET", "/api/menu").seconds for _ in range(5)]
            patched = user.watcher.wait_patches(2, 5)
            on_disk, _ = upload_files(server)
        record("stalled multipart uploads", len(socks), count, len(socks) == count)
        record("their files on disk while stalled", len(on_disk), f"<= {count}")
        record("GET /api/menu while stalled, ms (max of 5)", f"{max(menu) * 1000:.1f}", "< 500", max(menu) < 0.5)
        record("peak RSS while stalled, MiB", f"{mib(stall.peak)} (+{mib(stall.peak - attack.baseline)})")
        attack.expect(len(socks) == count, f"{len(connect_errors)} uploads could not connect: {connect_errors[:3]}")
        attack.expect(max(menu) < 0.5, f"GET /api/menu took {max(menu) * 1000:.0f} ms while uploads stalled")
        attack.expect(patched >= 2, f"the user's tab got {patched} patches while uploads stalled")

        def finish(n):
            for s in socks[n::6]:
                try:
                    s.sendall(b"s" * rest + tail)
                except OSError:
                    pass
        _, burst = run_workers(server, finish, 6)
        statuses = {}
        for s in socks:
            status = read_status(s)
            statuses[status] = statuses.get(status, 0) + 1
        record("answers (no session: refused)", ", ".join(f"{k}×{v}" for k, v in sorted(statuses.items(), key=str)),
               "403 or 503")
        grown = burst.peak - attack.baseline
        record("peak RSS as they finished, MiB", f"{mib(burst.peak)} (+{mib(grown)})", f"<= +{mib(margin(attack.baseline))}",
               grown <= margin(attack.baseline))
        unexpected = {k: v for k, v in statuses.items() if k not in (403, 503)}
        attack.expect(not unexpected, f"slow uploads answered otherwise than 403 or 503: {unexpected}")
        attack.expect(grown <= margin(attack.baseline),
                      f"memory rose {mib(grown)} MiB for 300 uploads of 200 KiB, which go to disk")
    finally:
        for s in socks:
            s.close()
    expect_no_upload_files(attack, record)
    attack.finish()


def test_u3_part_bomb(server, user, attack, record):
    """10,000 empty parts: refused past the part limit, with a clear 413."""
    body = multipart([(f"f{i}", "") for i in range(10_000)])
    with RSSSampler(server) as rss:
        reply = server.request("POST", "/_napkin/action", headers={
            "Content-Type": f"multipart/form-data; boundary={BOUNDARY}", "Origin": server.url}, body=body, timeout=30)
    ok = reply.status == 413 and f"at most {MAX_PARTS} parts" in reply.text
    record("10,000 parts: answer", f"{reply.status} {reply.text[:60]!r}", "413 naming the limit", ok)
    record("peak RSS during, MiB", f"+{mib(rss.peak - attack.baseline)}", "<= +8", rss.peak - attack.baseline <= 8 * MiB)
    attack.expect(ok, f"a part bomb was answered {reply.status}: {reply.text[:200]!r}")
    # A part head past its limit: 400.
    huge = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\nX-Pad: {"p" * (64 * KiB)}\r\n\r\nx\r\n'
            f"--{BOUNDARY}--\r\n").encode()
    reply = server.request("POST", "/_napkin/action", headers={
        "Content-Type": f"multipart/form-data; boundary={BOUNDARY}", "Origin": server.url}, body=huge)
    record("a 64 KiB part head: answer", reply.status, "400", reply.status == 400)
    attack.expect(reply.status == 400, f"a 64 KiB part head was answered {reply.status}")
    expect_no_upload_files(attack, record)
    attack.finish()


def test_u4_type_lie_and_a_real_photo(server, user, attack, record):
    """An HTML page named .png and declared image/png is refused by the form
    (with and without JavaScript); a real PNG is announced, listed with its
    URL, and served with its sniffed type, nosniff and no file name."""
    lie = b"<html><body><script>alert(document.cookie)</script></body></html>"
    plain = post_announce(user, {"text": "Free ribs"}, [("photo", "ribs.png", "image/png", lie)])
    with_js = post_announce(user, {"text": "Free ribs"}, [("photo", "ribs.png", "image/png", lie)], javascript=True)
    page = user.get("/")
    refused = "JPEG or PNG" in with_js.text and with_js.status == 422
    record("type lie with JavaScript: answer", with_js.status, "422 naming JPEG or PNG", refused)
    record("type lie without JavaScript: answer", plain.status, "303", plain.status == 303)
    attack.expect(refused, f"a type lie was answered {with_js.status}: {with_js.text[:200]!r}")
    attack.expect(plain.status == 303 and "JPEG or PNG" in page.text,
                  f"without JavaScript a type lie was answered {plain.status}, and the page does not say why")
    listed = server.request("GET", "/api/announcements").json()
    attack.expect(all(item["text"] != "Free ribs" for item in listed), "the lie was announced anyway")

    # Without the CSRF token: 403, its file removed.
    form = announce_form(user)
    parts = [(k, v) for k, v in form["fields"].items() if k not in ("_csrf", "photo")] + [("photo", "a.png", "image/png", PNG)]
    forged = server.request("POST", "/_napkin/action", headers={
        "Cookie": f"napkin_session={user.cookie}", "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
        "Origin": server.url}, body=multipart(parts))
    record("no CSRF token: answer", forged.status, "403", forged.status == 403)
    attack.expect(forged.status == 403, f"a multipart post without its CSRF token was answered {forged.status}")

    # Too large for a photo, though within the upload limit.
    big = post_announce(user, {"text": "Huge ribs"}, [("photo", "big.png", "image/png", PNG + bytes(PHOTO_LIMIT))],
                        javascript=True)
    record("a 2 MiB + 216 B photo: answer", big.status, "422", big.status == 422)
    attack.expect(big.status == 422 and "2 MiB" in big.text, f"a photo past 2 MiB was answered {big.status}")

    good = post_announce(user, {"text": "Look at that bark"}, [("photo", "../../bark.png\x00.html", "image/png", PNG)],
                         javascript=True)
    record("a real PNG: answer", good.status, "204", good.status == 204)
    attack.expect(good.status == 204, f"a real PNG was answered {good.status}: {good.text[:200]!r}")
    listed = server.request("GET", "/api/announcements").json()
    mine = [item for item in listed if item["text"] == "Look at that bark"]
    attack.expect(mine and mine[-1]["photo"], f"the announcement with a photo is not listed with it: {listed[-3:]}")
    if mine and mine[-1]["photo"]:
        photo = server.request("GET", urllib.parse.urlsplit(mine[-1]["photo"]).path)
        headers = {k: photo.headers.get(k) for k in ("Content-Type", "X-Content-Type-Options", "Content-Disposition")}
        safe = (photo.status == 200 and photo.body == PNG and headers["Content-Type"] == "image/png"
                and headers["X-Content-Type-Options"] == "nosniff" and headers["Content-Disposition"] == "inline")
        record("the photo served", f"{photo.status} {headers}", "image/png, nosniff, inline", safe)
        attack.expect(safe, f"the photo was served as {photo.status} {headers}")
    expect_no_upload_files(attack, record)
    attack.finish()


def test_u5_clients_leaving_mid_upload(server, user, attack, record):
    """50 clients send half a file, then their last bytes and their end at
    once, and hang up: no temporary file stays.

    libmicrohttpd 0.9.75 on epoll can miss an end of stream that comes with
    the last bytes it reads; napkin watches an upload's connection for its
    client's end, so such files go within a loop turn, not at the 30 s idle
    timeout."""
    count = 50
    part = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="gone.png"\r\n'
            f"Content-Type: image/png\r\n\r\n").encode() + PNG
    socks = []
    for i in range(count):
        socks.append(begin_upload(server, i, head(server, length=len(part) + 1 * MiB) + part + b"h" * (512 * KiB)))
    deadline = time.monotonic() + 10
    while len(upload_files(server)[0]) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    seen = len(upload_files(server)[0])
    record("files on disk while the uploads are half-way", seen, f"{count}", seen == count)
    for s in socks:
        try:
            s.sendall(b"h" * 100)
        except OSError:
            pass
        s.close()
    expect_no_upload_files(attack, record, timeout=HANG_UP_ALLOWANCE)
    attack.finish()
