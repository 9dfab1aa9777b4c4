#ifndef NAPKIN_CMICROHTTPD_SHIM_H
#define NAPKIN_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <errno.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* MHD_start_daemon and MHD_get_*_info are variadic, which Swift cannot call.
   These small non-variadic wrappers are the only C napkin needs. */

typedef void *(*napkin_uri_log_cb)(void *cls, const char *uri, struct MHD_Connection *con);

/* An unescape callback that leaves the text as sent: napkin decodes paths and
   queries itself (from the raw URI) so that %2f, %00 and friends stay visible. */
static inline size_t napkin_identity_unescape(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls; (void)c;
    return strlen(s);
}

/* Starts a daemon in thread-pool + poll mode with suspend/resume enabled.
   Returns NULL (with errno set where the OS said why) when it cannot start. */
static inline struct MHD_Daemon *napkin_start_daemon(
    const char *host, uint16_t port, unsigned int threads,
    unsigned int connection_limit, unsigned int per_ip_limit,
    unsigned int timeout_seconds, size_t memory_limit, size_t memory_increment,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    napkin_uri_log_cb uri_log, void *uri_log_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls)
{
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *addr;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME;
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
    if (threads < 1) threads = 1;
    if (threads == 1) {
        return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
            MHD_OPTION_SOCK_ADDR, addr,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
            MHD_OPTION_CONNECTION_MEMORY_INCREMENT, memory_increment,
            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
            MHD_OPTION_UNESCAPE_CALLBACK, napkin_identity_unescape, NULL,
            MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_CONNECTION_MEMORY_INCREMENT, memory_increment,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
        MHD_OPTION_UNESCAPE_CALLBACK, napkin_identity_unescape, NULL,
        MHD_OPTION_END);
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

/* glibc's allocator controls, which Swift's Glibc module does not export:
   pin the mmap threshold (so large freed blocks are unmapped at once), and
   hand whole free pages back to the system. No-ops elsewhere. */
static inline void napkin_pin_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
#endif
}

static inline void napkin_malloc_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

#endif
