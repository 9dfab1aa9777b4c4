/* The floor for napkin's HTTP benchmark: libmicrohttpd driven from plain C, in
   the same threading mode as NapkinHTTP (loops.h: a loop per thread, epoll,
   suspend/resume enabled) and with the same per-connection memory pool.
   Usage: hello <threads> <memory-limit> <static-file>
   Prints the bound port, then serves until killed:
     /static/...  the given file (read per request, sent from the fd)
     /memory/...  the same file's bytes, read once at start
     anything else  "Hello, World!" as text/plain */
#include "loops.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_path;
static char *file_bytes;
static size_t file_size;
static const char hello[] = "Hello, World!";

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    static int marker;
    struct MHD_Response *r;
    enum MHD_Result ret;
    (void)cls; (void)method; (void)version; (void)upload; (void)upload_size;
    if (*con_cls == NULL) { *con_cls = &marker; return MHD_YES; }
    if (strncmp(url, "/static/", 8) == 0) {
        struct stat st;
        int fd = open(file_path, O_RDONLY);
        if (fd < 0 || fstat(fd, &st) != 0) { if (fd >= 0) close(fd); return MHD_NO; }
        r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
        MHD_add_response_header(r, "Content-Type", "text/javascript; charset=utf-8");
        MHD_add_response_header(r, "Cache-Control", "public, max-age=300");
    } else if (strncmp(url, "/memory/", 8) == 0) {
        r = MHD_create_response_from_buffer(file_size, file_bytes, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(r, "Content-Type", "text/javascript; charset=utf-8");
        MHD_add_response_header(r, "Cache-Control", "public, max-age=300");
    } else {
        r = MHD_create_response_from_buffer(sizeof hello - 1, (void *)hello, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
    }
    ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: hello threads memory-limit file\n"); return 2; }
    file_path = argv[3];
    FILE *file = fopen(file_path, "rb");
    if (file == NULL) { fprintf(stderr, "cannot read %s\n", file_path); return 1; }
    fseek(file, 0, SEEK_END);
    file_size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    file_bytes = malloc(file_size ? file_size : 1);
    if (fread(file_bytes, 1, file_size, file) != file_size) { fprintf(stderr, "cannot read %s\n", file_path); return 1; }
    fclose(file);
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)atol(argv[2]), NULL},
        {MHD_OPTION_CONNECTION_LIMIT, 4096, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, 30, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    return floor_serve(atoi(argv[1]), handler, options);
}
