/* botlens.h: the botlens SDK for bots written in C (clang, wasi-libc).
 *
 * One header, nothing to link. It declares the module's ABI version and encoding (custom
 * sections), imports the host's functions, exports `botlens_new` and `botlens_play`, reads the
 * game's views and writes its moves in the compact encoding of docs/abi.md, and gives each game
 * a small C API. A bot includes it and defines `bot_play` (and, if it wants, `bot_new`):
 *
 *     #include "botlens.h"
 *
 *     void bot_play(void) {
 *         botlens_tictactoe_view view = botlens_tictactoe();
 *         for (int i = 0; i < 9; i++)
 *             if (view.board[i] == '.') { botlens_mark(i % 3, i / 3); return; }
 *     }
 *
 * `botlens run <dir>` builds every `.c` file of a folder with a `botlens.toml` (clang
 * --target=wasm32-wasi -mexec-model=reactor -g -O2, this header on the include path) and plays
 * it; docs/c.md is the manual. By hand:
 *
 *     clang --target=wasm32-wasi -mexec-model=reactor -g -O2 -I<dir of botlens.h> bot.c -o bot.wasm
 *
 * Only one `.c` file of a bot includes this header: it defines the module's exports and
 * sections. Other files of the bot may use the types and functions after
 * `#define BOTLENS_NO_EXPORTS` and `#include "botlens.h"`.
 *
 * Failures are located in the bot's own file: the header names itself in the `botlens_sdk`
 * section, so botlens skips its frames (and wasi-libc's) and points at the bot's line. An
 * illegal move is reported at the bot's `botlens_attack`/`botlens_mark`/`botlens_move` call, a
 * failed `assert` (a `panic` with the condition) or a trap such as an out-of-bounds access at
 * its line, `BOTLENS_PANIC(...)` at the line that calls it.
 */
#ifndef BOTLENS_H
#define BOTLENS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef __wasm__
#error "botlens.h is for bots built to WebAssembly: clang --target=wasm32-wasi -mexec-model=reactor"
#endif

/* ── The host's functions (docs/abi.md, "Imports") ─────────────────────────────────────── */

#define BOTLENS_IMPORT(name) __attribute__((import_module("botlens"), import_name(name)))

BOTLENS_IMPORT("view") int32_t botlens__view(void *out, int32_t cap);
BOTLENS_IMPORT("act")
int32_t botlens__act(const void *msg, int32_t len, void *out, int32_t cap);
BOTLENS_IMPORT("log") void botlens__log(const char *text, int32_t len);
BOTLENS_IMPORT("panic")
_Noreturn void botlens__panic(const char *msg, int32_t msg_len, const char *file,
                              int32_t file_len, int32_t line, int32_t column);
BOTLENS_IMPORT("draw")
void botlens__draw(int32_t kind, int32_t x, int32_t y, int32_t to_x, int32_t to_y,
                   uint32_t colour, const void *data, int32_t len);
__attribute__((import_module("wasi_snapshot_preview1"), import_name("random_get")))
int32_t botlens__random_get(void *buf, int32_t len);

/* ── The bot's side: what it defines ────────────────────────────────────────────────────── */

/* Called once per turn: look at the view, then make exactly one move. Required. */
void bot_play(void);
/* Called once at the start of every game with the bot's seat (0 or 1; 0 in Klotski).
 * Optional: a bot without it is fine. */
__attribute__((weak)) void bot_new(int seat);

/* ── Logging, failing, randomness ───────────────────────────────────────────────────────── */

/* Adds a line to this turn's log, printf-style (kept with the turn; `botlens replay` shows
 * it). `printf` to stdout works too. */
static inline __attribute__((format(printf, 1, 2))) void botlens_log(const char *format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (n < 0) n = 0;
    if (n > (int)sizeof line - 1) n = (int)sizeof line - 1;
    botlens__log(line, n);
}

/* Loses the game with `panic` and `message`, reported at `file`:`line` (use BOTLENS_PANIC). */
static inline _Noreturn void botlens_panic_at(const char *file, int line, const char *message) {
    botlens__panic(message, (int32_t)strlen(message), file, (int32_t)strlen(file), line, 0);
}

/* Loses the game with `panic` at this line: BOTLENS_PANIC("no free square"). */
#define BOTLENS_PANIC(message) botlens_panic_at(__FILE__, __LINE__, (message))

