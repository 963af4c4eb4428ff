/* wcwidth and the other X/Open wide-character calls. */
#define _GNU_SOURCE
#include "CNcursesw.h"
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

/* What a crash handler may use to give the terminal back (it may only call async-signal-safe
   functions: no ncurses, no stdio, no malloc): the terminal's settings from before ncurses
   changed them, and the bytes that undo what the page turned on, made in advance. */
static struct termios saved_termios;
static volatile sig_atomic_t termios_saved = 0;
static char restore_bytes[512];
static volatile sig_atomic_t restore_length = 0;
/* 1 while the page holds the terminal: from the start to a restore, and again after fg. */
static volatile sig_atomic_t terminal_held = 0;

static size_t restore_building = 0;

static int append_restore_byte(int byte) {
    if (restore_building < sizeof restore_bytes) restore_bytes[restore_building++] = (char)byte;
    return byte;
}

static void append_capability(const char *text) {
    /* tputs expands padding ($<5>) the way it would on screen. */
    if (text != NULL && text != (char *)-1 && text[0] != '\0') tputs(text, 1, append_restore_byte);
}

/* Makes the restore bytes from the terminfo entry: attributes off, the frame cleared where
   there is no alternate screen (as notif_restore_terminal does), mouse reporting off when the
   page turned it on (the sequence ncurses uses: XM, else its xterm default), the keypad's
   normal mode, the main screen, the cursor shown. notif turns on no bracketed paste. */
static void prepare_crash_restore(int mouse_on) {
    restore_length = 0;
    restore_building = 0;
    append_capability(tigetstr("sgr0"));
    if (!notif_has_alternate_screen()) append_capability(tigetstr("clear"));
    if (mouse_on) {
        const char *format = tigetstr("XM");
        if (format == NULL || format == (char *)-1) {
            const char *kmous = tigetstr("kmous");
            int sgr = kmous != NULL && kmous != (char *)-1 && strcmp(kmous, "\033[<") == 0;
            format = sgr ? "\033[?1006;1000%?%p1%{1}%=%th%el%;" : "\033[?1000%?%p1%{1}%=%th%el%;";
        }
        append_capability(tiparm(format, 0));
    }
    append_capability(tigetstr("rmkx"));
    append_capability(tigetstr("rmcup"));
    append_capability(tigetstr("cnorm"));
    if (restore_building < sizeof restore_bytes) restore_length = (sig_atomic_t)restore_building;
}

/* From a crash handler: only write and tcsetattr, on what was made in advance. */
static void restore_terminal_in_handler(void) {
    if (!terminal_held) return;
    terminal_held = 0;
    const char *next = restore_bytes;
    size_t left = (size_t)restore_length;
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, next, left);
        if (n > 0) {
            next += n;
            left -= (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            break;
        }
    }
    if (termios_saved) tcsetattr(STDOUT_FILENO, TCSANOW, &saved_termios);
}

int notif_start_screen(void) {
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return NOTIF_NO_TTY;
    const char *term = getenv("TERM");
    if (term == NULL || term[0] == '\0') return NOTIF_NO_TERM;
    /* ncurses keeps its terminal settings on the output's descriptor: keep the same. */
    termios_saved = tcgetattr(STDOUT_FILENO, &saved_termios) == 0;
    /* newterm, unlike initscr, returns NULL for an unknown terminal instead of exiting; it
       reads the terminfo entry once and sends nothing before the first refresh. */
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return NOTIF_UNKNOWN_TERM;
    const char *cup = tigetstr("cup");
    if (cup == NULL || cup == (char *)-1) {
        endwin();
        delscreen(screen);
        return NOTIF_NO_CURSOR_ADDRESSING;
    }
    prepare_crash_restore(0);
    terminal_held = 1;
    return NOTIF_SCREEN_OK;
}

int notif_terminal_known(const char *name) {
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    TERMINAL *before = cur_term;
    int error = 0;
    int found = setupterm(name, fd, &error) == OK;
    if (found) {
        TERMINAL *made = cur_term;
        set_curterm(before);
        del_curterm(made);
    }
    close(fd);
    return found;
}

int notif_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

