#ifndef NAPKIN_CHIREDIS_SHIM_H
#define NAPKIN_CHIREDIS_SHIM_H
/* Debian's libhiredis, synchronous API only: NapkinRedis runs each
   connection's blocking calls on a thread of its own.

   The target names no pkgConfig: hiredis.pc adds -D_FILE_OFFSET_BITS=64,
   which SwiftPM refuses with a warning on every build. The header sits on the
   default include path as <hiredis/hiredis.h>, and module.modulemap links
   the library. */
#if !__has_include(<hiredis/hiredis.h>)
#error "hiredis is not installed: run scripts/setup (it installs libhiredis-dev)"
#endif
#include <sys/time.h>
#include <hiredis/hiredis.h>
#endif
