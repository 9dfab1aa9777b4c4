/* jemalloc's settings for napkin's executables, which link it for release
   (see Package.swift). jemalloc reads this symbol as it starts; a process
   without jemalloc never looks at it.

   oversize_threshold: an allocation of 128 KiB or more (a large request
   body, a big static file's buffer) comes from an arena that hands its pages
   back as soon as it is freed, as glibc's pinned mmap threshold does (see
   MemoryReturn in NapkinHTTP). Left at jemalloc's 8 MiB, a burst of 1 MB
   uploads kept twice the body budget resident. */
#include "NapkinJemalloc.h"

const char *malloc_conf = "oversize_threshold:131072";