/* Like assert, but a `panic` with the condition's text, also under NDEBUG. */
#define BOTLENS_CHECK(condition)                                                              \
    ((condition) ? (void)0 : botlens_panic_at(__FILE__, __LINE__, "check failed: " #condition))

/* A random number drawn from the game's seed (a replay draws the same ones). */
static inline uint32_t botlens_random(void) {
    uint32_t n = 0;
    botlens__random_get(&n, sizeof n);
    return n;
}

/* A random number in 0..bound-1 (bound > 0). */
static inline uint32_t botlens_random_below(uint32_t bound) {
    return (uint32_t)(((uint64_t)botlens_random() * bound) >> 32);
}

/* ── Drawing on the board (docs/c.md, "Drawing on the board") ──────────────────────────────
 *
 * Marks that show what the bot was thinking, drawn over its board by the replayers and the
 * editor's hover: a cell in a colour, a heat map, an arrow, a label, the turn's status line.
 * Each mark keeps the bot's line that drew it (this header's frames are skipped). Drawing never
 * changes a game: a call costs the same fuel whether botlens keeps the mark or not, and a mark
 * past a turn's bounds (256 marks, 16 KiB of text and values) is dropped and counted, never a
 * failure. Coordinates are the game's: x the column, y the row, from 0 (a Battleships bot draws
 * on the board it fires at). */

/* A mark's colour: 0x00RRGGBB, or an intensity on the heat maps' palette (botlens_intensity). */
typedef uint32_t botlens_colour;

/* The colour of red, green and blue parts (0-255 each). */
#define BOTLENS_RGB(r, g, b)                                                                  \
    ((botlens_colour)((((uint32_t)(r) & 0xffu) << 16) | (((uint32_t)(g) & 0xffu) << 8) |      \
                      ((uint32_t)(b) & 0xffu)))

/* Colours, as the Rust SDK's `Colour` constants. */
#define BOTLENS_RED BOTLENS_RGB(0xe0, 0x3c, 0x31)
#define BOTLENS_GREEN BOTLENS_RGB(0x2e, 0xa0, 0x43)
#define BOTLENS_BLUE BOTLENS_RGB(0x1f, 0x6f, 0xeb)
#define BOTLENS_YELLOW BOTLENS_RGB(0xf2, 0xc2, 0x0f)
#define BOTLENS_WHITE BOTLENS_RGB(0xff, 0xff, 0xff)
#define BOTLENS_BLACK BOTLENS_RGB(0x00, 0x00, 0x00)

/* The kinds of mark, as `botlens.draw` numbers them (docs/abi.md). */
enum { BOTLENS__CELL, BOTLENS__HEAT, BOTLENS__ARROW, BOTLENS__LABEL, BOTLENS__STATUS };

/* An intensity from 0.0 (cold) to 1.0 (hot), shaded on the heat maps' palette; values outside
 * are clamped (NaN is 0). */
static inline botlens_colour botlens_intensity(float level) {
    float clamped = level > 1.0f ? 1.0f : level >= 0.0f ? level : 0.0f;
    return 0x01000000u | (uint32_t)(clamped * 255.0f + 0.5f);
}

/* Fills the cell at column `x`, row `y` with `colour`. */
static inline void botlens_draw_cell(int x, int y, botlens_colour colour) {
    botlens__draw(BOTLENS__CELL, x, y, 0, 0, colour, 0, 0);
}

/* A heat map: `count` values, one per cell of a board `width` columns wide (1-64), row by row
 * from the top left (a Battleships board: width 10, 100 values). The replayers shade each cell
 * from the lowest value to the highest; a value that is not a finite number (NAN) leaves its
 * cell unshaded. At most 4,096 values: a larger map is dropped. */
static inline void botlens_draw_heat(int width, const float *values, int count) {
    /* More values than any map may have: a length the host drops unread. */
    int32_t len = count <= 0 ? 0 : count > 4096 ? INT32_MAX : count * 4;
    botlens__draw(BOTLENS__HEAT, width, 0, 0, 0, 0, values, len);
}

/* An arrow from the cell (x, y) to the cell (to_x, to_y). */
static inline void botlens_draw_arrow(int x, int y, int to_x, int to_y, botlens_colour colour) {
    botlens__draw(BOTLENS__ARROW, x, y, to_x, to_y, colour, 0, 0);
}

/* A short text (UTF-8, NUL-terminated) on the cell at column `x`, row `y`: 32 bytes are kept,
 * longer text is cut. */
static inline void botlens_draw_label(int x, int y, const char *text, botlens_colour colour) {
    botlens__draw(BOTLENS__LABEL, x, y, 0, 0, colour, text, (int32_t)strlen(text));
}

/* The turn's status line (UTF-8, NUL-terminated), shown under the board: 200 bytes are kept,
 * and the last one drawn in a turn is the one shown. */
static inline void botlens_draw_status(const char *text) {
    botlens__draw(BOTLENS__STATUS, 0, 0, 0, 0, 0, text, (int32_t)strlen(text));
}

/* ── Messages (the compact encoding of docs/abi.md) ─────────────────────────────────────── */

/* The seat of this game (set before `bot_new`). */
extern int botlens_seat;

/* Room for any view or answer of the games below (a Klotski view is the largest). */
#define BOTLENS_BUFFER 8192

static inline uint32_t botlens__u32(const unsigned char *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static inline void botlens__put_i32(unsigned char *at, int32_t value) {
    uint32_t v = (uint32_t)value;
    at[0] = (unsigned char)v;
    at[1] = (unsigned char)(v >> 8);
    at[2] = (unsigned char)(v >> 16);
    at[3] = (unsigned char)(v >> 24);
}

/* The turn's view into `buffer`; its length. */
static inline int32_t botlens__read_view(unsigned char *buffer) {
    int32_t n = botlens__view(buffer, BOTLENS_BUFFER);
    if (n > BOTLENS_BUFFER) BOTLENS_PANIC("botlens.h: the view is larger than BOTLENS_BUFFER");
    return n;
}

/* Sends the move (x, y); the answer into `answer`, its length returned. */
static inline int32_t botlens__act_xy(int x, int y, unsigned char *answer) {
    unsigned char move[8];
    botlens__put_i32(move, x);
    botlens__put_i32(move + 4, y);
    return botlens__act(move, sizeof move, answer, BOTLENS_BUFFER);
}

/* ── Battleships ────────────────────────────────────────────────────────────────────────── */

/* The side of the boards. Squares are (x, y): x the column, y the row, both 0–9. */
#define BOTLENS_BOARD_SIZE 10

/* Ship kinds, as `enemy_ships_left` lists them. */
typedef enum botlens_ship_kind {
    BOTLENS_CARRIER,
    BOTLENS_WARSHIP,
    BOTLENS_SUBMARINE,
    BOTLENS_CRUISER,
    BOTLENS_PATROL,
} botlens_ship_kind;

/* What a Battleships bot sees on its turn. */
typedef struct botlens_battleships_view {
    /* The opponent's board as you know it, row by row (index y * 10 + x), NUL-terminated:
     * '.' unknown, 'o' miss, 'x' hit, '#' sunk. */
    char targets[101];
    /* Your own board: '.' water, 'S' ship, 'X' ship hit, 'o' water shot at. */
    char own[101];
    /* The opponent's ships still afloat: `ships_left` kinds. */
    botlens_ship_kind enemy_ships_left[8];
    int ships_left;
    /* Shots you have fired. */
    unsigned shots;
} botlens_battleships_view;

/* A ship, as a sinking reveals it. */
typedef struct botlens_ship {
    botlens_ship_kind kind;
    /* Its length, its top-left square, and whether it runs down (1) or across (0). */
    int size, x, y, vertical;
} botlens_ship;

/* What an attack did. */
typedef enum botlens_shot_result {
    BOTLENS_MISS,
    BOTLENS_HIT,
    BOTLENS_SUNK,
    BOTLENS_ALREADY_ATTACKED,
} botlens_shot_result;

/* The answer to an attack: `ship` is set when `result` is BOTLENS_SUNK. */
typedef struct botlens_shot {
    botlens_shot_result result;
    botlens_ship ship;
} botlens_shot;

/* The name of a ship kind ("carrier", …). */
static inline const char *botlens_ship_name(botlens_ship_kind kind) {
    static const char *const names[] = {"carrier", "warship", "submarine", "cruiser", "patrol"};
    return (unsigned)kind < 5 ? names[kind] : "?";
}

/* The Battleships view of this turn. */
static inline botlens_battleships_view botlens_battleships(void) {
    unsigned char buffer[BOTLENS_BUFFER];
    int32_t n = botlens__read_view(buffer);
    botlens_battleships_view view;
    if (n < 212 || botlens__u32(buffer) != 100 || botlens__u32(buffer + 104) != 100)
        BOTLENS_PANIC("botlens.h: this is not a Battleships view (does botlens.toml say the game?)");
    memcpy(view.targets, buffer + 4, 100);
    view.targets[100] = '\0';
    memcpy(view.own, buffer + 108, 100);
    view.own[100] = '\0';
    uint32_t left = botlens__u32(buffer + 208);
    view.ships_left = left < 8 ? (int)left : 8;
    for (int i = 0; i < view.ships_left; i++)
        view.enemy_ships_left[i] = (botlens_ship_kind)buffer[212 + i];
    view.shots = botlens__u32(buffer + 212 + left);
    return view;
}

/* The square (x, y) of a board of the view (`view.targets` or `view.own`); a square off the
 * board loses the game with `panic` at the caller's line. */
#define botlens_square(board, x, y) botlens_square_at(__FILE__, __LINE__, (board), (x), (y))

static inline char botlens_square_at(const char *file, int line, const char *board, int x, int y) {
    if (x < 0 || x >= BOTLENS_BOARD_SIZE || y < 0 || y >= BOTLENS_BOARD_SIZE) {
        char message[96];
        snprintf(message, sizeof message, "square (%d, %d) is off the 10x10 board", x, y);
        botlens_panic_at(file, line, message);
    }
    return board[y * BOTLENS_BOARD_SIZE + x];
}

/* Fires at column `x`, row `y` (0–9) of the opponent's board. A hit or a sink gives you
 * another turn; a miss or a square attacked before (a wasted shot) passes it. A square off the
 * board is an illegal move: the game is lost at this call. */
static inline botlens_shot botlens_attack(int x, int y) {
    unsigned char answer[BOTLENS_BUFFER];
    int32_t n = botlens__act_xy(x, y, answer);
    botlens_shot shot;
    memset(&shot, 0, sizeof shot);
    shot.result = n > 0 ? (botlens_shot_result)answer[0] : BOTLENS_MISS;
    if (shot.result == BOTLENS_SUNK && n >= 6) {
        shot.ship.kind = (botlens_ship_kind)answer[1];
        shot.ship.size = answer[2];
        shot.ship.x = answer[3];
        shot.ship.y = answer[4];
        shot.ship.vertical = answer[5];
    }
    return shot;
}

/* ── Tic-tac-toe ────────────────────────────────────────────────────────────────────────── */

/* What a Tic-tac-toe bot sees on its turn. */
typedef struct botlens_tictactoe_view {
    /* The board row by row (index y * 3 + x), NUL-terminated: 'X', 'O' or '.' (free). */
    char board[10];
    /* Your side: 'X' (who moves first) or 'O'. */
    char you;
} botlens_tictactoe_view;

/* The board after a mark, as `botlens_tictactoe_view.board`. */
typedef struct botlens_tictactoe_board {
    char board[10];
} botlens_tictactoe_board;

/* The Tic-tac-toe view of this turn. */
static inline botlens_tictactoe_view botlens_tictactoe(void) {
    unsigned char buffer[BOTLENS_BUFFER];
    int32_t n = botlens__read_view(buffer);
    botlens_tictactoe_view view;
    if (n != 14 || botlens__u32(buffer) != 9)
        BOTLENS_PANIC("botlens.h: this is not a Tic-tac-toe view (does botlens.toml say the game?)");
    memcpy(view.board, buffer + 4, 9);
    view.board[9] = '\0';
    view.you = buffer[13] ? 'O' : 'X';
    return view;
}

/* The square (x, y) of a Tic-tac-toe board; off the board loses with `panic` at the caller. */
#define botlens_cell(board, x, y) botlens_cell_at(__FILE__, __LINE__, (board), (x), (y))

static inline char botlens_cell_at(const char *file, int line, const char *board, int x, int y) {
    if (x < 0 || x > 2 || y < 0 || y > 2) {
        char message[96];
        snprintf(message, sizeof message, "square (%d, %d) is off the 3x3 board", x, y);
        botlens_panic_at(file, line, message);
    }
    return board[y * 3 + x];
}

/* Marks column `x`, row `y` (0–2) and returns the board after it. A taken square or one off
 * the board is an illegal move: the game is lost at this call. */
static inline botlens_tictactoe_board botlens_mark(int x, int y) {
    unsigned char answer[BOTLENS_BUFFER];
    int32_t n = botlens__act_xy(x, y, answer);
    botlens_tictactoe_board after;
    memset(after.board, '.', 9);
    if (n == 13) memcpy(after.board, answer + 4, 9);
    after.board[9] = '\0';
    return after;
}

/* ── Klotski ────────────────────────────────────────────────────────────────────────────── */

/* The most pieces a view holds (a board's side is at most 16 cells; bundled boards have 10).
 * A bot may define it larger before including this header. */
#ifndef BOTLENS_KLOTSKI_PIECES
#define BOTLENS_KLOTSKI_PIECES 64
#endif

/* Directions to slide in: towards row 0, the last row, column 0, the last column. */
typedef enum botlens_dir {
    BOTLENS_UP,
    BOTLENS_DOWN,
    BOTLENS_LEFT,
    BOTLENS_RIGHT,
} botlens_dir;

/* A piece on the board: its code (what `botlens_move` takes: "cc", "zf", "1", …, at most 8
 * ASCII characters), its display name (UTF-8, "曹操"), its top-left cell and its size. */
typedef struct botlens_piece {
    char code[9];
    char name[65];
    int x, y, width, height;
} botlens_piece;

/* Where the goal piece (by code) must get to with its top-left cell. */
typedef struct botlens_goal {
    char piece[9];
    int x, y;
} botlens_goal;

/* What a Klotski bot sees on its turn: the whole board. */
typedef struct botlens_klotski_view {
    /* The board's size in cells (4 by 5 for the bundled boards). */
    int width, height;
    /* The pieces: `pieces[0..piece_count]`. */
    botlens_piece pieces[BOTLENS_KLOTSKI_PIECES];
    int piece_count;
    botlens_goal goal;
    /* One-cell slides made so far, and steps (consecutive slides of one piece are one step). */
    unsigned moves, steps;
} botlens_klotski_view;

/* The answer to a slide: moves and steps so far, and whether the puzzle is now solved. */
typedef struct botlens_slid {
    unsigned moves, steps;
    int solved;
} botlens_slid;

/* The name of a direction ("up", …). */
static inline const char *botlens_dir_name(botlens_dir dir) {
    static const char *const names[] = {"up", "down", "left", "right"};
    return (unsigned)dir < 4 ? names[dir] : "?";
}

/* The direction that undoes a slide towards `dir`. */
static inline botlens_dir botlens_dir_opposite(botlens_dir dir) {
    return (botlens_dir)(dir ^ 1);
}

/* The cell offset of one slide `dir`: *dx, *dy are -1, 0 or 1. */
static inline void botlens_dir_delta(botlens_dir dir, int *dx, int *dy) {
    *dx = dir == BOTLENS_LEFT ? -1 : dir == BOTLENS_RIGHT ? 1 : 0;
    *dy = dir == BOTLENS_UP ? -1 : dir == BOTLENS_DOWN ? 1 : 0;
}

/* A cursor over a compact message: reading past its end loses with `panic`. */
typedef struct botlens__reader {
    const unsigned char *at;
    int32_t left;
} botlens__reader;

static inline const unsigned char *botlens__take(botlens__reader *r, int32_t n) {
    if (n < 0 || n > r->left) BOTLENS_PANIC("botlens.h: this is not a Klotski view (does botlens.toml say the game?)");
    const unsigned char *at = r->at;
    r->at += n;
    r->left -= n;
    return at;
}

static inline uint32_t botlens__take_u32(botlens__reader *r) {
    return botlens__u32(botlens__take(r, 4));
}

/* A string of the message into `out` (room for `cap` bytes with the NUL); longer is cut. */
static inline void botlens__take_text(botlens__reader *r, char *out, int32_t cap) {
    int32_t n = (int32_t)botlens__take_u32(r);
    const unsigned char *text = botlens__take(r, n);
    int32_t kept = n < cap - 1 ? n : cap - 1;
    memcpy(out, text, (size_t)kept);
    out[kept] = '\0';
}

/* The Klotski view of this turn. */
static inline botlens_klotski_view botlens_klotski(void) {
    unsigned char buffer[BOTLENS_BUFFER];
    botlens__reader r = {buffer, botlens__read_view(buffer)};
    botlens_klotski_view view;
    view.width = (int)botlens__take_u32(&r);
    view.height = (int)botlens__take_u32(&r);
    uint32_t count = botlens__take_u32(&r);
    if (count > BOTLENS_KLOTSKI_PIECES)
        BOTLENS_PANIC("botlens.h: the board has more pieces than BOTLENS_KLOTSKI_PIECES");
    view.piece_count = (int)count;
    for (uint32_t i = 0; i < count; i++) {
        botlens_piece *piece = &view.pieces[i];
        botlens__take_text(&r, piece->code, sizeof piece->code);
        botlens__take_text(&r, piece->name, sizeof piece->name);
        piece->x = (int)botlens__take_u32(&r);
        piece->y = (int)botlens__take_u32(&r);
        piece->width = (int)botlens__take_u32(&r);
        piece->height = (int)botlens__take_u32(&r);
    }
    botlens__take_text(&r, view.goal.piece, sizeof view.goal.piece);
    view.goal.x = (int)botlens__take_u32(&r);
    view.goal.y = (int)botlens__take_u32(&r);
    view.moves = botlens__take_u32(&r);
    view.steps = botlens__take_u32(&r);
    if (r.left != 0) BOTLENS_PANIC("botlens.h: this is not a Klotski view (does botlens.toml say the game?)");
    return view;
}

/* Whether `view.pieces[index]` can slide one cell towards `dir`: the cells it moves into are
 * on the board and no other piece covers them. */
static inline int botlens_can_slide(const botlens_klotski_view *view, int index, botlens_dir dir) {
    const botlens_piece *piece = &view->pieces[index];
    int dx, dy;
    botlens_dir_delta(dir, &dx, &dy);
    int x = piece->x + dx, y = piece->y + dy;
    if (x < 0 || y < 0 || x + piece->width > view->width || y + piece->height > view->height)
        return 0;
    for (int i = 0; i < view->piece_count; i++) {
        const botlens_piece *other = &view->pieces[i];
        if (i != index && x < other->x + other->width && other->x < x + piece->width &&
            y < other->y + other->height && other->y < y + piece->height)
            return 0;
    }
    return 1;
}

/* Slides the piece with code `piece` one cell towards `dir` and returns the count after it.
 * No such piece, or a blocked slide, is an illegal move: the game is lost at this call. */
static inline botlens_slid botlens_move(const char *piece, botlens_dir dir) {
    unsigned char move[256];
    size_t len = strlen(piece);
    if (len > sizeof move - 5) BOTLENS_PANIC("botlens.h: that is no piece code (too long)");
    botlens__put_i32(move, (int32_t)len);
    memcpy(move + 4, piece, len);
    move[4 + len] = (unsigned char)dir;
    unsigned char answer[BOTLENS_BUFFER];
    int32_t n = botlens__act(move, (int32_t)len + 5, answer, BOTLENS_BUFFER);
    botlens_slid slid = {0, 0, 0};
    if (n == 9) {
        slid.moves = botlens__u32(answer);
        slid.steps = botlens__u32(answer + 4);
        slid.solved = answer[8];
    }
    return slid;
}

/* ── The module: sections and exports (in the one file without BOTLENS_NO_EXPORTS) ─────── */

#ifndef BOTLENS_NO_EXPORTS

/* clang 14 makes a custom section only from a top-level asm directive (a `used` constant in a
 * `.custom_section.*` section becomes a data segment). `botlens_sdk` names this file, so
 * failures skip its frames. */
__asm__(".section .custom_section.botlens_abi,\"\",@\n"
        ".ascii \"1\"\n"
        ".section .custom_section.botlens_encoding,\"\",@\n"
        ".ascii \"compact\"\n"
        ".section .custom_section.botlens_sdk,\"\",@\n"
        ".ascii \"" __FILE__ "\"\n"
        ".text\n");

int botlens_seat;

__attribute__((export_name("botlens_new"))) void botlens__new(int32_t seat) {
    botlens_seat = seat;
    if (bot_new) bot_new(seat);
}

__attribute__((export_name("botlens_play"))) void botlens__play(void) { bot_play(); }

/* A failed `assert` loses the game with `panic` and the condition's text (wasi-libc's own
 * would print it and trap in `abort`). */
_Noreturn void __assert_fail(const char *expr, const char *file, int line, const char *func) {
    char message[512];
    snprintf(message, sizeof message, "assertion failed: %s (in %s)", expr, func);
    botlens_panic_at(file, line, message);
}

#endif /* BOTLENS_NO_EXPORTS */

#endif /* BOTLENS_H */
