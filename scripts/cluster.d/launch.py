#!/usr/bin/env python3
"""Starts Rib House as a cluster: one redis-server, N Rib House processes
that share it, and nginx in front of them; stops them all again.

    python3 scripts/cluster.d/launch.py --binary PATH [N] [--port 8080] ...

scripts/cluster runs this (after installing and building), and the cluster
tests (Tests/Cluster) import it, so both start exactly the same deployment:
the same flags, the same nginx.conf (written from nginx.conf.template beside
this file). Standard library only.

Every process runs in a process group of its own (so a Ctrl-C at the
terminal reaches the launcher alone, which then stops nginx first, then Rib
House, then Redis) and writes its output to a file in the cluster's
directory.
Waits poll with a deadline; nothing sleeps where a signal exists.
"""
import argparse
import http.client
import os
import pathlib
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TEMPLATE = HERE / "nginx.conf.template"
READY = re.compile(r"Rib House on (http://\S+)")


class LaunchError(Exception):
    """A process did not start: the message says which and why, with its log's tail."""


def tail(path, lines=20):
    try:
        text = pathlib.Path(path).read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


# MARK: - Ports


def port_is_free(port, host="127.0.0.1"):
    """Whether a server could listen on the port now (as servers do, with
    SO_REUSEADDR: connections of an earlier server waiting out TIME_WAIT do
    not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host="127.0.0.1"):
    """A port nobody listens on now (the kernel's pick)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def consecutive_free_ports(count, start=None, host="127.0.0.1"):
    """`count` free ports in a row, from `start` up (the kernel's pick when None)."""
    if start is None:
        for _ in range(200):
            first = free_port(host)
            if first + count <= 65535 and all(port_is_free(p, host) for p in range(first, first + count)):
                return list(range(first, first + count))
        raise LaunchError(f"found no {count} free ports in a row")
    first = start
    while first + count <= 65535:
        busy = [p for p in range(first, first + count) if not port_is_free(p, host)]
        if not busy:
            return list(range(first, first + count))
        first = busy[-1] + 1
    raise LaunchError(f"found no {count} free ports in a row from {start}")


def accepts(port, host="127.0.0.1", timeout=0.5):
    """Whether something accepts connections on the port now."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def wait_until(predicate, timeout, every=0.05):
    """Polls `predicate` until it is truthy (returned) or `timeout` seconds pass (None)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(every)


# MARK: - Processes


# A process group of its own, so a Ctrl-C at the terminal (which signals the
# foreground group) reaches the launcher alone, which stops everything in
# order. The same session, so whoever runs the launcher under a session of
# its own (scripts/test) can still end everything it left.
OWN_PROCESS_GROUP = {"process_group": 0} if sys.version_info >= (3, 11) else {"preexec_fn": os.setpgrp}


class Process:
    """One child process, in a process group of its own, its stdout and
    stderr written to files."""

    def __init__(self, name, stdout_path, stderr_path=None):
        self.name = name
        self.stdout_path = pathlib.Path(stdout_path)
        self.stderr_path = pathlib.Path(stderr_path or stdout_path)
        self.popen = None

    @property
    def pid(self):
        return self.popen.pid if self.popen else None

    def spawn(self, argv, cwd=None, env=None):
        self.stdout_path.parent.mkdir(parents=True, exist_ok=True)
        # Each start begins a fresh stdout (the ready line is searched in it);
        # stderr (logs) keeps what earlier runs wrote.
        stdout = open(self.stdout_path, "wb")
        stderr = stdout if self.stderr_path == self.stdout_path else open(self.stderr_path, "ab")
        try:
            self.popen = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stdout,
                                          stderr=stderr, **OWN_PROCESS_GROUP)
        finally:
            stdout.close()
            if stderr is not stdout:
                stderr.close()

    def alive(self):
        return self.popen is not None and self.popen.poll() is None

    def send(self, sig):
        if self.alive():
            try:
                os.kill(self.popen.pid, sig)
            except ProcessLookupError:
                pass

    def wait(self, timeout):
        """Waits for the process to exit; True when it has."""
        if self.popen is None:
            return True
        try:
            self.popen.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """Sends `sig`, waits up to `timeout`, then SIGKILL. True when it stopped on `sig`."""
        if self.popen is None:
            return True
        if self.popen.poll() is not None:
            return True
        self.send(sig)
        if self.wait(timeout):
            return True
        self.send(signal.SIGKILL)
        self.wait(10)
        return False

    def kill(self):
        """SIGKILL, as a crash would: no goodbye."""
        self.send(signal.SIGKILL)
        self.wait(10)

    def describe_exit(self):
        code = self.popen.poll() if self.popen else None
        if code is None:
            return "running"
        return f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"


