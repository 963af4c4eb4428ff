/* Linux wake-up sources Swift's Glibc module does not import: timerfd (an absolute timer on the
   real-time clock that a clock change cancels) and signalfd. notif daemon sleeps on these. And
   glibc's posix_spawn action that closes descriptors, which the module does not import either. */
#ifndef NOTIF_CLINUXEVENTS_H
#define NOTIF_CLINUXEVENTS_H

#include <spawn.h>
#include <stdint.h>

/* A non-blocking, close-on-exec timerfd on CLOCK_REALTIME; -1 with errno on failure. */
int notif_realtime_timer_create(void);

/* Arms the timer to expire at `seconds` since the epoch (real-time clock, absolute), cancelled
   when the clock is set (TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET). A negative `seconds`
   disarms it. Returns 0, or -1 with errno. */
int notif_realtime_timer_arm(int fd, int64_t seconds);

enum {
    NOTIF_TIMER_NOTHING = 0,   /* not expired yet (EAGAIN) */
    NOTIF_TIMER_EXPIRED = 1,
    NOTIF_TIMER_CLOCK_SET = 2, /* the clock was set (or the machine resumed): ECANCELED */
    NOTIF_TIMER_ERROR = -1,
};

/* Reads the timer after poll said it is readable: one of the values above. */
int notif_realtime_timer_read(int fd);

/* A non-blocking, close-on-exec signalfd for SIGTERM, SIGINT and SIGHUP, which are blocked for
   the calling thread (and so for the single-threaded process) first. -1 with errno on failure. */
int notif_stop_signals_fd(void);

/* The next signal read from such a descriptor, 0 when none is pending, -1 on error. */
int notif_stop_signals_read(int fd);

/* Adds to `actions` the closing of every descriptor from `from` on in the child
   (posix_spawn_file_actions_addclosefrom_np, glibc 2.34). 0, or an error number. */
int notif_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* While a program runs in the foreground (an editor): SIGTERM and SIGHUP write their number to
   a pipe, whose non-blocking read end is returned (-1 with errno on failure), so the waiter can
   pass them on to the program; the actions they had are kept. notif_end_signals_release puts
   those back. A signal that came before is not in the pipe any more. */
int notif_end_signals_catch(void);
void notif_end_signals_release(void);

/* A descriptor that polls readable once process `pid` has ended (pidfd_open); -1 with errno. */
int notif_pidfd_open(int pid);

#endif
