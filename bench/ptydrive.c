/* notif's pseudo-terminal driver for `make bench`. Starts a program on an 80x24 pty and
   measures, with no interpreter in the way:
     ptydrive first-frame TEXT -- CMD...       seconds from fork to TEXT in the output
     ptydrive keys TEXT PRELUDE KEY N -- CMD... after TEXT, the PRELUDE keys (separated by |,
                                               each written whole), then N presses of KEY:
                                               "bytes latency" for each press
     ptydrive idle TEXT SECONDS -- CMD...      after TEXT (and 300 ms of quiet), the CPU clock
                                               ticks the program uses while waiting SECONDS
     ptydrive rss TEXT -- CMD...               the program's peak resident memory (KiB) once
                                               TEXT shows and it has settled
     ptydrive exit TEXT KEY -- CMD...          after TEXT (and 300 ms of quiet), seconds from
                                               writing KEY until the program has exited
   Keys are escape strings: "\x1bOB" (Down in keypad mode), " " (Space), "\r" (Enter).
   A key's bytes are everything the program writes until it is quiet for 200 ms; its latency
   is from writing the key to the first byte back. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char buffer[1 << 20];
static size_t used;

/* Reads until `needle` shows in everything read so far, or `deadline`. */
static int read_until(int fd, const char *needle, double deadline) {
    for (;;) {
        if (memmem(buffer, used, needle, strlen(needle))) return 1;
        int wait = (int)((deadline - now()) * 1000);
        if (wait <= 0) return 0;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, wait) <= 0) continue;
        ssize_t n = read(fd, buffer + used, sizeof buffer - used - 1);
        if (n <= 0) return 0;
        used += (size_t)n;
    }
}

/* Reads until quiet for `quiet_ms`; returns the bytes and sets *first to when the first came. */
static size_t drain(int fd, int quiet_ms, double *first) {
    size_t total = 0;
    char chunk[65536];
    *first = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, quiet_ms) <= 0) return total;
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n <= 0) return total;
        if (total == 0) *first = now();
        total += (size_t)n;
    }
}

/* utime + stime of `pid`, in clock ticks, from /proc/PID/stat. */
static long cpu_ticks(pid_t pid) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char *p = strrchr(text, ')');
    if (!p) return -1;
    long utime = 0, stime = 0;
    /* fields after the command: state(3) ... utime(14) stime(15) */
    int field = 2;
    for (char *t = strtok(p + 1, " "); t; t = strtok(NULL, " ")) {
        field++;
        if (field == 14) utime = atol(t);
        if (field == 15) { stime = atol(t); break; }
    }
    return utime + stime;
}

static size_t unescape(const char *in, char *out) {
    size_t n = 0;
    for (const char *c = in; *c; c++) {
        if (*c == '\\' && c[1] == 'x' && c[2] && c[3]) {
            char hex[3] = {c[2], c[3], 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            c += 3;
        } else if (*c == '\\' && c[1] == 'r') {
            out[n++] = '\r';
            c++;
        } else {
            out[n++] = *c;
        }
    }
    return n;
}

int main(int argc, char **argv) {
    int split = 0;
    for (int i = 1; i < argc; i++) if (strcmp(argv[i], "--") == 0) { split = i; break; }
    if (argc < 4 || split == 0 || split + 1 >= argc || (strcmp(argv[1], "keys") == 0 && split != 6)
        || (strcmp(argv[1], "exit") == 0 && split != 4)) {
        fprintf(stderr, "usage: ptydrive first-frame TEXT -- CMD... | ptydrive keys TEXT PRELUDE KEY N -- CMD... | ptydrive exit TEXT KEY -- CMD...\n");
        return 2;
    }
    struct winsize size = {24, 80, 0, 0};
    int fd;
    double start = now();
    pid_t pid = forkpty(&fd, NULL, NULL, &size);
    if (pid < 0) { perror("forkpty"); return 1; }
    if (pid == 0) {
        execvp(argv[split + 1], argv + split + 1);
        _exit(127);
    }
    int ok = read_until(fd, argv[2], start + 10);
    if (!ok) {
        buffer[used] = 0;
        fprintf(stderr, "ptydrive: '%s' never appeared; output: %.300s\n", argv[2], used > 300 ? buffer + used - 300 : buffer);
        kill(pid, SIGKILL);
        return 1;
    }
    if (strcmp(argv[1], "first-frame") == 0) {
        printf("%.6f\n", now() - start);
    } else if (strcmp(argv[1], "idle") == 0) {
        double first;
        drain(fd, 300, &first);
        long before = cpu_ticks(pid);
        double until = now() + atof(argv[3]);
        while (now() < until) drain(fd, (int)((until - now()) * 1000) + 1, &first);
        printf("%ld\n", cpu_ticks(pid) - before);
    } else if (strcmp(argv[1], "exit") == 0) {
        char key[64];
        size_t length = unescape(argv[3], key);
        double first;
        drain(fd, 300, &first);
        double sent = now();
        if (write(fd, key, length) != (ssize_t)length) { perror("write"); return 1; }
        int status;
        /* Keep reading so the program never blocks on a full pty while it restores the terminal. */
        while (waitpid(pid, &status, WNOHANG) == 0) {
            struct pollfd p = {fd, POLLIN, 0};
            if (poll(&p, 1, 1) > 0) {
                char chunk[4096];
                if (read(fd, chunk, sizeof chunk) <= 0) { waitpid(pid, &status, 0); break; }
            }
            if (now() - sent > 30) { kill(pid, SIGKILL); fprintf(stderr, "ptydrive: no exit in 30 s\n"); return 1; }
        }
        printf("%.6f\n", now() - sent);
        return 0;
    } else if (strcmp(argv[1], "rss") == 0) {
        double first;
        drain(fd, 300, &first);
        kill(pid, SIGTERM);
        drain(fd, 200, &first);
        struct rusage usage;
        int status;
        wait4(pid, &status, 0, &usage);
        printf("%ld\n", usage.ru_maxrss);
        return 0;
    } else {
        char key[64], prelude[256];
        size_t prelude_length = unescape(argv[3], prelude);
        size_t length = unescape(argv[4], key);
        int presses = atoi(argv[5]);
        double first;
        drain(fd, 300, &first); /* let start-up work finish */
        for (size_t i = 0, begin = 0; i <= prelude_length; i++) {
            if (i < prelude_length && prelude[i] != '|') continue;
            if (i > begin) {
                if (write(fd, prelude + begin, i - begin) != (ssize_t)(i - begin)) { perror("write"); return 1; }
                drain(fd, 100, &first);
            }
            begin = i + 1;
        }
        for (int i = 0; i < presses; i++) {
            double sent = now();
            if (write(fd, key, length) != (ssize_t)length) { perror("write"); return 1; }
            size_t bytes = drain(fd, 200, &first);
            printf("%zu %.6f\n", bytes, first > 0 ? first - sent : -1.0);
        }
    }
    kill(pid, SIGTERM);
    double dummy;
    drain(fd, 200, &dummy);
    waitpid(pid, NULL, 0);
    return 0;
}