class Redis(Process):
    """redis-server on 127.0.0.1, keeping nothing on disk (`--save ''`,
    `--appendonly no`): a restart starts empty. It wants a password
    (`requirepass`, a fresh random one unless given): whoever reaches its
    port without it can read and write nothing."""

    def __init__(self, workdir, port=None, executable="redis-server", password=None):
        self.dir = pathlib.Path(workdir) / "redis"
        super().__init__("redis", self.dir / "redis.log")
        self.port = port or free_port()
        self.executable = executable
        self.password = password or secrets.token_hex(16)

    @property
    def url(self):
        return f"redis://:{urllib.parse.quote(self.password, safe='')}@127.0.0.1:{self.port}"

    def start(self, timeout=20):
        self.dir.mkdir(parents=True, exist_ok=True)
        if not port_is_free(self.port):
            raise LaunchError(f"redis: port {self.port} is taken")
        self.spawn([self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                    "no", "--dir", str(self.dir), "--daemonize", "no", "--protected-mode", "yes",
                    "--requirepass", self.password])
        if not wait_until(lambda: not self.alive() or self.ping(), timeout) or not self.alive():
            raise LaunchError(f"redis on port {self.port} did not answer PING within {timeout}s "
                              f"({self.describe_exit()}):\n{tail(self.stdout_path)}")
        return self

    def command(self, *args, timeout=2, password=True):
        """One command in RESP, after AUTH (unless `password` is False); the
        reply, decoded simply (str, int, list, None)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            replies = s.makefile("rb")
            if password:
                s.sendall(_resp(["AUTH", self.password]))
                _read_resp(replies)
            s.sendall(_resp(args))
            return _read_resp(replies)

    def ping(self):
        try:
            return self.command("PING", timeout=0.5) == "PONG"
        except (OSError, RedisError):
            return False


class RedisError(Exception):
    pass


def _resp(args):
    out = f"*{len(args)}\r\n".encode()
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        out += b"$%d\r\n%s\r\n" % (len(data), data)
    return out


def _read_resp(f):
    line = f.readline()
    if not line:
        raise RedisError("connection closed")
    kind, rest = line[:1], line[1:].rstrip(b"\r\n")
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        raise RedisError(rest.decode())
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        if n < 0:
            return None
        data = f.read(n + 2)
        return data[:-2].decode("utf-8", "replace")
    if kind == b"*":
        n = int(rest)
        return None if n < 0 else [_read_resp(f) for _ in range(n)]
    raise RedisError(f"unexpected reply {line!r}")


class RibHouse(Process):
    """One Rib House process on 127.0.0.1:`port`; ready when it prints its
    `Rib House on http://…` line."""

    def __init__(self, binary, workdir, index, port, redis_url=None, public_origin=None, trusted_proxy=None,
                 extra_args=(), env=None, redis_key=None):
        self.dir = pathlib.Path(workdir) / f"ribhouse-{index}"
        super().__init__(f"ribhouse-{index}", self.dir / "stdout.txt", self.dir / "ribhouse.log")
        self.binary, self.index, self.port = str(binary), index, port
        self.redis_url, self.public_origin, self.trusted_proxy = redis_url, public_origin, trusted_proxy
        self.redis_key = redis_key
        self.extra_args, self.env = list(extra_args), env
        self.url = None
        self.starts = 0

    @property
    def log_path(self):
        return self.stderr_path

    @property
    def address(self):
        return f"127.0.0.1:{self.port}"

    def argv(self):
        argv = [self.binary, "--host", "127.0.0.1", "--port", str(self.port), "--public", str(ROOT / "Public")]
        if self.redis_url:
            # On the command line for all to see in `ps`, as this is one
            # machine's test cluster; a deployment sets REDIS_URL and
            # REDIS_KEY in the environment instead.
            argv += ["--redis", self.redis_url, "--redis-key", self.redis_key]
        if self.public_origin:
            argv += ["--public-origin", self.public_origin]
        if self.trusted_proxy:
            argv += ["--trusted-proxy", self.trusted_proxy]
        return argv + self.extra_args

    def start(self, timeout=60):
        """Starts the process and waits for its ready line. The port may still
        be held for a moment by the previous process on it: a start that fails
        to bind is tried again until `timeout`."""
        self.dir.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + timeout
        while True:
            self.url = None
            self.spawn(self.argv(), cwd=str(ROOT), env=self.env)
            self.starts += 1
            url = wait_until(lambda: self._ready_url() or (not self.alive() and "exited"),
                             max(0.1, deadline - time.monotonic()))
            if url and url != "exited":
                self.url = url
                return self
            if self.alive():
                self.stop(signal.SIGKILL)
                raise LaunchError(f"{self.name} printed no 'Rib House on http://…' line within {timeout}s:\n"
                                  f"{tail(self.log_path)}")
            if time.monotonic() >= deadline or port_is_free(self.port):
                raise LaunchError(f"{self.name} on port {self.port} exited before it was ready "
                                  f"({self.describe_exit()}):\n{tail(self.log_path)}")
            time.sleep(0.2)  # the port is still taken: try again

    def ready(self, timeout=1.0):
        """Whether the process's /readyz answers 200 now (it wants traffic)."""
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            try:
                conn.request("GET", "/readyz")
                return conn.getresponse().status == 200
            finally:
                conn.close()
        except (OSError, http.client.HTTPException):
            return False

    def replace(self, timeout=60, drain_timeout=15):
        """Replaces the process with a new one on the same port, as one step
        of a rolling restart: SIGTERM makes it drain (/readyz 503, its
        listener closed so nginx connects elsewhere, its event streams told
        to reconnect, requests in flight finished); the successor starts as
        soon as the port is free and is ready (/readyz) before this returns,
        and the old process has exited by then (SIGKILL past
        `drain_timeout`)."""
        old = self.popen
        self.send(signal.SIGTERM)
        if old is not None:
            wait_until(lambda: old.poll() is not None or port_is_free(self.port), drain_timeout)
        self.start(timeout)
        if not wait_until(self.ready, timeout):
            raise LaunchError(f"{self.name} did not report ready on /readyz within {timeout}s:\n{tail(self.log_path)}")
        if old is not None:
            try:
                old.wait(timeout=drain_timeout)
            except subprocess.TimeoutExpired:
                old.kill()
                old.wait(10)
        return self

    def _ready_url(self):
        try:
            m = READY.search(self.stdout_path.read_text(errors="replace"))
        except OSError:
            return None
        return m.group(1) if m else None


