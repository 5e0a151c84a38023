/*
 * interpose.c: counts the durability-related libc calls of a program (fsync,
 * fdatasync, fcntl by command, sync_file_range, syncfs, sync, msync, writes,
 * ftruncate, fallocate, and opens that ask for O_DSYNC, O_SYNC or O_DIRECT), each attributed to the
 * file behind its descriptor. ftruncate and fallocate are counted too: the
 * first commits a transaction in journal_mode=TRUNCATE.
 *
 * durabench builds this file at run time with the system C compiler and
 * loads it into the traced program: with LD_PRELOAD on Linux, where each
 * wrapper is exported under the libc name and calls the next definition
 * (dlsym(RTLD_NEXT)); with DYLD_INSERT_LIBRARIES on macOS, where dyld's
 * __DATA,__interpose table swaps the wrappers in, and calls made from this
 * image still reach the originals.
 *
 * The counts live in a file that durabench creates and names in the
 * environment variable DURABENCH_INTERPOSE_FILE. Every process that loads
 * the library maps it shared and adds to it atomically on every call, so
 * the counts of every process, thread and child are complete the moment a
 * call returns: nothing waits for an exit hook (Go programs exit without
 * running library destructors, and a crashed program runs none).
 *
 * The layout below is read by ../layout.go; keep the two in step. durabench
 * writes the header (magic, size, version and the array sizes) before the
 * program starts, and a library that finds a different layout counts
 * nothing and says so in bad_layout.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#define DB_ENV "DURABENCH_INTERPOSE_FILE"
#define DB_MAGIC 0x65736f707265746eULL /* "nterpose" */
#define DB_VERSION 1

/* The calls counted, by index into counters.calls. */
enum {
	C_FSYNC,
	C_FDATASYNC,
	C_SYNC_FILE_RANGE,
	C_SYNCFS,
	C_SYNC,
	C_MSYNC,
	C_FCNTL, /* also split by command in counters.fcntl */
	C_WRITE,
	C_PWRITE, /* pwrite64 on Linux */
	C_WRITEV,
	C_PWRITEV,
	C_PWRITEV2,
	C_FTRUNCATE,
	C_FALLOCATE,
	N_CALLS = 16
};

/* fcntl commands by index: 0-191 are themselves, 1024-1086 (Linux's leases,
 * pipes and seals) are 192-254, anything else is 255. */
#define N_FCNTL 256
/* Opens counted by the durability flag they asked for. */
enum { OF_DSYNC, OF_SYNC, OF_DIRECT, N_OPENFLAGS = 4 };
#define N_FILES 256
#define PATH_LEN 1024

struct counters {
	uint64_t calls[N_CALLS];
	uint64_t fcntl[N_FCNTL];
	uint64_t open_flags[N_OPENFLAGS];
	uint64_t write_bytes;
};

/* A file slot: state 0 is free, 1 is being named (by any process), 2 is
 * named and read-only from then on except for the counters. */
struct file {
	uint32_t state;
	uint32_t is_dir;
	struct counters n;
	char path[PATH_LEN];
};

struct shared {
	uint64_t magic;
	uint64_t size;
	uint32_t version, n_calls, n_fcntl, n_files, path_len;
	uint32_t window;      /* set by durabench: count only inside marked windows */
	uint32_t window_open; /* a window is open */
	uint32_t windowed;    /* a start mark was seen while window was set */
	uint32_t files_full;  /* a file found no free slot */
	uint32_t bad_layout;  /* a library found a header it does not understand */
	uint32_t processes;   /* processes that loaded the library */
	uint32_t pad;
	struct counters total;
	struct file files[N_FILES];
};

/* The window marks of syscalls/trace (MarkStartText, MarkStopText). */
static const char mark_start[] = "durabench-trace: window start\n";
static const char mark_stop[] = "durabench-trace: window stop\n";

/*
 * Calling the real functions. On Linux a wrapper is named like the function
 * it replaces, so the real one is the next definition in the lookup order,
 * found once and kept. On macOS a wrapper has its own name and the real
 * function is simply called: dyld does not interpose calls made from the
 * image that declares the interposition.
 */
