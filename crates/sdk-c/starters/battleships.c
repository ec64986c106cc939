/* {{name}}: a Battleships bot for botlens, in C.
 *
 * It fires at every other square (a checkerboard: every ship covers one of them), and after a
 * hit at the unknown squares next to it. Ideas: follow a line of hits, count where each ship
 * left could still lie (probability density), remember that ships never touch.
 *
 * `botlens run` builds this file with clang (botlens.h comes with botlens) and plays it against
 * the reference players. A hit or a sink gives you another turn. */
#include "botlens.h"

/* Called once per turn: look at the view, then make exactly one move. Making none, or a
 * second one, loses the game, as does a failed assert or a crash; botlens reports the line. */
void bot_play(void) {
    /* `view.targets`: the opponent's board as you know it, 100 squares row by row: '.' unknown,
     * 'o' miss, 'x' hit, '#' sunk; `botlens_square(view.targets, x, y)` reads column x, row y. */
    botlens_battleships_view view = botlens_battleships();
    int fire_x = -1, fire_y = -1;
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    /* Next to a hit that is not sunk yet. */
    for (int i = 0; i < 100 && fire_x < 0; i++) {
        int x = i % 10, y = i / 10;
        if (botlens_square(view.targets, x, y) != 'x') continue;
        for (int d = 0; d < 4; d++) {
            int nx = x + dx[d], ny = y + dy[d];
            if (nx >= 0 && nx < 10 && ny >= 0 && ny < 10 &&
                botlens_square(view.targets, nx, ny) == '.') {
                fire_x = nx;
                fire_y = ny;
                break;
            }
        }
    }
    /* Else the checkerboard, then any unknown square. */
    for (int pass = 0; pass < 2 && fire_x < 0; pass++) {
        for (int i = 0; i < 100; i++) {
            int x = i % 10, y = i / 10;
            if ((pass == 1 || (x + y) % 2 == 0) && botlens_square(view.targets, x, y) == '.') {
                fire_x = x;
                fire_y = y;
                break;
            }
        }
    }
    /* The move: it returns only if it was legal (off the board loses here). */
    botlens_shot shot = botlens_attack(fire_x, fire_y);
    if (shot.result == BOTLENS_SUNK)
        botlens_log("sank the %s at %d,%d", botlens_ship_name(shot.ship.kind), shot.ship.x,
                    shot.ship.y);
}
