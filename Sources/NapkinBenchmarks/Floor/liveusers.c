/* N simulated Rib House browsers. Each one, from a source address in
   127.0.<x>.<y> (200 users an address, so per-IP limits hold), on one
   keep-alive connection: GET / (session cookie + CSRF token), POST the login
   form (the session id rotates: the new cookie comes from this answer), then
   GET /_napkin/events and holds the stream.
   Logins run on 64 threads with blocking sockets (2 s timeouts); a user that
   fails at any step is counted and dropped, and after 256 failures in a row
   the rest are skipped (the server is full: waiting on each would take minutes).
   Prints  "ready <held> <failed> <seconds> <logins/s> <skipped>"  once every user is in,
   then watches every stream for <watch> seconds and prints, for each burst
   of events (a pit tick; bursts are split by 400 ms of silence),
   "tick <streams reached> <events> <spread ms>" (the spread: from the
   first stream reached to the last), and finally
   "done <events seen in all>".
   With a marker, one more user signs in 3.3 s into the watch, and events
   containing the marker (the patch of a presence list) are timed apart:
   "join <streams reached> <events> <spread ms>" per burst of them.
   Usage: liveusers <port> <n> <watch seconds> [marker] */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port, users;
static int *fds;
/* Every held stream, from its login on: drained while the others sign in
   (as a browser reads its stream), then watched. */
static int ep;
static volatile int signing_in = 1;
/* When the extra diner started signing in (0: not yet). */
static volatile double join_at;
static int next_user, failed, consecutive, skipped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads one response (head + Content-Length body) into buf; returns its length or -1. */
static int read_response(int fd, char *buf, int cap, int head_only) {
    int len = 0;
    char *end = NULL;
    while (!end) {
        int r = (int)read(fd, buf + len, cap - 1 - len);
        if (r <= 0) return -1;
        len += r;
        buf[len] = 0;
        end = strstr(buf, "\r\n\r\n");
        if (!end && len >= cap - 1) return -1;
    }
    if (head_only) return len;
    int head = (int)(end - buf) + 4;
    char *cl = strcasestr(buf, "\r\nContent-Length:");
    int body = cl && cl < end ? atoi(cl + 17) : 0;
    while (len < head + body) {
        if (len >= cap - 1) return -1;
        int r = (int)read(fd, buf + len, cap - 1 - len);
        if (r <= 0) return -1;
        len += r;
        buf[len] = 0;
    }
    return len;
}

static int copy_value(const char *buf, const char *key, char *out, int cap) {
    const char *p = strstr(buf, key);
    if (!p) return -1;
    p += strlen(key);
    int i = 0;
    while (p[i] && p[i] != ';' && p[i] != '"' && p[i] != '\r' && i < cap - 1) { out[i] = p[i]; i++; }
    out[i] = 0;
    return 0;
}

static int login(int index) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct timeval tv = {2, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in src = {0}, dst = {0};
    src.sin_family = AF_INET;
    int group = index / 200;
    src.sin_addr.s_addr = htonl((127u << 24) | ((unsigned)(1 + group / 250) << 8) | (unsigned)(1 + group % 250));
    dst.sin_family = AF_INET;
    dst.sin_port = htons((uint16_t)port);
    dst.sin_addr.s_addr = htonl(0x7f000001);
    char buf[65536], cookie[128], csrf[128], fragment[32], req[1024], body[512];
    if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0 || connect(fd, (struct sockaddr *)&dst, sizeof dst) != 0) goto fail;
    int n = snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/html\r\n\r\n", port);
    if (write(fd, req, n) != n || read_response(fd, buf, sizeof buf, 0) < 0) goto fail;
    if (copy_value(buf, "napkin_session=", cookie, sizeof cookie) || copy_value(buf, "name=\"_csrf\" value=\"", csrf, sizeof csrf)) goto fail;
    /* The login form's fragment: the hidden field just before _action=login. */
    char *action = strstr(buf, "name=\"_action\" value=\"login\"");
    if (!action) goto fail;
    char *frag = NULL, *p = buf;
    while ((p = strstr(p, "name=\"_fragment\" value=\"")) && p < action) { frag = p; p++; }
    if (!frag || copy_value(frag, "value=\"", fragment, sizeof fragment)) goto fail;
    int b = snprintf(body, sizeof body, "_fragment=%s&_action=login&_csrf=%s&_return=%%2F&name=Guest%d", fragment, csrf, index);
    n = snprintf(req, sizeof req,
                 "POST /_napkin/action HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: napkin_session=%s\r\n"
                 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s", port, cookie, b, body);
    if (write(fd, req, n) != n || read_response(fd, buf, sizeof buf, 0) < 0) goto fail;
    if (strncmp(buf, "HTTP/1.1 303", 12) != 0 || copy_value(buf, "napkin_session=", cookie, sizeof cookie)) goto fail;
    n = snprintf(req, sizeof req, "GET /_napkin/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: napkin_session=%s\r\nAccept: text/event-stream\r\n\r\n", port, cookie);
    if (write(fd, req, n) != n || read_response(fd, buf, sizeof buf, 1) < 0) goto fail;
    if (strncmp(buf, "HTTP/1.1 200", 12) != 0) goto fail;
    fds[index] = fd;
    if (index < users) {
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)index};
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    }
    return 0;
fail:
    close(fd);
    return -1;
}

static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        if (consecutive >= 256 && next_user < users) { skipped += users - next_user; next_user = users; }
        int index = next_user < users ? next_user++ : -1;
        pthread_mutex_unlock(&lock);
        if (index < 0) return NULL;
        int ok = login(index) == 0;
        pthread_mutex_lock(&lock);
        if (ok) consecutive = 0; else { failed++; consecutive++; }
        pthread_mutex_unlock(&lock);
    }
}

