/* Opens N event-stream connections to 127.0.0.1:<port><path> and holds them.
   Prints "ready <n>" once every stream has its response head (or after 90 s),
   then waits for an event whose data is "go <CLOCK_MONOTONIC ns>" on every
   stream and prints "latency <received> <p50 us> <p99 us> <max us> <heartbeats>".
   Usage: sseclient <port> <n> <path> */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct conn { int fd; int headed; int done; };

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int port, n, i, ep, ready = 0, got = 0;
    long heartbeats = 0;
    const char *path;
    char request[512], buf[8192];
    struct conn *conns;
    int64_t *lat, start, first_go = 0;
    struct rlimit rl;
    if (argc < 4) return 2;
    port = atoi(argv[1]); n = atoi(argv[2]); path = argv[3];
    getrlimit(RLIMIT_NOFILE, &rl); rl.rlim_cur = rl.rlim_max; setrlimit(RLIMIT_NOFILE, &rl);
    conns = calloc((size_t)n, sizeof *conns);
    lat = calloc((size_t)n, sizeof *lat);
    ep = epoll_create1(0);
    snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n", path);
    for (i = 0; i < n; i++) {
        struct sockaddr_in a;
        struct epoll_event ev;
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) { fprintf(stderr, "socket %d: %s\n", i, strerror(errno)); n = i; break; }
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET; a.sin_port = htons((uint16_t)port); a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) { fprintf(stderr, "connect %d: %s\n", i, strerror(errno)); close(fd); n = i; break; }
        if (write(fd, request, strlen(request)) < 0) { close(fd); n = i; break; }
        fcntl(fd, F_SETFL, O_NONBLOCK);
        conns[i].fd = fd;
        ev.events = EPOLLIN; ev.data.u32 = (uint32_t)i;
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    }
    start = now_ns();
    for (;;) {
        struct epoll_event evs[256];
        int k, m = epoll_wait(ep, evs, 256, 1000);
        for (k = 0; k < m; k++) {
            struct conn *c = &conns[evs[k].data.u32];
            ssize_t r = read(c->fd, buf, sizeof buf - 1);
            if (r <= 0) continue;
            buf[r] = 0;
            if (!c->headed && strstr(buf, "\r\n\r\n")) { c->headed = 1; ready++; }
            if (strstr(buf, ":\n\n")) heartbeats++;
            if (!c->done) {
                char *go = strstr(buf, "data: go ");
                if (go) { lat[got++] = now_ns() - atoll(go + 9); c->done = 1; if (!first_go) first_go = now_ns(); }
            }
        }
        if (ready >= 0 && (ready == n || now_ns() - start > 90000000000LL)) {
            printf("ready %d\n", ready); fflush(stdout);
            ready = -1000000000; /* print once */
        }
        if (ready < 0 && got > 0 && got == n) break;
        if (ready < 0 && got > 0 && now_ns() - first_go > 10000000000LL) break;
    }
    qsort(lat, (size_t)got, sizeof *lat, cmp);
    printf("latency %d %lld %lld %lld %ld\n", got, (long long)(lat[got / 2] / 1000),
           (long long)(lat[(got * 99) / 100 < got ? (got * 99) / 100 : got - 1] / 1000), (long long)(lat[got - 1] / 1000), heartbeats);
    fflush(stdout);
    return 0;
}