class Nginx(Process):
    """nginx on `listen`, in front of `backends` ("host:port" each), with its
    own prefix, pid, logs and temp files in the cluster's directory."""

    def __init__(self, workdir, port, backends, host="127.0.0.1", executable=None):
        self.prefix = pathlib.Path(workdir) / "nginx"
        super().__init__("nginx", self.prefix / "stderr.txt")
        self.host, self.port, self.backends = host, port, list(backends)
        self.executable = executable or shutil.which("nginx") or "/usr/sbin/nginx"

    @property
    def url(self):
        return f"http://{self.host}:{self.port}"

    @property
    def config_path(self):
        return self.prefix / "nginx.conf"

    @property
    def access_log(self):
        return self.prefix / "access.log"

    @property
    def error_log(self):
        return self.prefix / "error.log"

    def write_config(self):
        self.prefix.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            # Started by root, nginx's workers run as an unprivileged user:
            # they must reach the temp directories below the prefix.
            for p in (self.prefix.parent, self.prefix):
                p.chmod(p.stat().st_mode | 0o711)
        text = render_nginx_config(TEMPLATE.read_text(), listen=f"{self.host}:{self.port}",
                                   backends=self.backends, prefix=self.prefix)
        self.config_path.write_text(text)
        return self.config_path

    def start(self, timeout=20):
        self.write_config()
        if not port_is_free(self.port, self.host):
            raise LaunchError(f"nginx: port {self.port} is taken")
        check = subprocess.run([self.executable, "-t", "-q", "-p", str(self.prefix), "-c", str(self.config_path),
                                "-e", str(self.error_log)], capture_output=True, text=True)
        if check.returncode != 0:
            raise LaunchError(f"nginx rejected {self.config_path}:\n{check.stderr}")
        self.spawn([self.executable, "-p", str(self.prefix), "-c", str(self.config_path), "-e", str(self.error_log)])
        if not wait_until(lambda: not self.alive() or accepts(self.port, self.host), timeout) or not self.alive():
            raise LaunchError(f"nginx did not listen on {self.host}:{self.port} within {timeout}s "
                              f"({self.describe_exit()}):\n{tail(self.error_log)}\n{tail(self.stdout_path)}")
        return self

    def stop(self, sig=signal.SIGTERM, timeout=15):
        # SIGTERM is nginx's fast shutdown: open event streams are cut, and
        # the tabs reconnect to whatever serves them next.
        return super().stop(sig, timeout)


