#ifndef NAPKIN_CMICROHTTPD_SHIM_H
#define NAPKIN_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/select.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/epoll.h>
#endif
#include <dlfcn.h>

/* MHD_start_daemon and MHD_get_*_info are variadic, which Swift cannot call.
   These small non-variadic wrappers are the only C napkin needs. */

typedef void *(*napkin_uri_log_cb)(void *cls, const char *uri, struct MHD_Connection *con);

/* memmem, which glibc declares only for _GNU_SOURCE (so Swift's Glibc module
   lacks it) and Darwin always: the multipart parser's delimiter search. */
void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);
static inline const void *napkin_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

/* An unescape callback that leaves the text as sent: napkin decodes paths and
   queries itself (from the raw URI) so that %2f, %00 and friends stay visible. */
static inline size_t napkin_identity_unescape(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls; (void)c;
    return strlen(s);
}

/* Starts one of napkin's daemons, driven from outside (napkin's own loop
   thread waits, then calls MHD_run; libmicrohttpd 0.9.75's internal epoll
   loop can block with ready connections unserved when exactly 128 of them
   become ready at once), suspend/resume enabled. With `epoll` the daemon
   keeps an epoll set (Linux); without, the loop polls the descriptors
   napkin_daemon_poll_fds lists (the portable loop). With listen_fd < 0 it
   binds host:port; otherwise it serves that listening socket, shared with
   the daemon that bound it. The per-address limit is not libmicrohttpd's
   (a daemon counts only its own connections): napkin counts across daemons
   and refuses through `accept`. Returns NULL (with errno set where the OS
   said why) when it cannot start. */
static inline struct MHD_Daemon *napkin_start_daemon(
    int epoll, const char *host, uint16_t port, int listen_fd,
    unsigned int connection_limit,
    unsigned int timeout_seconds, size_t memory_limit, size_t memory_increment,
    MHD_AcceptPolicyCallback accept, void *accept_cls,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    napkin_uri_log_cb uri_log, void *uri_log_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls)
{
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *addr;
    unsigned int flags = (epoll ? MHD_USE_EPOLL : 0) | MHD_ALLOW_SUSPEND_RESUME;
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)timeout_seconds, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_INCREMENT, (intptr_t)memory_increment, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, uri_log_cls},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, notify_cls},
        {MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)napkin_identity_unescape, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    if (listen_fd >= 0) {
        int fl = fcntl(listen_fd, F_GETFL);
        if (fl < 0 || fcntl(listen_fd, F_SETFL, fl | O_NONBLOCK) != 0) return NULL;
        return MHD_start_daemon(flags, port, accept, accept_cls, handler, handler_cls,
            MHD_OPTION_LISTEN_SOCKET, listen_fd, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    }
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        addr = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        addr = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        errno = EINVAL;
        return NULL;
    }
    return MHD_start_daemon(flags, port, accept, accept_cls, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, addr, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The daemon's listening socket, or -1. */
static inline int napkin_daemon_listen_fd(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_LISTEN_FD);
    return info == NULL ? -1 : (int)info->listen_fd;
}

