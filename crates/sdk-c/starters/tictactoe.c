/* {{name}}: a Tic-tac-toe bot for botlens, in C.
 *
 * It marks the first free square, row by row: legal, but easy to beat. Ideas: win when you
 * can, block the opponent's line, take the centre, or search every continuation (minimax).
 *
 * `botlens run` builds this file with clang (botlens.h comes with botlens) and plays it against
 * the reference players; the seed decides who plays X (X moves first). */
#include "botlens.h"

/* Called once at the start of every game: `seat` is 0 or 1. `botlens_random()` gives numbers
 * drawn from the game's seed, so a replay makes the same choices. Static variables start
 * afresh in every game. */
void bot_new(int seat) {
    botlens_log("a new game; I sit in seat %d", seat);
}

/* Called once per turn: look at the view, then make exactly one move. Making none, or a
 * second one, loses the game, as does a failed assert or a crash; botlens reports the line. */
void bot_play(void) {
    /* `view.you` is your side ('X' or 'O'); `view.board` the 9 squares row by row ('X', 'O'
     * or '.'); `botlens_cell(view.board, x, y)` the square on column x, row y (0-2). */
    botlens_tictactoe_view view = botlens_tictactoe();
    for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 3; x++) {
            if (botlens_cell(view.board, x, y) == '.') {
                /* The move: it returns only if it was legal (a taken square loses here). */
                botlens_tictactoe_board after = botlens_mark(x, y);
                /* Log lines are kept with the turn: `botlens replay` shows them. */
                botlens_log("%c marked %d,%d; the board is now %s", view.you, x, y, after.board);
                return;
            }
        }
    }
    BOTLENS_PANIC("botlens asks for a move only while a square is free");
}
