/* ncursesw for Swift: the wide-character API plus small helpers for what Swift cannot import
   (macros, globals that are not concurrency-safe) and for async-signal-safe terminal restore. */
#ifndef NOTIF_CNCURSESW_H
#define NOTIF_CNCURSESW_H

#define NCURSES_WIDECHAR 1
#include <ncurses.h>

enum {
    NOTIF_SCREEN_OK = 0,
    NOTIF_NO_TTY = 1,
    NOTIF_NO_TERM = 2,
    NOTIF_UNKNOWN_TERM = 3,
    NOTIF_NO_CURSOR_ADDRESSING = 4,
};

/* Sets up the screen as initscr would, if the terminal can host the page: stdin and stdout
   ttys, TERM naming a known terminal that can address the cursor. Reads terminfo once and
   never exits (initscr would on an unknown TERM). Keeps the terminal's settings from before and
   makes the bytes a crash handler writes to give it back. Returns NOTIF_SCREEN_OK or the problem. */
int notif_start_screen(void);

/* Whether the terminfo database has an entry for the terminal type `name` (what newterm
   would find for it); touches neither the screen nor the terminal. */
int notif_terminal_known(const char *name);

/* The C library's wcwidth (what ncurses places characters by) in the current locale. */
int notif_wcwidth(unsigned int scalar);

/* setlocale(LC_CTYPE, "") and whether the locale's character set is UTF-8. */
int notif_setup_locale(void);

WINDOW *notif_stdscr(void);
int notif_lines(void);
int notif_cols(void);

attr_t notif_a_normal(void);
attr_t notif_a_bold(void);
attr_t notif_a_reverse(void);
attr_t notif_a_dim(void);
attr_t notif_color_pair(short pair);

/* A screen that draws into /dev/null at a fixed size: ncurses without a terminal, for tests. */
int notif_start_headless(const char *term, int height, int width);
/* The text ncurses holds on one screen row from a column on (UTF-8, written into buffer): the
   cell ncurses holds there, whatever came before it. */
void notif_row_text_from(int row, int column, char *buffer, int size);
/* The attributes ncurses holds at a cell. */
attr_t notif_cell_attributes(int row, int column);
/* Where ncurses' cursor is. */
void notif_cursor(int *row, int *column);

/* Reports left-button presses and clicks as KEY_MOUSE (a crash then turns reporting off too). */
void notif_enable_mouse(void);
/* After KEY_MOUSE: the cell of a left-button press or click; returns 0 for other events. */
int notif_read_click(int *row, int *column);

/* Handlers: SIGINT/SIGTERM/SIGHUP/SIGQUIT set a flag the key loop reads, SIGTSTP another; crash
   signals (SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGFPE, SIGTRAP) give the terminal back with only
   write and tcsetattr (the settings and bytes notif_start_screen kept) and die with the signal. */
void notif_install_signal_handlers(void);
/* Whether the terminal has an alternate screen (smcup): without one, restoring clears the frame. */
int notif_has_alternate_screen(void);
/* Gives the terminal back as it was (a frame drawn on a terminal without an alternate screen is
   cleared first; the cursor ends at the bottom-left and shows). Safe to call twice. */
void notif_restore_terminal(void);
/* Whether SIGTSTP arrived since the last call (`kill -TSTP`): the page should suspend. */
int notif_pending_suspend(void);
/* Restores the terminal and stops the process as SIGTSTP would; returns once continued (fg),
   with ncurses ready to repaint everything. */
void notif_suspend(void);
/* Gives the terminal back for a program to use (an editor), as notif_suspend does first. */
void notif_leave_screen(void);
/* Takes the terminal again after notif_leave_screen, with ncurses ready to repaint everything. */
void notif_resume_screen(void);
/* The terminal's size as the kernel knows it (TIOCGWINSZ on stdout); returns 0 when unknown. */
int notif_terminal_size(int *height, int *width);
/* Blocks every signal but crashes in the calling thread, so signals wake the key reader. */
void notif_block_signals_in_this_thread(void);
/* The first pending quit signal, or 0. */
int notif_pending_signal(void);
/* Default action for `sig`, unblocked, and raised: the process ends as the signal asks. */
void notif_die_by_signal(int sig);

#endif