int notif_setup_locale(void) {
    /* Only the character type matters to the page (wide characters, UTF-8 or not). */
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

WINDOW *notif_stdscr(void) { return stdscr; }
int notif_lines(void) { return LINES; }
int notif_cols(void) { return COLS; }

attr_t notif_a_normal(void) { return A_NORMAL; }
attr_t notif_a_bold(void) { return A_BOLD; }
attr_t notif_a_reverse(void) { return A_REVERSE; }
attr_t notif_a_dim(void) { return A_DIM; }
attr_t notif_color_pair(short pair) { return COLOR_PAIR(pair); }

int notif_start_headless(const char *term, int height, int width) {
    FILE *out = fopen("/dev/null", "w");
    FILE *in = fopen("/dev/null", "r");
    if (out == NULL || in == NULL) return 0;
    if (newterm(term, out, in) == NULL) return 0;
    resizeterm(height, width);
    return 1;
}

void notif_row_text_from(int row, int column, char *buffer, int size) {
    wchar_t wide[1024];
    int count = COLS - column < 1023 ? COLS - column : 1023;
    if (count < 0) count = 0;
    int n = mvwinnwstr(stdscr, row, column, wide, count);
    if (n < 0) n = 0;
    wide[n] = 0;
    size_t written = wcstombs(buffer, wide, (size_t)size - 1);
    if (written == (size_t)-1) written = 0;
    buffer[written] = 0;
}

attr_t notif_cell_attributes(int row, int column) {
    cchar_t cell;
    if (mvwin_wch(stdscr, row, column, &cell) != OK) return 0;
    return cell.attr;
}

void notif_cursor(int *row, int *column) {
    getyx(stdscr, *row, *column);
}

void notif_enable_mouse(void) {
    /* Every button event is asked for (notif_read_click keeps left presses and clicks): after an
       event the mask leaves out (a release, the wheel) ncurses reads on, blocking, which would
       hold the key loop until the next byte arrives. */
    mmask_t reported = mousemask(ALL_MOUSE_EVENTS, NULL);
    mouseinterval(0);
    prepare_crash_restore(reported != 0);
}

int notif_read_click(int *row, int *column) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    if (!(event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))) return 0;
    *row = event.y;
    *column = event.x;
    return 1;
}

/* Delivers `sig` to this process with its default action (stop, or die with the signal), even
   from inside a handler for it or while it is blocked. Async-signal-safe. */
static void raise_with_default(int sig) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

static volatile sig_atomic_t pending_signal = 0;

static void on_quit_signal(int sig) {
    if (pending_signal == 0) pending_signal = sig;
}

static void on_crash_signal(int sig) {
    restore_terminal_in_handler();
    raise_with_default(sig);
    _exit(128 + sig);
}

static volatile sig_atomic_t pending_suspend = 0;

static void on_suspend_signal(int sig) {
    (void)sig;
    pending_suspend = 1;
}

int notif_has_alternate_screen(void) {
    const char *enter = tigetstr("smcup");
    return enter != NULL && enter != (char *)-1 && enter[0] != '\0';
}

void notif_restore_terminal(void) {
    if (isendwin()) return;
    /* A terminal without an alternate screen (linux, vt100, vt220) keeps whatever was drawn:
       clear the frame, so the shell's prompt does not land in the middle of it. endwin then
       leaves the cursor at the bottom-left. */
    if (!notif_has_alternate_screen()) {
        wattrset(stdscr, A_NORMAL);
        werase(stdscr);
        wrefresh(stdscr);
    }
    curs_set(1);
    endwin();
    terminal_held = 0;
}

static void install_suspend_handler(void) {
    struct sigaction suspend;
    memset(&suspend, 0, sizeof suspend);
    suspend.sa_handler = on_suspend_signal;
    sigemptyset(&suspend.sa_mask);
    suspend.sa_flags = 0;
    sigaction(SIGTSTP, &suspend, NULL);
}

int notif_pending_suspend(void) {
    int was = pending_suspend;
    pending_suspend = 0;
    return was;
}

void notif_leave_screen(void) {
    notif_restore_terminal();
    fflush(stdout);
}

void notif_resume_screen(void) {
    reset_prog_mode();
    clearok(curscr, TRUE);
    terminal_held = 1;
}

void notif_suspend(void) {
    notif_leave_screen();
    /* Stop as the shell expects (it then says "Stopped" and takes the terminal back). */
    raise_with_default(SIGTSTP);
    /* Continued (fg): back to the page's modes, everything painted again. */
    install_suspend_handler();
    pending_suspend = 0;
    notif_resume_screen();
}

void notif_install_signal_handlers(void) {
    struct sigaction quit;
    memset(&quit, 0, sizeof quit);
    quit.sa_handler = on_quit_signal;
    sigemptyset(&quit.sa_mask);
    quit.sa_flags = 0; /* no SA_RESTART: a blocked read returns so the loop sees the flag */
    int quit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++) {
        sigaction(quit_signals[i], &quit, NULL);
    }
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    crash.sa_handler = on_crash_signal;
    sigemptyset(&crash.sa_mask);
    crash.sa_flags = SA_RESETHAND;
    int crash_signals[] = {SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGFPE, SIGTRAP};
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        sigaction(crash_signals[i], &crash, NULL);
    }
    install_suspend_handler();
}

int notif_terminal_size(int *height, int *width) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return 0;
    *height = size.ws_row;
    *width = size.ws_col;
    return 1;
}

void notif_block_signals_in_this_thread(void) {
    sigset_t all;
    sigfillset(&all);
    /* Crashes still end the process where they happen. */
    int crash_signals[] = {SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGFPE, SIGTRAP};
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) sigdelset(&all, crash_signals[i]);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
}

int notif_pending_signal(void) { return pending_signal; }

void notif_die_by_signal(int sig) {
    raise_with_default(sig);
    _exit(128 + sig);
}
