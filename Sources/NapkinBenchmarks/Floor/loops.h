/* How the C floors run libmicrohttpd: the way NapkinHTTP does. One daemon per
   thread, each in epoll mode driven from outside (the thread waits on the
   daemon's epoll descriptor and an eventfd, then calls MHD_run), all sharing
   the first daemon's listening socket. A connection resumed from another
   thread is followed by floor_wake() on its daemon's loop, since
   libmicrohttpd does not wake a loop it does not run. */
#ifndef NAPKIN_FLOOR_LOOPS_H
#define NAPKIN_FLOOR_LOOPS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <microhttpd.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct floor_loop {
    struct MHD_Daemon *daemon;
    int wake;
    int pending;
};

/* The loop running the calling thread (NULL elsewhere). */
static __thread struct floor_loop *floor_current;

static inline void floor_wake(struct floor_loop *loop) {
    if (__atomic_exchange_n(&loop->pending, 1, __ATOMIC_ACQ_REL)) return;
    uint64_t one = 1;
    (void)!write(loop->wake, &one, 8);
}

static void *floor_run(void *arg) {
    struct floor_loop *loop = arg;
    floor_current = loop;
    int epoll = MHD_get_daemon_info(loop->daemon, MHD_DAEMON_INFO_EPOLL_FD)->epoll_fd;
    struct pollfd fds[2] = {{epoll, POLLIN, 0}, {loop->wake, POLLIN, 0}};
    for (;;) {
        MHD_UNSIGNED_LONG_LONG ms = 0;
        int wait = MHD_get_timeout(loop->daemon, &ms) == MHD_YES ? (ms > 60000 ? 60000 : (int)ms) : -1;
        poll(fds, 2, wait);
        if (fds[1].revents) { uint64_t count; (void)!read(loop->wake, &count, 8); }
        __atomic_store_n(&loop->pending, 0, __ATOMIC_SEQ_CST);
        MHD_run(loop->daemon);
    }
    return NULL;
}

/* Starts `threads` loops (at least one), each with a daemon serving
   `handler` with `options` (an MHD_OPTION_ARRAY list): the first binds a free
   port, the others share its listening socket. Returns the loops, or NULL. */
static struct floor_loop *floor_start(int threads, MHD_AccessHandlerCallback handler, struct MHD_OptionItem *options) {
    const unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    if (threads < 1) threads = 1;
    struct floor_loop *loops = calloc((size_t)threads, sizeof *loops);
    int listen_fd = -1;
    for (int i = 0; i < threads; i++) {
        if (listen_fd < 0) {
            loops[i].daemon = MHD_start_daemon(flags, 0, NULL, NULL, handler, NULL,
                                               MHD_OPTION_ARRAY, options, MHD_OPTION_END);
        } else {
            fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
            loops[i].daemon = MHD_start_daemon(flags, 0, NULL, NULL, handler, NULL, MHD_OPTION_LISTEN_SOCKET, listen_fd,
                                               MHD_OPTION_ARRAY, options, MHD_OPTION_END);
        }
        if (loops[i].daemon == NULL) return NULL;
        if (i == 0) listen_fd = MHD_get_daemon_info(loops[0].daemon, MHD_DAEMON_INFO_LISTEN_FD)->listen_fd;
        loops[i].wake = eventfd(0, EFD_NONBLOCK);
        pthread_t thread;
        pthread_create(&thread, NULL, floor_run, &loops[i]);
    }
    return loops;
}

/* A floor's whole life after its arguments: SIGPIPE ignored and SIGTERM and
   SIGINT at their defaults (however the parent left them), the loops started
   with `options`, the bound port printed on a line of its own, then serving
   until killed. Returns 1 only when the loops cannot start. */
static inline int floor_serve(int threads, MHD_AccessHandlerCallback handler, struct MHD_OptionItem *options) {
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    struct floor_loop *loops = floor_start(threads, handler, options);
    if (loops == NULL || loops[0].daemon == NULL) { fprintf(stderr, "cannot start\n"); return 1; }
    printf("%u\n", (unsigned)MHD_get_daemon_info(loops[0].daemon, MHD_DAEMON_INFO_BIND_PORT)->port);
    fflush(stdout);
    for (;;) pause();
}
#endif