#ifdef __APPLE__
#define WRAP(name) durabench_##name
#define REAL(ret, name, params)
#define CALL(name) name
#define MISSING(name, fail)
#else
#define WRAP(name) name
#define REAL(ret, name, params)                                             \
	typedef ret(*name##_fn) params;                                     \
	static name##_fn real_##name(void) {                                \
		static name##_fn fn;                                        \
		name##_fn f = __atomic_load_n(&fn, __ATOMIC_RELAXED);       \
		if (!f) {                                                   \
			f = (name##_fn)dlsym(RTLD_NEXT, #name);             \
			__atomic_store_n(&fn, f, __ATOMIC_RELAXED);         \
		}                                                           \
		return f;                                                   \
	}
#define CALL(name) real_##name()
/* A libc without the function (dlsym found nothing): fail as a kernel
 * without the call would. */
#define MISSING(name, fail)                \
	do {                               \
		if (!CALL(name)) {         \
			errno = ENOSYS;    \
			return fail;       \
		}                          \
	} while (0)
#endif

/* The shared counters, mapped once per process (children forked after that
 * inherit the mapping; programs they exec map it again). */
static struct shared *mem;
static int mem_failed;

static int open_counts_file(const char *path) {
#ifdef __linux__
	/* open() here would be this library's own wrapper. */
	return (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC);
#else
	return open(path, O_RDWR | O_CLOEXEC);
#endif
}

static struct shared *shared(void) {
	struct shared *m = __atomic_load_n(&mem, __ATOMIC_ACQUIRE);
	if (m || __atomic_load_n(&mem_failed, __ATOMIC_RELAXED))
		return m;
	const char *path = getenv(DB_ENV);
	int fd = path ? open_counts_file(path) : -1;
	if (fd < 0) {
		__atomic_store_n(&mem_failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	m = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		__atomic_store_n(&mem_failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	if (m->magic != DB_MAGIC || m->size != sizeof(struct shared) || m->version != DB_VERSION ||
	    m->n_calls != N_CALLS || m->n_fcntl != N_FCNTL || m->n_files != N_FILES || m->path_len != PATH_LEN) {
		if (m->magic == DB_MAGIC)
			__atomic_store_n(&m->bad_layout, 1, __ATOMIC_RELAXED);
		munmap(m, sizeof(struct shared));
		__atomic_store_n(&mem_failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	struct shared *expected = NULL;
	if (!__atomic_compare_exchange_n(&mem, &expected, m, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		munmap(m, sizeof(struct shared)); /* another thread won */
		m = expected;
	}
	return m;
}

/* Count the process as soon as it loads the library, so that durabench can
 * tell "no calls" from "never loaded" (static binaries, setuid programs and,
 * on macOS, SIP-protected ones ignore the preload variables). */
__attribute__((constructor)) static void loaded(void) {
	int e = errno;
	struct shared *s = shared();
	if (s)
		__atomic_fetch_add(&s->processes, 1, __ATOMIC_RELAXED);
	errno = e;
}

static void add(uint64_t *p, uint64_t n) { __atomic_fetch_add(p, n, __ATOMIC_RELAXED); }

static int fcntl_index(int cmd) {
	if (cmd >= 0 && cmd < 192)
		return cmd;
	if (cmd >= 1024 && cmd < 1024 + 63)
		return 192 + (cmd - 1024);
	return 255;
}

/* The path of descriptor fd, or 0 if it has none. */
static int fd_path(int fd, char *path) {
#ifdef __APPLE__
	return fcntl(fd, F_GETPATH, path) != -1; /* path holds MAXPATHLEN (1024) */
#else
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, PATH_LEN - 1);
	if (n < 0)
		return 0;
	path[n] = 0;
	/* An unlinked file (a deleted rollback journal) keeps its name. */
	static const char deleted[] = " (deleted)";
	size_t d = sizeof deleted - 1;
	if ((size_t)n > d && strcmp(path + n - d, deleted) == 0)
		path[n - d] = 0;
	return 1;
#endif
}

/* The counters of the file behind fd: found by path, or given a free slot.
 * Slots are claimed with a compare-and-swap, so any number of processes can
 * add files at once. */
static struct counters *file_counters(struct shared *s, int fd) {
	char path[PATH_LEN];
	if (fd < 0 || !fd_path(fd, path))
		return NULL;
	struct stat st;
	uint32_t is_dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
	for (int i = 0; i < N_FILES; i++) {
		struct file *f = &s->files[i];
		uint32_t state = __atomic_load_n(&f->state, __ATOMIC_ACQUIRE);
		if (state == 0) {
			if (__atomic_compare_exchange_n(&f->state, &state, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				strcpy(f->path, path);
				f->is_dir = is_dir;
				__atomic_store_n(&f->state, 2, __ATOMIC_RELEASE);
				return &f->n;
			}
			/* Lost the race: state now holds what the winner stored. */
		}
		/* Another process is naming this slot: a strcpy away, unless it
		 * died in between, so give up on the slot after a while. */
		for (long spin = 0; state == 1 && spin < (1L << 20); spin++)
			state = __atomic_load_n(&f->state, __ATOMIC_ACQUIRE);
		if (state == 2 && strcmp(f->path, path) == 0)
			return &f->n;
	}
	__atomic_store_n(&s->files_full, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* What a wrapper counted before its call: where to add the bytes written. */
struct counted {
	struct shared *s;
	struct counters *file;
};

/* count counts one call (with its fcntl command) on descriptor fd (-1 for
 * none), if counting is on, and leaves errno as it was. */
static struct counted count(int call, int cmd, int fd) {
	struct counted c = {NULL, NULL};
	struct shared *s = shared();
	if (!s || (s->window && !__atomic_load_n(&s->window_open, __ATOMIC_RELAXED)))
		return c;
	int e = errno;
	c.s = s;
	add(&s->total.calls[call], 1);
	if (call == C_FCNTL)
		add(&s->total.fcntl[fcntl_index(cmd)], 1);
	if (fd >= 0 && (c.file = file_counters(s, fd))) {
		add(&c.file->calls[call], 1);
		if (call == C_FCNTL)
			add(&c.file->fcntl[fcntl_index(cmd)], 1);
	}
	errno = e;
	return c;
}

/* written adds the bytes a counted write call reported. */
static void written(struct counted c, ssize_t n) {
	if (!c.s || n <= 0)
		return;
	add(&c.s->total.write_bytes, (uint64_t)n);
	if (c.file)
		add(&c.file->write_bytes, (uint64_t)n);
}

/* mark handles a window mark: a write of a mark text to descriptor -1. */
static int mark(int fd, const void *buf, size_t n) {
	if (fd != -1 || !buf)
		return 0;
	int start = n == sizeof mark_start - 1 && memcmp(buf, mark_start, n) == 0;
	int stop = n == sizeof mark_stop - 1 && memcmp(buf, mark_stop, n) == 0;
	if (!start && !stop)
		return 0;
	struct shared *s = shared();
	if (s) {
		__atomic_store_n(&s->window_open, (uint32_t)start, __ATOMIC_RELAXED);
		if (start && s->window)
			__atomic_store_n(&s->windowed, 1, __ATOMIC_RELAXED);
	}
	return 1;
}

/* opened counts an open that asked for a durability flag, on the file it
 * opened. */
static void opened(int flags, int fd) {
	int which[2], k = 0;
	if ((flags & O_SYNC) == O_SYNC)
		which[k++] = OF_SYNC;
	else if (flags & O_DSYNC)
		which[k++] = OF_DSYNC;
#ifdef O_DIRECT
	if (flags & O_DIRECT)
		which[k++] = OF_DIRECT;
#endif
	if (k == 0 || fd < 0)
		return;
	struct shared *s = shared();
	if (!s || (s->window && !__atomic_load_n(&s->window_open, __ATOMIC_RELAXED)))
		return;
	int e = errno;
	struct counters *f = file_counters(s, fd);
	for (int i = 0; i < k; i++) {
		add(&s->total.open_flags[which[i]], 1);
		if (f)
			add(&f->open_flags[which[i]], 1);
	}
	errno = e;
}

/* The wrappers. Each counts, then calls the real function. */

REAL(int, fsync, (int))
int WRAP(fsync)(int fd) {
	MISSING(fsync, -1);
	count(C_FSYNC, 0, fd);
	return CALL(fsync)(fd);
}

#ifdef __APPLE__
int fdatasync(int); /* in libSystem, not always declared */
#endif
REAL(int, fdatasync, (int))
int WRAP(fdatasync)(int fd) {
	MISSING(fdatasync, -1);
	count(C_FDATASYNC, 0, fd);
	return CALL(fdatasync)(fd);
}

REAL(void, sync, (void))
void WRAP(sync)(void) {
#ifndef __APPLE__
	if (!CALL(sync))
		return;
#endif
	count(C_SYNC, 0, -1);
	CALL(sync)();
}

REAL(int, msync, (void *, size_t, int))
int WRAP(msync)(void *addr, size_t len, int flags) {
	MISSING(msync, -1);
	count(C_MSYNC, 0, -1);
	return CALL(msync)(addr, len, flags);
}

/* fcntl's third argument is an int or a pointer: passed on as a
 * pointer-sized value, which is how every LP64 ABI passes either. When the
 * caller passed none, the value read is unused garbage. */
REAL(int, fcntl, (int, int, ...))
int WRAP(fcntl)(int fd, int cmd, ...) {
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	MISSING(fcntl, -1);
	count(C_FCNTL, cmd, fd);
	return CALL(fcntl)(fd, cmd, arg);
}

REAL(ssize_t, write, (int, const void *, size_t))
ssize_t WRAP(write)(int fd, const void *buf, size_t n) {
	MISSING(write, -1);
	if (mark(fd, buf, n))
		return CALL(write)(fd, buf, n); /* fails with EBADF, as untraced */
	struct counted c = count(C_WRITE, 0, fd);
	ssize_t r = CALL(write)(fd, buf, n);
	written(c, r);
	return r;
}

REAL(ssize_t, pwrite, (int, const void *, size_t, off_t))
ssize_t WRAP(pwrite)(int fd, const void *buf, size_t n, off_t off) {
	MISSING(pwrite, -1);
	struct counted c = count(C_PWRITE, 0, fd);
	ssize_t r = CALL(pwrite)(fd, buf, n, off);
	written(c, r);
	return r;
}

REAL(ssize_t, writev, (int, const struct iovec *, int))
ssize_t WRAP(writev)(int fd, const struct iovec *iov, int cnt) {
	MISSING(writev, -1);
	struct counted c = count(C_WRITEV, 0, fd);
	ssize_t r = CALL(writev)(fd, iov, cnt);
	written(c, r);
	return r;
}

REAL(int, ftruncate, (int, off_t))
int WRAP(ftruncate)(int fd, off_t size) {
	MISSING(ftruncate, -1);
	count(C_FTRUNCATE, 0, fd);
	return CALL(ftruncate)(fd, size);
}

/* open and openat: only the durability flags are counted (libc opens files
 * for itself through internal calls no wrapper sees, so a count of opens
 * would be incomplete). */
REAL(int, open, (const char *, int, ...))
int WRAP(open)(const char *path, int flags, ...) {
	va_list ap;
	va_start(ap, flags);
	int mode = va_arg(ap, int);
	va_end(ap);
	MISSING(open, -1);
	int fd = CALL(open)(path, flags, mode);
	opened(flags, fd);
	return fd;
}

REAL(int, openat, (int, const char *, int, ...))
int WRAP(openat)(int dirfd, const char *path, int flags, ...) {
	va_list ap;
	va_start(ap, flags);
	int mode = va_arg(ap, int);
	va_end(ap);
	MISSING(openat, -1);
	int fd = CALL(openat)(dirfd, path, flags, mode);
	opened(flags, fd);
	return fd;
}

#ifdef __linux__
/* glibc's other names for the same calls: the 64-bit-offset variants that
 * programs built with _FILE_OFFSET_BITS=64 call (libsqlite3 calls fcntl64
 * and pwrite64), and the _FORTIFY_SOURCE entry points for open. */

REAL(int, fcntl64, (int, int, ...))
int fcntl64(int fd, int cmd, ...) {
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	MISSING(fcntl64, -1);
	count(C_FCNTL, cmd, fd);
	return CALL(fcntl64)(fd, cmd, arg);
}

REAL(ssize_t, pwrite64, (int, const void *, size_t, off64_t))
ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off) {
	MISSING(pwrite64, -1);
	struct counted c = count(C_PWRITE, 0, fd);
	ssize_t r = CALL(pwrite64)(fd, buf, n, off);
	written(c, r);
	return r;
}

REAL(ssize_t, pwritev, (int, const struct iovec *, int, off_t))
ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off) {
	MISSING(pwritev, -1);
	struct counted c = count(C_PWRITEV, 0, fd);
	ssize_t r = CALL(pwritev)(fd, iov, cnt, off);
	written(c, r);
	return r;
}

REAL(ssize_t, pwritev64, (int, const struct iovec *, int, off64_t))
ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off) {
	MISSING(pwritev64, -1);
	struct counted c = count(C_PWRITEV, 0, fd);
	ssize_t r = CALL(pwritev64)(fd, iov, cnt, off);
	written(c, r);
	return r;
}

REAL(ssize_t, pwritev2, (int, const struct iovec *, int, off_t, int))
ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags) {
	MISSING(pwritev2, -1);
	struct counted c = count(C_PWRITEV2, 0, fd);
	ssize_t r = CALL(pwritev2)(fd, iov, cnt, off, flags);
	written(c, r);
	return r;
}

REAL(ssize_t, pwritev64v2, (int, const struct iovec *, int, off64_t, int))
ssize_t pwritev64v2(int fd, const struct iovec *iov, int cnt, off64_t off, int flags) {
	MISSING(pwritev64v2, -1);
	struct counted c = count(C_PWRITEV2, 0, fd);
	ssize_t r = CALL(pwritev64v2)(fd, iov, cnt, off, flags);
	written(c, r);
	return r;
}

REAL(int, ftruncate64, (int, off64_t))
int ftruncate64(int fd, off64_t size) {
	MISSING(ftruncate64, -1);
	count(C_FTRUNCATE, 0, fd);
	return CALL(ftruncate64)(fd, size);
}

REAL(int, fallocate, (int, int, off_t, off_t))
int fallocate(int fd, int mode, off_t off, off_t len) {
	MISSING(fallocate, -1);
	count(C_FALLOCATE, 0, fd);
	return CALL(fallocate)(fd, mode, off, len);
}

REAL(int, fallocate64, (int, int, off64_t, off64_t))
int fallocate64(int fd, int mode, off64_t off, off64_t len) {
	MISSING(fallocate64, -1);
	count(C_FALLOCATE, 0, fd);
	return CALL(fallocate64)(fd, mode, off, len);
}

REAL(int, sync_file_range, (int, off64_t, off64_t, unsigned int))
int sync_file_range(int fd, off64_t off, off64_t n, unsigned int flags) {
	MISSING(sync_file_range, -1);
	count(C_SYNC_FILE_RANGE, 0, fd);
	return CALL(sync_file_range)(fd, off, n, flags);
}

REAL(int, syncfs, (int))
int syncfs(int fd) {
	MISSING(syncfs, -1);
	count(C_SYNCFS, 0, fd);
	return CALL(syncfs)(fd);
}

REAL(int, open64, (const char *, int, ...))
int open64(const char *path, int flags, ...) {
	va_list ap;
	va_start(ap, flags);
	int mode = va_arg(ap, int);
	va_end(ap);
	MISSING(open64, -1);
	int fd = CALL(open64)(path, flags, mode);
	opened(flags, fd);
	return fd;
}

REAL(int, openat64, (int, const char *, int, ...))
int openat64(int dirfd, const char *path, int flags, ...) {
	va_list ap;
	va_start(ap, flags);
	int mode = va_arg(ap, int);
	va_end(ap);
	MISSING(openat64, -1);
	int fd = CALL(openat64)(dirfd, path, flags, mode);
	opened(flags, fd);
	return fd;
}

REAL(int, __open_2, (const char *, int))
int __open_2(const char *path, int flags) {
	MISSING(__open_2, -1);
	int fd = CALL(__open_2)(path, flags);
	opened(flags, fd);
	return fd;
}

REAL(int, __open64_2, (const char *, int))
int __open64_2(const char *path, int flags) {
	MISSING(__open64_2, -1);
	int fd = CALL(__open64_2)(path, flags);
	opened(flags, fd);
	return fd;
}

REAL(int, __openat_2, (int, const char *, int))
int __openat_2(int dirfd, const char *path, int flags) {
	MISSING(__openat_2, -1);
	int fd = CALL(__openat_2)(dirfd, path, flags);
	opened(flags, fd);
	return fd;
}

REAL(int, __openat64_2, (int, const char *, int))
int __openat64_2(int dirfd, const char *path, int flags) {
	MISSING(__openat64_2, -1);
	int fd = CALL(__openat64_2)(dirfd, path, flags);
	opened(flags, fd);
	return fd;
}
#endif /* __linux__ */

#ifdef __APPLE__
/* dyld reads this section of every inserted image and sends calls to each
 * replacee, from every other image, to its replacement. */
#define INTERPOSE(name) {(const void *)&durabench_##name, (const void *)&name}
__attribute__((used)) static struct {
	const void *replacement;
	const void *replacee;
} interposers[] __attribute__((section("__DATA,__interpose"))) = {
	INTERPOSE(fsync), INTERPOSE(fdatasync), INTERPOSE(sync),   INTERPOSE(msync),
	INTERPOSE(fcntl), INTERPOSE(write),     INTERPOSE(pwrite), INTERPOSE(writev),
	INTERPOSE(open),  INTERPOSE(openat),    INTERPOSE(ftruncate),
};
#endif
