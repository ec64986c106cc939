//! root.zig: the root module botlens builds a Zig bot as.
//!
//! Zig takes the panic handler (and `std_options`) from the root module, so botlens makes this
//! file the root and the bot's file the module `bot`: every bot then has the SDK's handler,
//! which loses the game with `panic` and Zig's message at the bot's line, without declaring it.
//! A bot that declares its own `pub const panic` (or `pub const std_options`) keeps it.

const bot = @import("bot");
const botlens = @import("botlens");

// Analyses the bot's file, whose `comptime` block exports its entry points.
comptime {
    _ = bot;
}

/// The bot's panic handler if it declares one, else the SDK's.
pub const panic = if (@hasDecl(bot, "panic")) bot.panic else botlens.panic;

/// The bot's `std_options` if it declares them, else the standard library's defaults.
pub const std_options: @import("std").Options = if (@hasDecl(bot, "std_options")) bot.std_options else .{};