/* The daemon's epoll descriptor, readable when MHD_run has work; -1 if none. */
static inline int napkin_daemon_epoll_fd(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

/* For a daemon started without epoll: writes a pollfd for each descriptor
   MHD_run would look at into fds (room for `capacity`) and returns how many,
   or -1 when libmicrohttpd cannot list them or they do not fit. The
   listening socket is left out while the daemon holds `limit` connections,
   as libmicrohttpd's own select loop does, so that a full daemon does not
   spin on a connection it will not accept. */
static inline int napkin_daemon_poll_fds(struct MHD_Daemon *d, unsigned int limit, struct pollfd *fds, int capacity) {
    fd_set r, w, e;
    MHD_socket max = -1;
    int fd, n = 0, listen_fd = -1;
    const union MHD_DaemonInfo *info;
    FD_ZERO(&r);
    FD_ZERO(&w);
    FD_ZERO(&e);
    if (MHD_get_fdset(d, &r, &w, &e, &max) != MHD_YES) return -1;
    info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    if (info != NULL && info->num_connections >= limit) listen_fd = napkin_daemon_listen_fd(d);
    for (fd = 0; fd <= max; fd++) {
        short events = 0;
        if (FD_ISSET(fd, &r) && fd != listen_fd) events |= POLLIN;
        if (FD_ISSET(fd, &w)) events |= POLLOUT;
        if (FD_ISSET(fd, &e)) events |= POLLPRI;
        if (events == 0) continue;
        if (n == capacity) return -1;
        fds[n].fd = fd;
        fds[n].events = events;
        fds[n].revents = 0;
        n++;
    }
    return n;
}

/* Runs a daemon started without epoll on what poll found in the `count`
   entries napkin_daemon_poll_fds listed (MHD_run would select again). A
   connection resumed since the listing is in none of the sets, so
   libmicrohttpd first lets it take its answer, as the epoll loop does,
   rather than reading on its behalf the end of a client that half-closed.
   A hang-up or error counts as ready for whatever the descriptor waited. */
static inline void napkin_daemon_run_polled(struct MHD_Daemon *d, const struct pollfd *fds, int count) {
    fd_set r, w, e;
    int i;
    FD_ZERO(&r);
    FD_ZERO(&w);
    FD_ZERO(&e);
    for (i = 0; i < count; i++) {
        short ready = fds[i].revents;
        if (ready == 0) continue;
        if ((fds[i].events & POLLIN) && (ready & (POLLIN | POLLHUP | POLLERR))) FD_SET(fds[i].fd, &r);
        if ((fds[i].events & POLLOUT) && (ready & (POLLOUT | POLLHUP | POLLERR))) FD_SET(fds[i].fd, &w);
        if ((fds[i].events & POLLPRI) && (ready & POLLPRI)) FD_SET(fds[i].fd, &e);
    }
    MHD_run_from_select(d, &r, &w, &e);
}

/* The most descriptors napkin_daemon_poll_fds can list: a select set's size. */
static inline int napkin_poll_fds_capacity(void) {
    return FD_SETSIZE;
}

/* How long the loop may wait before it must call MHD_run: milliseconds, 0 when
   work is pending, -1 for as long as nothing happens. */
static inline int napkin_daemon_wait_ms(struct MHD_Daemon *d) {
    MHD_UNSIGNED_LONG_LONG ms = 0;
    if (MHD_get_timeout(d, &ms) != MHD_YES) return -1;
    return ms > 60000 ? 60000 : (int)ms;
}

/* The client's IP address (no port) as 16 bytes, IPv4 as IPv4-mapped IPv6;
   returns 0 when the address is of another family. */
static inline int napkin_address_key(const struct sockaddr *a, uint64_t *high, uint64_t *low) {
    unsigned char bytes[16];
    if (a == NULL) return 0;
    if (a->sa_family == AF_INET) {
        memset(bytes, 0, 10);
        bytes[10] = 0xff;
        bytes[11] = 0xff;
        memcpy(bytes + 12, &((const struct sockaddr_in *)a)->sin_addr, 4);
    } else if (a->sa_family == AF_INET6) {
        memcpy(bytes, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
    } else {
        return 0;
    }
    memcpy(high, bytes, 8);
    memcpy(low, bytes + 8, 8);
    return 1;
}

/* napkin_address_key of a connection's client. */
static inline int napkin_connection_address_key(struct MHD_Connection *c, uint64_t *high, uint64_t *low) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? 0 : napkin_address_key(info->client_addr, high, low);
}

/* Bytes of the request's head (request line and header fields) as received; 0 if unknown. */
static inline size_t napkin_request_head_size(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/* The connection's socket, or -1. */
static inline int napkin_connection_fd(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

/* A hang-up watch (see HangUpWatch.swift): an epoll set of sockets, each
   watched for its peer leaving (EPOLLRDHUP; a reset or error comes too) and
   for nothing else, so a client that sends bytes does not make it ready.
   A socket is reported once (EPOLLONESHOT) and stays in the set, disarmed,
   until napkin_hangup_watch_remove. -1 where there is no epoll. */
static inline int napkin_hangup_watch_create(void) {
#if defined(__linux__)
    return epoll_create1(EPOLL_CLOEXEC);
#else
    return -1;
#endif
}

/* Watches `fd` in `watch` (armed = 0), or arms it again after the watch
   reported it (armed = 1: reported again at once while its peer's end is
   still there); 0, or -1 with errno set. */
static inline int napkin_hangup_watch_arm(int watch, int fd, int armed) {
#if defined(__linux__)
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLRDHUP | EPOLLONESHOT;
    event.data.fd = fd;
    return epoll_ctl(watch, armed ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
#else
    (void)watch; (void)fd; (void)armed;
    errno = ENOSYS;
    return -1;
#endif
}

/* Watches `fd` in `watch`; 0, or -1 with errno set. */
static inline int napkin_hangup_watch_add(int watch, int fd) {
    return napkin_hangup_watch_arm(watch, fd, 0);
}

/* Stops watching `fd`, before it is closed. */
static inline void napkin_hangup_watch_remove(int watch, int fd) {
#if defined(__linux__)
    (void)epoll_ctl(watch, EPOLL_CTL_DEL, fd, NULL);
#else
    (void)watch; (void)fd;
#endif
}

/* Writes up to `capacity` (at most 64) sockets whose peer left into `fds`,
   without waiting; returns how many. */
static inline int napkin_hangup_watch_take(int watch, int *fds, int capacity) {
#if defined(__linux__)
    struct epoll_event events[64];
    int i, n = epoll_wait(watch, events, capacity < 64 ? capacity : 64, 0);
    for (i = 0; i < n; i++) fds[i] = events[i].data.fd;
    return n < 0 ? 0 : n;
#else
    (void)watch; (void)fds; (void)capacity;
    return 0;
#endif
}

/* Makes the kernel end `fd`'s connection when what was written to it goes
   unacknowledged for `ms` milliseconds (TCP_USER_TIMEOUT, 18 in Linux's
   <netinet/tcp.h>, which is not included here: it would hide IPPROTO_TCP
   from Swift): a client that vanished without a word. 0 restores the
   system's default. Linux only. */
static inline void napkin_set_unacknowledged_limit(int fd, unsigned int ms) {
#if defined(__linux__)
    (void)setsockopt(fd, IPPROTO_TCP, 18, &ms, sizeof ms);
#else
    (void)fd; (void)ms;
#endif
}

/* poll's flag for a peer that shut down its sending side, where there is
   one (Linux), else 0. glibc defines POLLRDHUP only for _GNU_SOURCE. */
static inline short napkin_poll_rdhup(void) {
#if defined(POLLRDHUP)
    return POLLRDHUP;
#elif defined(__linux__) && !defined(__sparc__)
    return 0x2000;
#else
    return 0;
#endif
}

/* The port the daemon is bound to (useful after binding port 0); 0 if unknown. */
static inline uint16_t napkin_daemon_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* Writes "host:port" of the client into buf; returns the length written (0 if unknown). */
static inline int napkin_peer(struct MHD_Connection *c, char *buf, size_t len) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char host[INET6_ADDRSTRLEN];
    if (info == NULL || info->client_addr == NULL) return 0;
    if (info->client_addr->sa_family == AF_INET) {
        /* Formatted by hand: this runs on every request and snprintf is the slow part. */
        const struct sockaddr_in *a = (const struct sockaddr_in *)info->client_addr;
        const unsigned char *b = (const unsigned char *)&a->sin_addr;
        unsigned int port = ntohs(a->sin_port), i;
        char tmp[8];
        int n = 0, t;
        if (len < 22) return 0;
        for (i = 0; i < 4; i++) {
            unsigned int v = b[i];
            if (v >= 100) buf[n++] = (char)('0' + v / 100);
            if (v >= 10) buf[n++] = (char)('0' + (v / 10) % 10);
            buf[n++] = (char)('0' + v % 10);
            buf[n++] = i < 3 ? '.' : ':';
        }
        t = 0;
        do { tmp[t++] = (char)('0' + port % 10); port /= 10; } while (port > 0);
        while (t > 0) buf[n++] = tmp[--t];
        buf[n] = 0;
        return n;
    }
    if (info->client_addr->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)info->client_addr;
        if (inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host) == NULL) return 0;
        return snprintf(buf, len, "[%s]:%u", host, (unsigned)ntohs(a->sin6_port));
    }
    return 0;
}

/* Stops accepting new connections; returns the listening socket (the caller closes it after stop), or -1. */
static inline int napkin_quiesce(struct MHD_Daemon *d) {
    return (int)MHD_quiesce_daemon(d);
}

/* The allocator's controls, which Swift's Glibc module does not export:
   pin glibc's mmap threshold (so large freed blocks are unmapped at once),
   and hand whole free pages back to the system. No-ops elsewhere. */
static inline void napkin_pin_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
#endif
}

/* Hands free pages back: glibc's arenas, and, in a process that links
   jemalloc (napkin's executables do), every jemalloc arena ("arena.4096" is
   all of them). jemalloc is found at run time, so the library links neither. */
static inline void napkin_malloc_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
    typedef int (*napkin_mallctl_fn)(const char *, void *, size_t *, void *, size_t);
    /* A null handle is RTLD_DEFAULT: the process's global symbols. */
    void *symbol = dlsym((void *)0, "mallctl");
    if (symbol != NULL) ((napkin_mallctl_fn)symbol)("arena.4096.purge", NULL, NULL, NULL, 0);
}

#endif