def render_nginx_config(template, listen, backends, prefix):
    """The template with its @NAME@ places filled in. A line naming
    @BACKEND@ is repeated once per backend."""
    out = []
    for line in template.splitlines(keepends=True):
        if "@BACKEND@" in line:
            out.extend(line.replace("@BACKEND@", b) for b in backends)
        else:
            out.append(line)
    text = "".join(out).replace("@LISTEN@", listen).replace("@PREFIX@", str(prefix))
    code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    left = sorted(set(re.findall(r"@[A-Z_]+@", code)))
    if left:
        raise LaunchError(f"{TEMPLATE} names {', '.join(left)}, which the launcher does not fill in")
    return text


# MARK: - The cluster


class Cluster:
    """redis-server, `count` Rib House processes on `backend_ports` and nginx
    on `port`. With `redis=False`, the processes run without Redis (each on
    its own, as by default)."""

    def __init__(self, binary, count=2, port=None, host="127.0.0.1", workdir=None, redis=True, redis_port=None,
                 backend_ports=None, extra_args=(), public_origin=None, env=None):
        self.workdir = pathlib.Path(workdir or tempfile.mkdtemp(prefix="napkin-cluster."))
        self.owns_workdir = workdir is None
        self.port = port or free_port(host)
        self.host = host
        # Listening on every address, nginx is still reached by some name:
        # the local one, unless told otherwise.
        shown = "127.0.0.1" if host in ("0.0.0.0", "::", "[::]") else host
        self.public_origin = public_origin or f"http://{shown}:{self.port}"
        self.redis = Redis(self.workdir, redis_port) if redis else None
        # Every process keys and seals the session records with this one
        # secret (a fresh one per cluster: stopping it signs everyone out anyway).
        self.redis_key = secrets.token_hex(16)
        ports = backend_ports or [free_port() for _ in range(count)]
        if len(ports) != count:
            raise LaunchError(f"{count} processes need {count} ports, not {len(ports)}")
        self.backends = [
            RibHouse(binary, self.workdir, i + 1, p, redis_url=self.redis.url if self.redis else None,
                     public_origin=self.public_origin, trusted_proxy="127.0.0.1", extra_args=extra_args, env=env,
                     redis_key=self.redis_key)
            for i, p in enumerate(ports)]
        self.nginx = Nginx(self.workdir, self.port, [b.address for b in self.backends], host=host)

    @property
    def url(self):
        return self.nginx.url

    def processes(self):
        return [p for p in [self.nginx, *self.backends, self.redis] if p is not None]

    def start(self, timeout=90):
        """Starts Redis, then each Rib House process (ready when it says
        so), then nginx."""
        try:
            if self.redis:
                self.redis.start()
            deadline = time.monotonic() + timeout
            for b in self.backends:
                b.start(max(1.0, deadline - time.monotonic()))
            self.nginx.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self):
        """nginx first (no new requests), then Rib House (each drains), then
        Redis. Leaves no process behind."""
        self.nginx.stop()
        for b in self.backends:
            b.send(signal.SIGTERM)
        for b in self.backends:
            b.stop(timeout=20)
        if self.redis:
            self.redis.stop()

    def roll(self, log=None):
        """A rolling restart: each Rib House process in turn replaced by a
        new one (RibHouse.replace), the next one only once its successor is
        ready. Users go on meanwhile on the others; their tabs reconnect,
        still signed in."""
        for b in self.backends:
            started = time.monotonic()
            b.replace()
            if log:
                log(f"{b.name} replaced in {time.monotonic() - started:.1f}s (pid {b.pid})")

    def remove_workdir(self):
        if self.owns_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def describe(self):
        lines = []
        if self.redis:
            lines.append(f"redis       redis://127.0.0.1:{self.redis.port} (password {self.redis.password})  "
                         f"pid {self.redis.pid}  log {self.redis.stdout_path}")
        for b in self.backends:
            lines.append(f"{b.name:<10}  {b.url or 'http://' + b.address}  pid {b.pid}  log {b.log_path}")
        lines.append(f"nginx       {self.nginx.url}  pid {self.nginx.pid}  config {self.nginx.config_path}")
        lines.append(f"            logs {self.nginx.access_log} and {self.nginx.error_log}")
        return lines


