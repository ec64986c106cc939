//! The place a native debugger stops at: a function of the host process that a bot module made
//! with [`BotModule::stopping_at`](crate::BotModule::stopping_at) calls as the chosen turn
//! begins. `botlens debug` puts its breakpoint here (`break botlens_turn_begins`), then on the
//! bot's own source lines; see docs/debugging.md.

/// Called as the bot begins the turn a debugger is to stop at (`turn`, 1 for its first). Never
/// inlined, under its own unmangled name, and with an effect the optimiser keeps (an empty
/// `asm!` block that takes `turn`: no instruction, and no inlined function for a debugger to
/// show as the frame), so the call and the symbol are there in every build of the host.
#[unsafe(no_mangle)]
#[inline(never)]
pub(crate) extern "C" fn botlens_turn_begins(turn: u32) {
    // SAFETY: the block is empty: it only names a register that holds `turn`.
    unsafe { std::arch::asm!("/* botlens turn {0} */", in(reg) turn as usize, options(nostack)) };
}
