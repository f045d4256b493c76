/* arch: the machine architecture this binary was built for, as `uname -m` spells it. */
#ifndef CLEARPATH_UTIL_ARCH_H
#define CLEARPATH_UTIL_ARCH_H

/*
 * Compile-time, not uname(): an arm64 build may run emulated on x86-64, and
 * remote mode must know which hosts can run this very file.
 */
#if defined(__x86_64__)
#define CLEARPATH_MACHINE "x86_64"
#elif defined(__aarch64__)
#define CLEARPATH_MACHINE "aarch64"
#else
#define CLEARPATH_MACHINE "other"
#endif

#endif
