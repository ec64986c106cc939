// The old arena's new-bot template (`crates/bench/src/arena_template.js`) played by QuickJS
// against a `turn` that answers every shot with a miss, a fresh bot every 46 turns (a game's
// worth), for `examples/metering_cost.rs`: the interpreter's own time per turn, natively and as
// WebAssembly, with none of botlens around it. Built from the QuickJS sources the JavaScript
// runner compiles (rquickjs-sys's, in cargo's registry), with the runner's compiler:
//
//   Q=$(echo ~/.cargo/registry/src/*/rquickjs-sys-0.14.0/quickjs)
//   SRC="$Q/quickjs.c $Q/libregexp.c $Q/libunicode.c $Q/dtoa.c"
//   clang -O3 -D_GNU_SOURCE -DNDEBUG -I$Q -o quickjs_turns quickjs_turns.c $SRC -lm
//   clang --target=wasm32-wasi --sysroot=/usr -O3 -mexec-model=reactor -D_GNU_SOURCE \
//     -DNDEBUG -DEMSCRIPTEN=1 -DFE_DOWNWARD=0 -DFE_UPWARD=0 -I$Q -o quickjs_turns.wasm \
//     quickjs_turns.c $SRC
//
// The native build prints microseconds per turn; the module exports `setup` and `turns(n)`.

#include "quickjs.h"
#include <stdio.h>
#include <string.h>

static const char *SOURCE =
    "function Bot() {\n"
    "  this.grid = {};\n"
    "  for (var y = 0; y < 10; ++y) for (var x = 0; x < 10; ++x) this.grid[x + ',' + y] = false;\n"
    "}\n"
    "Bot.prototype.play = function (turn) {\n"
    "  var sqs = [];\n"
    "  for (var y = 0; y < 10; ++y)\n"
    "    for (var x = 0; x < 10; ++x) if (!this.grid[x + ',' + y]) sqs.push([x, y]);\n"
    "  var sq = sqs[Math.floor(Math.random() * sqs.length)];\n"
    "  turn.attack(sq[0], sq[1]);\n"
    "  this.grid[sq[0] + ',' + sq[1]] = true;\n"
    "};\n"
    "var turn = { attack: function (x, y) { return false; } };\n"
    "var played = 0, bot = null;\n"
    "function turns(n) {\n"
    "  for (var i = 0; i < n; i++) { if (played++ % 46 == 0) bot = new Bot(); bot.play(turn); }\n"
    "  return n;\n"
    "}\n";

static JSContext *ctx;

__attribute__((export_name("setup"))) int setup(void) {
    ctx = JS_NewContext(JS_NewRuntime());
    JSValue done = JS_Eval(ctx, SOURCE, strlen(SOURCE), "bot.js", JS_EVAL_TYPE_GLOBAL);
    int ok = !JS_IsException(done);
    JS_FreeValue(ctx, done);
    return ok;
}

__attribute__((export_name("turns"))) int turns(int n) {
    char call[32];
    snprintf(call, sizeof call, "turns(%d)", n);
    JSValue done = JS_Eval(ctx, call, strlen(call), "<turns>", JS_EVAL_TYPE_GLOBAL);
    int32_t played = -1;
    JS_ToInt32(ctx, &played, done);
    JS_FreeValue(ctx, done);
    return played;
}

#ifndef __wasm__
#include <time.h>

int main(void) {
    const int n = 46000;
    if (!setup())
        return 1;
    for (int round = 0; round < 5; round++) {
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        turns(n);
        clock_gettime(CLOCK_MONOTONIC, &end);
        double us = ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / 1e3 / n;
        printf("native: %.2f us per turn\n", us);
    }
    return 0;
}
#endif
