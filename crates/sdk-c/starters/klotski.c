/* {{name}}: a Klotski (Huarong Dao) bot for botlens, in C.
 *
 * It makes a random legal slide every turn, never straight back where its last slide came
 * from (unless nothing else can move), which almost never solves the puzzle within the turn
 * cap. Ideas: search the board breadth first on your first turn and play the solution; count
 * *steps* (consecutive slides of one piece are one step) to match the board's par.
 *
 * `botlens run` builds this file with clang (botlens.h comes with botlens) and plays it on the
 * bundled boards (or `generated`, a new board per seed), comparing its steps with the optimal
 * number. */
#include "botlens.h"

/* The last slide: static variables start afresh in every game. */
static int last_piece = -1;
static botlens_dir last_dir;

/* Called once per turn: look at the view, then make exactly one move. Making none, or a
 * second one, loses the game, as does a failed assert or a crash; botlens reports the line. */
void bot_play(void) {
    /* The view is the whole board: `view.pieces[0..piece_count]` (code, name, top-left x and
     * y, width and height of each), `view.width` by `view.height` cells, and `view.goal`: the
     * piece that must reach the cell `goal.x`, `goal.y` with its top-left corner. */
    botlens_klotski_view view = botlens_klotski();
    int pieces[BOTLENS_KLOTSKI_PIECES * 4];
    botlens_dir dirs[BOTLENS_KLOTSKI_PIECES * 4];
    int count = 0, back = -1;
    for (int i = 0; i < view.piece_count; i++) {
        for (botlens_dir dir = BOTLENS_UP; dir <= BOTLENS_RIGHT; dir++) {
            if (botlens_can_slide(&view, i, dir)) {
                if (i == last_piece && dir == botlens_dir_opposite(last_dir)) back = count;
                pieces[count] = i;
                dirs[count] = dir;
                count++;
            }
        }
    }
    BOTLENS_CHECK(count > 0); /* a board with a free cell has a slide */
    if (back >= 0 && count > 1) {
        /* Sliding straight back undoes the last move: drop it while there is another. */
        count--;
        pieces[back] = pieces[count];
        dirs[back] = dirs[count];
    }
    /* `botlens_random_below` draws from the game's seed: a replay makes the same choices. */
    int pick = (int)botlens_random_below((uint32_t)count);
    last_piece = pieces[pick];
    last_dir = dirs[pick];
    const char *code = view.pieces[last_piece].code;
    /* The move: it returns only if it was legal (a blocked slide loses the game here). */
    botlens_slid slid = botlens_move(code, last_dir);
    /* Log lines are kept with the turn: `botlens replay` shows them next to the board. */
    botlens_log("slid %s %s: %u steps so far", code, botlens_dir_name(last_dir), slid.steps);
}
