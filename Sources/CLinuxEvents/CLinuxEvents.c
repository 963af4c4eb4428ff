#define _GNU_SOURCE   /* posix_spawn_file_actions_addclosefrom_np */
#include "CLinuxEvents.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int notif_realtime_timer_create(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int notif_realtime_timer_arm(int fd, int64_t seconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (seconds < 0) return timerfd_settime(fd, 0, &spec, NULL);
    /* 0 would disarm: the epoch itself is as good as "at once". */
    spec.it_value.tv_sec = seconds > 0 ? (time_t)seconds : 1;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int notif_realtime_timer_read(int fd) {
    uint64_t expirations = 0;
    for (;;) {
        ssize_t n = read(fd, &expirations, sizeof expirations);
        if (n == (ssize_t)sizeof expirations) return NOTIF_TIMER_EXPIRED;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return NOTIF_TIMER_NOTHING;
        if (n < 0 && errno == ECANCELED) return NOTIF_TIMER_CLOCK_SET;
        return NOTIF_TIMER_ERROR;
    }
}

int notif_stop_signals_fd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int notif_stop_signals_read(int fd) {
    struct signalfd_siginfo info;
    for (;;) {
        ssize_t n = read(fd, &info, sizeof info);
        if (n == (ssize_t)sizeof info) return (int)info.ssi_signo;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return 0;
        return -1;
    }
}

int notif_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

static int end_signal_pipe[2] = {-1, -1};
static struct sigaction kept_term, kept_hangup;

static void record_end_signal(int sig) {
    int saved = errno;
    unsigned char number = (unsigned char)sig;
    ssize_t written = write(end_signal_pipe[1], &number, 1);
    (void)written;   /* a full pipe already holds signals enough */
    errno = saved;
}

int notif_end_signals_catch(void) {
    if (end_signal_pipe[0] < 0 && pipe2(end_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    unsigned char stale[64];
    while (read(end_signal_pipe[0], stale, sizeof stale) > 0) {}
    struct sigaction record;
    memset(&record, 0, sizeof record);
    record.sa_handler = record_end_signal;
    sigemptyset(&record.sa_mask);
    record.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &record, &kept_term);
    sigaction(SIGHUP, &record, &kept_hangup);
    return end_signal_pipe[0];
}

void notif_end_signals_release(void) {
    sigaction(SIGTERM, &kept_term, NULL);
    sigaction(SIGHUP, &kept_hangup, NULL);
}

int notif_pidfd_open(int pid) {
    return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
}
