/*
 * Payloads for the jail's execution oracle (test/attack/jail-escapes.test.ts), compiled with cc at
 * test time. Each mode tries one way out and prints what the kernel answered; the test decides by
 * what arrived outside (a listener, a keyring, a lock), not by what this prints.
 *
 *   uring-unix PATH   an AF_UNIX socket made by io_uring (IORING_OP_SOCKET), connected to PATH, written
 *   unix PATH         the same with socket(2)
 *   dgram PATH [TEXT] socketpair(AF_UNIX, SOCK_DGRAM) and sendto PATH (TEXT, default PWNED)
 *   add-key NAME      add_key("user", NAME) to the session keyring
 *   session-run NAME CMD...   join a fresh session keyring, run CMD, then say whether NAME is in it
 *   flock PATH        flock(LOCK_EX) on a read-only fd, print LOCKED, hold it until stdin closes
 *   lease PATH        fcntl(F_SETLEASE, F_RDLCK) on a read-only fd
 *   dgram-recv PATH   bind a datagram socket at PATH, print READY, then print each datagram as a line
 *   forks N           fork N children that wait; print how many forks succeeded
 *   map MIB           map MIB of memory (untouched); print MAPPED
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int uring_socket(int domain, int type) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  int fd = (int)syscall(__NR_io_uring_setup, 4, &p);
  if (fd < 0) { perror("io_uring_setup"); return -1; }
  size_t sqsz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
  size_t cqsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
  if (p.features & IORING_FEAT_SINGLE_MMAP) sqsz = cqsz = sqsz > cqsz ? sqsz : cqsz;
  char *sq = mmap(0, sqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
  char *cq = (p.features & IORING_FEAT_SINGLE_MMAP) ? sq : mmap(0, cqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
  struct io_uring_sqe *sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
  if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) { perror("mmap"); return -1; }
  unsigned *tail = (unsigned *)(sq + p.sq_off.tail), mask = *(unsigned *)(sq + p.sq_off.ring_mask);
  unsigned *array = (unsigned *)(sq + p.sq_off.array);
  unsigned t = *tail, idx = t & mask;
  struct io_uring_sqe *e = &sqes[idx];
  memset(e, 0, sizeof *e);
  e->opcode = IORING_OP_SOCKET;
  e->fd = domain;
  e->off = (unsigned long long)type;
  array[idx] = idx;
  __atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
  if (syscall(__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) { perror("io_uring_enter"); return -1; }
  unsigned head = *(unsigned *)(cq + p.cq_off.head), cmask = *(unsigned *)(cq + p.cq_off.ring_mask);
  struct io_uring_cqe *c = &((struct io_uring_cqe *)(cq + p.cq_off.cqes))[head & cmask];
  if (c->res < 0) { errno = -c->res; perror("IORING_OP_SOCKET"); return -1; }
  return c->res;
}

static struct sockaddr_un addr(const char *path) {
  struct sockaddr_un a;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  strncpy(a.sun_path, path, sizeof a.sun_path - 1);
  return a;
}

static int connect_write(int fd, const char *path) {
  struct sockaddr_un a = addr(path);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("connect"); return 1; }
  if (write(fd, "PWNED\n", 6) != 6) { perror("write"); return 1; }
  puts("SENT");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s MODE ARG\n", argv[0]); return 2; }
  const char *mode = argv[1], *arg = argv[2];
  if (!strcmp(mode, "uring-unix")) {
    int fd = uring_socket(AF_UNIX, SOCK_STREAM);
    return fd < 0 ? 1 : connect_write(fd, arg);
  }
  if (!strcmp(mode, "unix")) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) { perror("socket"); return 1; }
    return connect_write(fd, arg);
  }
  if (!strcmp(mode, "dgram")) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0) { perror("socketpair"); return 1; }
    struct sockaddr_un a = addr(arg);
    const char *text = argc > 3 ? argv[3] : "PWNED";
    if (sendto(sv[0], text, strlen(text), 0, (struct sockaddr *)&a, sizeof a) < 0) { perror("sendto"); return 1; }
    puts("SENT");
    return 0;
  }
  if (!strcmp(mode, "add-key")) {
    long id = syscall(__NR_add_key, "user", arg, "PWNED", 5, KEY_SPEC_SESSION_KEYRING);
    if (id < 0) { perror("add_key"); return 1; }
    puts("ADDED");
    return 0;
  }
  if (!strcmp(mode, "key-search")) {
    long found = syscall(__NR_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", arg, 0);
    puts(found >= 0 ? "KEY-FOUND" : "KEY-ABSENT");
    return 0;
  }
  if (!strcmp(mode, "session-run")) {
    if (argc < 4) return 2;
    if (syscall(__NR_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0) { perror("join session keyring"); return 3; }
    pid_t pid = fork();
    if (pid == 0) { execvp(argv[3], argv + 3); perror("exec"); _exit(127); }
    int st;
    waitpid(pid, &st, 0);
    long found = syscall(__NR_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", arg, 0);
    puts(found >= 0 ? "KEY-FOUND" : "KEY-ABSENT");
    return 0;
  }
  if (!strcmp(mode, "flock") || !strcmp(mode, "lease")) {
    int fd = open(arg, O_RDONLY);
    if (fd < 0) { perror("open"); return 1; }
    int r = !strcmp(mode, "flock") ? flock(fd, LOCK_EX | LOCK_NB) : fcntl(fd, F_SETLEASE, F_RDLCK);
    if (r < 0) { perror(mode); return 1; }
    puts("LOCKED");
    fflush(stdout);
    char buf[64];
    while (read(0, buf, sizeof buf) > 0) {}
    return 0;
  }
  if (!strcmp(mode, "dgram-recv")) {
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un a = addr(arg);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("bind"); return 1; }
    puts("READY");
    fflush(stdout);
    char buf[256];
    for (;;) {
      ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
      if (n < 0) { perror("recv"); return 1; }
      buf[n] = 0;
      printf("%s%s", buf, n > 0 && buf[n - 1] == '\n' ? "" : "\n");
      fflush(stdout);
    }
  }
  if (!strcmp(mode, "forks")) {
    int n = atoi(arg), ok = 0;
    int rd[2];
    if (pipe(rd) < 0) return 1;
    for (int i = 0; i < n; i++) {
      pid_t pid = fork();
      if (pid == 0) { char c; close(rd[1]); read(rd[0], &c, 1); _exit(0); }
      if (pid > 0) ok++;
    }
    close(rd[1]);
    while (wait(NULL) > 0) {}
    printf("FORKED %d\n", ok);
    return 0;
  }
  if (!strcmp(mode, "map")) {
    void *p = mmap(0, (size_t)atol(arg) << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); return 1; }
    puts("MAPPED");
    return 0;
  }
  fprintf(stderr, "unknown mode %s\n", mode);
  return 2;
}