/* One burst of events of a kind (bursts are split by 400 ms of silence):
   which streams got something, how many events, the first arrival, the
   last stream's first arrival (the spread: every stream reached once) and
   the last arrival (which ends the burst). */
struct burst {
    int *events;
    int reached, total;
    double first, last_reached, last;
};

/* Prints and resets `b` once 400 ms passed since its last event. */
static void end_burst(struct burst *b, const char *kind, double t) {
    if (b->total == 0 || t - b->last < 0.4) return;
    /* A list patch that began before the extra diner signed in is none of its. */
    if (strcmp(kind, "join") != 0 || (join_at > 0 && b->first >= join_at))
        printf("%s %d %d %.1f\n", kind, b->reached, b->total, (b->last_reached - b->first) * 1000);
    fflush(stdout);
    memset(b->events, 0, (size_t)users * sizeof *b->events);
    b->reached = b->total = 0;
}

/* The wait until `b` may end, if sooner than `wait_ms`. */
static int burst_wait(const struct burst *b, double t, int wait_ms) {
    int until = (int)((b->last + 0.4 - t) * 1000) + 1;
    return until < wait_ms ? (until < 0 ? 0 : until) : wait_ms;
}

static const char *marker;

/* Reads and drops what the held streams get while the others sign in, as
   browsers would: the watch starts with nothing queued for anyone. */
static void *drain(void *arg) {
    (void)arg;
    char buf[65536];
    struct epoll_event ready[512];
    while (signing_in) {
        int n = epoll_wait(ep, ready, 512, 50);
        for (int k = 0; k < n; k++) {
            int i = (int)ready[k].data.u32;
            if (read(fds[i], buf, sizeof buf) <= 0) epoll_ctl(ep, EPOLL_CTL_DEL, fds[i], NULL);
        }
    }
    return NULL;
}

/* Signs in one more diner (user number `users`) 3.3 s into the watch,
   between two pit ticks, and keeps its stream open. */
static void *join_later(void *arg) {
    (void)arg;
    usleep(3300000);
    join_at = now_s();
    if (login(users) != 0) fprintf(stderr, "liveusers: the extra diner could not sign in\n");
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: liveusers port n watch-seconds [marker]\n"); return 2; }
    marker = argc > 4 ? argv[4] : NULL;
    port = atoi(argv[1]);
    users = atoi(argv[2]);
    double watch = atof(argv[3]);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    /* One more than the users: the diner who joins while they watch. */
    fds = calloc((size_t)users + 1, sizeof *fds);
    for (int i = 0; i <= users; i++) fds[i] = -1;

    ep = epoll_create1(0);
    pthread_t drainer;
    pthread_create(&drainer, NULL, drain, NULL);
    double start = now_s();
    pthread_t threads[64];
    for (int i = 0; i < 64; i++) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < 64; i++) pthread_join(threads[i], NULL);
    double took = now_s() - start;
    signing_in = 0;
    pthread_join(drainer, NULL);
    int held = users - failed - skipped;
    printf("ready %d %d %.2f %.1f %d\n", held, failed, took, held / (took > 0 ? took : 1), skipped);
    fflush(stdout);

    for (int i = 0; i < users; i++) {
        if (fds[i] < 0) continue;
        struct timeval tv = {0, 0};
        setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    /* A presence change: one more diner signs in while the others watch,
       whose list patch (events containing the marker) is timed on its own. */
    pthread_t joiner;
    int joining = marker != NULL;
    if (joining) pthread_create(&joiner, NULL, join_later, NULL);
    struct burst ticks = {0}, joins = {0};
    ticks.events = calloc((size_t)users, sizeof *ticks.events);
    joins.events = calloc((size_t)users, sizeof *joins.events);
    long all_events = 0;
    char buf[65536];
    struct epoll_event ready[512];
    double stop = now_s() + watch;
    for (;;) {
        double t = now_s();
        end_burst(&ticks, "tick", t);
        end_burst(&joins, "join", t);
        if (t >= stop) break;
        int wait_ms = (int)((stop - t) * 1000) + 1;
        if (ticks.total > 0) wait_ms = burst_wait(&ticks, t, wait_ms);
        if (joins.total > 0) wait_ms = burst_wait(&joins, t, wait_ms);
        int n = epoll_wait(ep, ready, 512, wait_ms);
        t = now_s();
        for (int k = 0; k < n; k++) {
            int i = (int)ready[k].data.u32;
            int r = (int)read(fds[i], buf, sizeof buf - 1);
            if (r <= 0) { epoll_ctl(ep, EPOLL_CTL_DEL, fds[i], NULL); close(fds[i]); fds[i] = -1; continue; }
            buf[r] = 0;
            /* Events, not heartbeat comments (lines starting with ':'), each
               counted in the burst of its kind. */
            for (char *event = buf, *end; *event; event = end + 2) {
                end = strstr(event, "\n\n");
                if (!end) break;
                if (*event == ':') continue;
                *end = 0;
                struct burst *b = marker && strstr(event, marker) ? &joins : &ticks;
                if (b->total == 0) b->first = t;
                b->last = t;
                if (b->events[i] == 0) {
                    b->reached++;
                    b->last_reached = t;
                }
                b->events[i]++;
                b->total++;
                all_events++;
            }
        }
    }
    end_burst(&ticks, "tick", stop + 1);
    end_burst(&joins, "join", stop + 1);
    if (joining) pthread_join(joiner, NULL);
    printf("done %ld\n", all_events);
    fflush(stdout);
    return 0;
}
