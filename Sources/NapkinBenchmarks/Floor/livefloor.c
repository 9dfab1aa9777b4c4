/* The floor for the live-users run: libmicrohttpd driven from plain C, in the
   same mode and limits as napkin's defaults (loops.h: a loop per thread,
   epoll, suspend/resume; 8 KiB pool, 256 connections an address), answering the
   steps liveusers.c takes just enough for it to go through them:
     GET /                 a page with a session cookie, a CSRF field and a login form
     POST /_napkin/action  303 with a new session cookie
     GET /_napkin/events   an event stream, held
   A ticker thread then sends every open stream one event of Rib House's pit
   patch size every 2 s: each stream's connection sleeps suspended and the
   ticker resumes it, the way napkin's streams work. What napkin adds on top
   of this (sessions, napkin trees, rendering, patches) is what the run
   measures.
   Usage: livefloor <threads>   Prints the bound port, then serves until killed. */
#define _GNU_SOURCE
#include "loops.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct stream {
    struct MHD_Connection *connection;
    struct floor_loop *loop;
    pthread_mutex_t lock;
    int suspended, pending, closed;
    struct stream *next, *prev;
};

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stream *streams;
static char event[280];
static int event_length;
static const char page[] =
    "<!doctype html><form method=\"post\" action=\"/_napkin/action\">"
    "<input type=\"hidden\" name=\"_fragment\" value=\"f0\"><input type=\"hidden\" name=\"_action\" value=\"login\">"
    "<input type=\"hidden\" name=\"_csrf\" value=\"c0\"><input name=\"name\"></form>";
static int marker;

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max) {
    struct stream *s = cls;
    (void)pos;
    pthread_mutex_lock(&s->lock);
    if (s->pending && (size_t)event_length <= max) {
        s->pending = 0;
        pthread_mutex_unlock(&s->lock);
        memcpy(buf, event, (size_t)event_length);
        return event_length;
    }
    s->suspended = 1;
    MHD_suspend_connection(s->connection);
    pthread_mutex_unlock(&s->lock);
    return 0;
}

static void release(void *cls) {
    struct stream *s = cls;
    pthread_mutex_lock(&streams_lock);
    if (s->prev) s->prev->next = s->next; else streams = s->next;
    if (s->next) s->next->prev = s->prev;
    pthread_mutex_unlock(&streams_lock);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    struct MHD_Response *r;
    enum MHD_Result ret;
    (void)cls; (void)version; (void)upload;
    if (*con_cls == NULL) { *con_cls = &marker; return MHD_YES; }
    if (*upload_size) { *upload_size = 0; return MHD_YES; }
    if (strcmp(method, "POST") == 0) {
        r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(r, "Location", "/");
        MHD_add_response_header(r, "Set-Cookie", "napkin_session=s1; Path=/; HttpOnly; SameSite=Lax");
        ret = MHD_queue_response(c, 303, r);
    } else if (strcmp(url, "/_napkin/events") == 0) {
        struct stream *s = calloc(1, sizeof *s);
        s->connection = c;
        s->loop = floor_current;
        pthread_mutex_init(&s->lock, NULL);
        pthread_mutex_lock(&streams_lock);
        s->next = streams;
        if (streams) streams->prev = s;
        streams = s;
        pthread_mutex_unlock(&streams_lock);
        r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 256, reader, s, release);
        MHD_add_response_header(r, "Content-Type", "text/event-stream; charset=utf-8");
        MHD_add_response_header(r, "Cache-Control", "no-cache");
        ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    } else {
        r = MHD_create_response_from_buffer(sizeof page - 1, (void *)page, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(r, "Content-Type", "text/html; charset=utf-8");
        MHD_add_response_header(r, "Set-Cookie", "napkin_session=s0; Path=/; HttpOnly; SameSite=Lax");
        ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    }
    MHD_destroy_response(r);
    return ret;
}

static void *ticker(void *arg) {
    (void)arg;
    for (int tick = 1;; tick++) {
        sleep(2);
        event_length = snprintf(event, sizeof event,
                                "id: %d\nevent: patch\ndata: {\"id\":\"f1a2b3c4d5e6\",\"html\":\"<p class=\\\"pit-header\\\" "
                                "role=\\\"status\\\">Brisket at 203°F, two racks resting, tick %d</p>\"}\n\n", tick, tick);
        pthread_mutex_lock(&streams_lock);
        for (struct stream *s = streams; s; s = s->next) {
            pthread_mutex_lock(&s->lock);
            s->pending = 1;
            int resume = s->suspended;
            s->suspended = 0;
            if (resume) {
                MHD_resume_connection(s->connection);
                floor_wake(s->loop);
            }
            pthread_mutex_unlock(&s->lock);
        }
        pthread_mutex_unlock(&streams_lock);
    }
    return NULL;
}

int main(int argc, char **argv) {
    struct MHD_Daemon *d;
    pthread_t thread;
    if (argc < 2) { fprintf(stderr, "usage: livefloor threads\n"); return 2; }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    signal(SIGPIPE, SIG_IGN);
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, 8192, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, 9000, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, 256, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, 30, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    struct floor_loop *loops = floor_start(atoi(argv[1]), handler, options);
    d = loops ? loops[0].daemon : NULL;
    if (d == NULL) { fprintf(stderr, "cannot start\n"); return 1; }
    pthread_create(&thread, NULL, ticker, NULL);
    printf("%u\n", (unsigned)MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT)->port);
    fflush(stdout);
    for (;;) pause();
}