# MARK: - scripts/cluster


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="scripts/cluster",
        description="Rib House as a cluster: redis-server, N Rib House processes sharing it, and nginx in front. "
                    "Ctrl-C (or SIGTERM) stops them all.")
    parser.add_argument("count", nargs="?", type=int, default=os.cpu_count() or 1,
                        help="how many Rib House processes (default: one per core, %(default)s here)")
    parser.add_argument("--binary", required=True, help="the RibHouse executable (scripts/cluster passes its build)")
    parser.add_argument("--port", type=int, default=8080, help="nginx's port (default %(default)s)")
    parser.add_argument("--host", default="127.0.0.1", help="nginx's address (default %(default)s)")
    parser.add_argument("--backend-port", type=int, default=None,
                        help="the first Rib House port; the others follow it (default: the first free ones above "
                             "nginx's port)")
    parser.add_argument("--redis-port", type=int, default=None, help="redis-server's port (default: a free one)")
    parser.add_argument("--public-origin", default=None,
                        help="the origin browsers use (default: http://HOST:PORT, nginx's own)")
    parser.add_argument("--workdir", default=None, help="where logs and configs go (default: a new temp dir)")
    parser.epilog = "Options after -- go to every Rib House process (e.g. -- --pit-interval 500)."
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if args.count < 1:
        parser.error("the cluster needs at least one Rib House process")

    stop_requested = []
    roll_requested = []

    def request_stop(signum, _frame):
        stop_requested.append(signum)

    def request_roll(signum, _frame):
        roll_requested.append(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, request_stop)
    # SIGHUP (kill -HUP, or scripts/cluster --roll) restarts every process
    # in turn, as a deploy of a new build does.
    signal.signal(signal.SIGHUP, request_roll)

    if not port_is_free(args.port, args.host):
        print(f"cluster: {args.host}:{args.port} is taken (choose another with --port)", file=sys.stderr)
        return 1
    ports = consecutive_free_ports(args.count, args.backend_port or args.port + 1)
    cluster = Cluster(args.binary, args.count, port=args.port, host=args.host, workdir=args.workdir,
                      redis_port=args.redis_port, backend_ports=ports, extra_args=extra,
                      public_origin=args.public_origin)
    print(f"cluster: starting in {cluster.workdir}", flush=True)
    try:
        cluster.start()
    except LaunchError as error:
        print(f"cluster: {error}", file=sys.stderr)
        return 1
    for line in cluster.describe():
        print(f"cluster: {line}")
    print(f"cluster: Rib House is served on {cluster.url} by {args.count} processes; Ctrl-C stops them all",
          flush=True)
    pid_file = cluster.workdir / "launcher.pid"
    pid_file.write_text(f"{os.getpid()}\n")
    print(f"cluster: kill -HUP {os.getpid()} (or scripts/cluster --roll --workdir {cluster.workdir}) restarts "
          f"the processes one at a time", flush=True)

    # A Rib House process that stops on its own is started again, as a
    # service manager would (its users go on on the others meanwhile); one
    # that keeps dying is left down. Losing nginx or Redis stops everything.
    status = 0
    restarts = {b.name: [] for b in cluster.backends}
    given_up = set()
    while not stop_requested:
        if roll_requested:
            roll_requested.clear()
            print("cluster: rolling restart", flush=True)
            try:
                cluster.roll(log=lambda line: print(f"cluster: {line}", flush=True))
                print("cluster: rolling restart done", flush=True)
            except LaunchError as error:
                print(f"cluster: rolling restart stopped: {error}", file=sys.stderr, flush=True)
        for p in cluster.processes():
            if p.alive() or p.name in given_up:
                continue
            print(f"cluster: {p.name} stopped ({p.describe_exit()}); see {p.stderr_path}", file=sys.stderr,
                  flush=True)
            if p is cluster.nginx or p is cluster.redis:
                status = 1
                stop_requested.append("lost")
                break
            recent = [t for t in restarts[p.name] if time.monotonic() - t < 60]
            if len(recent) >= 5:
                print(f"cluster: {p.name} stopped 5 times in a minute; leaving it down", file=sys.stderr, flush=True)
                given_up.add(p.name)
                continue
            restarts[p.name] = [*recent, time.monotonic()]
            try:
                p.start()
                print(f"cluster: {p.name} started again (pid {p.pid})", flush=True)
            except LaunchError as error:
                print(f"cluster: {error}", file=sys.stderr, flush=True)
        time.sleep(0.2)
    print("cluster: stopping", flush=True)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # a second Ctrl-C does not cut the stop short
    cluster.stop()
    left = [p.name for p in cluster.processes() if p.alive()]
    if left:
        print(f"cluster: still running: {', '.join(left)}", file=sys.stderr)
        return 1
    print(f"cluster: stopped (logs kept in {cluster.workdir})", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
