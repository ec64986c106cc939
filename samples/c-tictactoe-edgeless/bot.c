/* A rule-based Tic-tac-toe bot in C, with one planted bug: see README.md. */
#include <assert.h>

#include "botlens.h"

static const int LINES[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};
static const int CORNERS[4] = {0, 2, 6, 8};
/* The edges it falls back on... but the bottom edge, square 7, is missing. */
static const int EDGES[3] = {1, 3, 5};

static int turns;

void bot_new(int seat) {
    turns = 0;
    botlens_log("seat %d", seat);
}

/* The free square that completes a line of two `mark`s, or -1. */
static int completing(const char *board, char mark) {
    for (int i = 0; i < 8; i++) {
        int mine = 0, free = -1;
        for (int j = 0; j < 3; j++) {
            char square = board[LINES[i][j]];
            if (square == mark) mine++;
            else if (square == '.') free = LINES[i][j];
        }
        if (mine == 2 && free >= 0) return free;
    }
    return -1;
}

void bot_play(void) {
    botlens_tictactoe_view view = botlens_tictactoe();
    char other = view.you == 'X' ? 'O' : 'X';
    turns++;
    int square = completing(view.board, view.you);
    if (square < 0) square = completing(view.board, other);
    if (square < 0 && view.board[4] == '.') square = 4;
    for (int i = 0; i < 4 && square < 0; i++)
        if (view.board[CORNERS[i]] == '.') square = CORNERS[i];
    for (int i = 0; i < 3 && square < 0; i++)
        if (view.board[EDGES[i]] == '.') square = EDGES[i];
    botlens_log("turn %d: %c at %d", turns, view.you, square);
    // botlens reports the panic on the next line
    assert(square >= 0 && "a free square is always found");
    botlens_mark(square % 3, square / 3);
}
