/* The upload floor: libmicrohttpd receiving a body into a file, from plain C,
   in the same threading mode as NapkinHTTP (loops.h) and with the same
   per-connection memory pool. It writes what each read of the body brings
   through a 64 KiB buffer, as napkin's uploads do, and answers the bytes it
   wrote. Usage: upload <threads> <memory-limit> <directory>
   Prints the bound port, then serves until killed: any PUT or POST writes
   its body to a new file in <directory>, removed once answered. */
#include "loops.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUFFER_BYTES (64 * 1024)

static const char *directory;

struct upload {
    int fd;
    char path[4096];
    size_t buffered;
    unsigned long long written;
    char buffer[BUFFER_BYTES];
};

static int flush_upload(struct upload *u) {
    size_t done = 0;
    while (done < u->buffered) {
        ssize_t n = write(u->fd, u->buffer + done, u->buffered - done);
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    u->written += u->buffered;
    u->buffered = 0;
    return 0;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *data, size_t *size, void **con_cls) {
    struct upload *u = *con_cls;
    (void)cls; (void)url; (void)method; (void)version;
    if (u == NULL) {
        u = malloc(sizeof *u);
        if (u == NULL) return MHD_NO;
        snprintf(u->path, sizeof u->path, "%s/upload-XXXXXX", directory);
        u->fd = mkstemp(u->path);
        if (u->fd < 0) { free(u); return MHD_NO; }
        u->buffered = 0;
        u->written = 0;
        *con_cls = u;
        return MHD_YES;
    }
    if (*size > 0) {
        const char *bytes = data;
        size_t left = *size;
        while (left > 0) {
            size_t room = BUFFER_BYTES - u->buffered;
            size_t take = left < room ? left : room;
            memcpy(u->buffer + u->buffered, bytes, take);
            u->buffered += take;
            bytes += take;
            left -= take;
            if (u->buffered == BUFFER_BYTES && flush_upload(u) != 0) return MHD_NO;
        }
        *size = 0;
        return MHD_YES;
    }
    if (flush_upload(u) != 0) return MHD_NO;
    char answer[32];
    int length = snprintf(answer, sizeof answer, "%llu", u->written);
    struct MHD_Response *r = MHD_create_response_from_buffer((size_t)length, answer, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode code) {
    struct upload *u = *con_cls;
    (void)cls; (void)c; (void)code;
    if (u == NULL) return;
    close(u->fd);
    unlink(u->path);
    free(u);
    *con_cls = NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: upload threads memory-limit directory\n"); return 2; }
    directory = argv[3];
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)atol(argv[2]), NULL},
        {MHD_OPTION_CONNECTION_LIMIT, 4096, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, 30, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    return floor_serve(atoi(argv[1]), handler, options);
}
