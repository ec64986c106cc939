//! Fuel profiles: the sampler runs at every epoch check, charges every unit of a turn's fuel to
//! a stack, finds the hot function and line of a guest, and gives the same profile every run.

use botlens_engine::runner::MatchLimits;
use botlens_engine::{FailureKind, Game, MatchRecord, SeedRng, Stream, runner};
use botlens_sandbox::{BotModule, FuelProfile, SandboxLimits};
use botlens_tictactoe::TicTacToe;

use crate::instruction_loops;
use crate::support::{guest, marker_line, wat, wat_bot};

/// One profiled game against `random`: the record and the bot's profile.
fn profiled(bot: &BotModule, seed: u64, interval: u64) -> (MatchRecord<TicTacToe>, FuelProfile) {
    profiled_under(bot, seed, interval, &SandboxLimits::default())
}

/// [`profiled`] under `limits`.
fn profiled_under(
    bot: &BotModule,
    seed: u64,
    interval: u64,
    limits: &SandboxLimits,
) -> (MatchRecord<TicTacToe>, FuelProfile) {
    let mut wasm = bot.player::<TicTacToe>(seed, 0, limits).profiled(interval);
    let random =
        TicTacToe::reference_players().iter().find(|p| p.name == "random").expect("random");
    let mut opponent = (random.create)(SeedRng::new(seed, Stream::Player(1)));
    let record = runner::play_match::<TicTacToe>(
        &(),
        seed,
        &mut [&mut wasm, opponent.as_mut()],
        &MatchLimits::default(),
    );
    (record, wasm.profile().expect("a profiled player has a profile"))
}

/// Fuel charged to stacks whose innermost frame is named `function`.
fn self_fuel(profile: &FuelProfile, function: &str) -> u64 {
    let named = |i: &u32| profile.frames[*i as usize].function == function;
    let samples = profile.turns.iter().flat_map(|turn| &turn.samples);
    samples.filter(|s| s.stack.last().is_some_and(named)).map(|s| s.fuel).sum()
}

/// Every turn's samples add up to the fuel the trace records for it.
fn assert_every_unit_charged(record: &MatchRecord<TicTacToe>, profile: &FuelProfile) {
    let fuel: Vec<u64> =
        record.moves.iter().filter(|m| m.seat == 0).map(|m| m.cost.fuel.unwrap()).collect();
    let charged: Vec<u64> = profile.turns.iter().map(|t| t.fuel).collect();
    assert_eq!(charged, fuel);
    for turn in &profile.turns {
        assert_eq!(turn.fuel, turn.samples.iter().map(|s| s.fuel).sum::<u64>());
    }
}

#[test]
fn the_sampler_runs_at_every_loop_check_and_charges_each_function_its_own_fuel() {
    // `hot` loops 1000 times, `cold` 10 times, each round the same instructions: sampled at
    // every check (interval 1), their fuel is in the ratio of their rounds.
    let rounds = |name: &str, n: u32| {
        format!(
            r#"(func ${name} (local $i i32)
                 (loop $again
                   (local.set $i (i32.add (local.get $i) (i32.const 1)))
                   (br_if $again (i32.lt_u (local.get $i) (i32.const {n})))))"#
        )
    };
    let extra = format!("{}{}", rounds("hot", 1000), rounds("cold", 10));
    let bot = wat(&wat_bot("(call $hot) (call $cold)", &extra));
    let (record, profile) = profiled(&bot, 1, 1);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    assert_every_unit_charged(&record, &profile);
    // What `hot` costs: the game's fuel less that of the same game without the call.
    let without = |prelude: &str| profiled(&wat(&wat_bot(prelude, &extra)), 1, 1).1.fuel();
    let hot_cost = profile.fuel() - without("(call $cold)");
    let cold_cost = profile.fuel() - without("(call $hot)");
    let (hot, cold) = (self_fuel(&profile, "hot"), self_fuel(&profile, "cold"));
    assert!(hot.abs_diff(hot_cost) <= hot_cost / 100, "hot {hot}, costs {hot_cost}");
    // `cold` also gets the end of `play` after it, where no check samples.
    assert!(cold >= cold_cost && cold < hot / 10, "cold {cold}, costs {cold_cost}");
    // Sampled every 1000 checks instead, `cold` (ten checks a turn) is mostly not seen.
    let (_, coarse) = profiled(&bot, 1, 1000);
    assert!(self_fuel(&coarse, "cold") < cold, "{coarse:?}");
    assert_eq!(coarse.fuel(), profile.fuel());
}

#[test]
fn a_rust_guest_burns_its_fuel_on_the_hot_line_and_two_runs_give_the_same_profile() {
    let bot = guest("burner");
    let (record, profile) = profiled(&bot, 4, 100);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    assert_every_unit_charged(&record, &profile);
    let hot_line = marker_line("burner", "HOT");
    let on_hot_line: u64 = profile
        .turns
        .iter()
        .flat_map(|turn| &turn.samples)
        .filter(|s| {
            // The innermost frame of the bot's own code (`hot` inlines std's `wrapping_add`).
            let mut frames = s.stack.iter().rev().map(|i| &profile.frames[*i as usize]);
            let own = frames.find(|f| f.bot);
            own.and_then(|f| f.location.as_ref()).is_some_and(|l| l.line == hot_line)
        })
        .map(|s| s.fuel)
        .sum();
    let share = on_hot_line as f64 / profile.fuel() as f64;
    assert!((0.8..0.95).contains(&share), "{share}: {profile:#?}");
    assert!(profile.frames.iter().any(|f| f.function.ends_with("::hot") && f.bot));
    assert!(profile.frames.iter().any(|f| !f.bot), "the SDK's frames are there, not the bot's");
    let again = profiled(&bot, 4, 100).1;
    assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&profile).unwrap());
}

#[test]
fn the_turn_that_runs_out_of_fuel_has_its_profile_in_the_loop() {
    let bot = guest("spinner");
    let (record, profile) = profiled(&bot, 0, 1000);
    let fault = record.outcome.fault.as_ref().expect("out of fuel");
    assert_eq!(fault.failure.kind, FailureKind::OutOfFuel);
    let last = profile.turns.last().unwrap();
    assert_eq!((profile.turns.len(), last.fuel), (2, SandboxLimits::default().fuel_per_turn));
    let spin = marker_line("spinner", "SPIN");
    let hottest = last.samples.iter().max_by_key(|s| s.fuel).unwrap();
    let frame = &profile.frames[*hottest.stack.last().unwrap() as usize];
    assert_eq!(frame.location.as_ref().map(|l| l.line), Some(spin), "{frame:?}");
    assert!(hottest.fuel > last.fuel / 10 * 9);
}

/// The catalogue's loop named `name`, loaded.
fn instruction_loop(name: &str) -> BotModule {
    let all = instruction_loops::all();
    wat(&all.iter().find(|l| l.name == name).expect("a loop of the catalogue").module())
}

#[test]
fn a_profiled_turn_is_not_cut_short_by_the_backstop_its_game_kept_within() {
    // `loop br 0` profiled: every unit of fuel is an epoch check that calls the sampler, about
    // 25 ns where the unprofiled loop takes 1 ns. These 2,500,000 units take about 60 ms of CPU
    // time: six times the 10 ms backstop, which cut such a profile short (at default limits too,
    // on a loaded machine), and an eighth of the profiled backstop (50 times it, in CPU time).
    let limits = SandboxLimits {
        fuel_per_turn: 2_500_000,
        wall_clock_ms_per_turn: 10,
        ..Default::default()
    };
    let (record, profile) =
        profiled_under(&instruction_loop("br (an empty loop)"), 0, 1000, &limits);
    let fault = record.outcome.fault.as_ref().expect("a fault");
    assert_eq!(fault.failure.kind, FailureKind::OutOfFuel, "{}", fault.failure);
    assert_eq!(profile.turns.len(), 1);
    assert_eq!(profile.turns[0].fuel, 2_500_000);
}

#[test]
fn a_spin_under_thousands_of_frames_is_sampled_less_often_and_profiled_to_its_end() {
    // Capturing 5,000 frames takes about 3 ms: sampled every 1,000 checks, this turn's
    // 10,000,000 units took half a minute and the 10 s backstop cut it short. A sample of d
    // frames now puts the next off by 32 checks per frame past 64: the turn is profiled in
    // about half a second.
    let limits = SandboxLimits { fuel_per_turn: 10_000_000, ..Default::default() };
    let bot = instruction_loop("br, under 5,000 calls (a deep stack)");
    let (record, profile) = profiled_under(&bot, 0, 1000, &limits);
    let fault = record.outcome.fault.as_ref().expect("a fault");
    assert_eq!(fault.failure.kind, FailureKind::OutOfFuel, "{}", fault.failure);
    let turn = &profile.turns[0];
    assert_eq!(turn.fuel, 10_000_000);
    let hottest = turn.samples.iter().max_by_key(|s| s.fuel).unwrap();
    assert!(hottest.fuel > turn.fuel / 10 * 9, "{hottest:?}");
    let innermost = &profile.frames[*hottest.stack.last().unwrap() as usize];
    assert_eq!(innermost.function, "deep");
    assert_eq!(hottest.stack.len(), 512, "the innermost 512 frames are kept");
}

#[test]
fn an_unprofiled_player_has_no_profile() {
    let bot = guest("burner");
    let player = bot.player::<TicTacToe>(0, 0, &SandboxLimits::default());
    assert!(player.profile().is_none());
}

#[test]
fn the_memory_a_bot_keeps_is_charged_to_the_line_that_grew_it() {
    let bot = guest("hoarder");
    let (record, profile) = profiled(&bot, 4, 1000);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    let memory = |m: &botlens_engine::MoveRecord<_, _>| m.cost.memory.expect("wasm memory");
    let mut own = record.moves.iter().filter(|m| m.seat == 0);
    let first = own.next().map(memory).expect("the bot moved");
    let last = own.next_back().map_or(first, memory);
    let grown: u64 = profile.growth.iter().map(|g| g.bytes).sum();
    assert!(grown >= last - first, "all growth after the first turn is charged: {grown}");
    let hoard_line = marker_line("hoarder", "HOARD");
    let at_hoard: u64 = profile
        .growth
        .iter()
        .filter(|g| {
            let mut frames = g.stack.iter().rev().map(|i| &profile.frames[*i as usize]);
            let own = frames.find(|f| f.bot);
            own.and_then(|f| f.location.as_ref()).is_some_and(|l| l.line == hoard_line)
        })
        .map(|g| g.bytes)
        .sum();
    assert!(at_hoard as f64 >= 0.9 * grown as f64, "{at_hoard} of {grown}: {profile:#?}");
    let again = profiled(&bot, 4, 1000).1;
    assert_eq!(again.growth, profile.growth, "deterministic");
}

/// A language runner (a `botlens_runner` section) that plays as [`wat_bot`] does after
/// `calls` (of `hot`, 1,000 rounds, and `cold`, 10 rounds), each keeping in `$at` and `$len`
/// the frames it would state; its `botlens_sample` is `sample`.
fn sampling_runner(calls: &str, sample: &str) -> BotModule {
    let rounds = |name: &str, n: u32, at: u32, len: u32| {
        format!(
            r#"(func ${name} (local $i i32)
                 (global.set $at (i32.const {at})) (global.set $len (i32.const {len}))
                 (loop $again
                   (local.set $i (i32.add (local.get $i) (i32.const 1)))
                   (br_if $again (i32.lt_u (local.get $i) (i32.const {n}))))
                 (global.set $at (i32.const 0)) (global.set $len (i32.const 0)))"#
        )
    };
    let extra = format!(
        r#"(@custom "botlens_runner" "test")
  (global $at (mut i32) (i32.const 0))
  (global $len (mut i32) (i32.const 0))
  (data (i32.const 2048) "-\09helper\09lib.txt\097\091\0a+\09hot\09bot.txt\0910\091\0a+\09play\09bot.txt\093\095\0a")
  (data (i32.const 2176) "+\09cold\09bot.txt\0920\091\0anot a frame\0a+\09unplaced\09\090\090\0a+\09play\09bot.txt\094\095\0a")
  {hot}
  {cold}
  (func (export "botlens_sample") (result i64) {sample})"#,
        hot = rounds("hot", 1000, 2048, 59),
        cold = rounds("cold", 10, 2176, 67),
    );
    wat(&wat_bot(calls, &extra))
}

/// The stated frames the runner's samples give: `(function, line)`, the bot's with their line.
const STATED_WHERE: &str = "(i64.or (i64.extend_i32_u (global.get $at))
    (i64.shl (i64.extend_i32_u (global.get $len)) (i64.const 32)))";

#[test]
fn a_runner_that_states_its_frames_is_profiled_by_them_and_plays_the_same_game() {
    // The sample burns 100,000 units of fuel of its own before answering, and writes over a
    // byte the bot never reads: the game, its fuel and its moves are the unprofiled game's.
    let burn = "(local $i i32) (loop $burn
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $burn (i32.lt_u (local.get $i) (i32.const 25000))))
        (i32.store8 (i32.const 4000) (local.get $i))";
    let sample = format!("{burn} {STATED_WHERE}");
    let bot = sampling_runner("(call $hot) (call $cold)", &sample);
    assert!(bot.is_runner() && bot.profiles_script());
    let unsampled = wat(&wat_bot("", r#"(@custom "botlens_runner" "test")"#));
    assert!(unsampled.is_runner() && !unsampled.profiles_script(), "no botlens_sample");
    let (record, profile) = profiled(&bot, 1, 1);
    let unprofiled = crate::support::play(&bot, 1, &SandboxLimits::default());
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    assert_eq!(format!("{:?}", record.moves), format!("{:?}", unprofiled.moves));
    assert_every_unit_charged(&record, &profile);
    let frame = |function: &str| profile.frames.iter().find(|f| f.function == function);
    let hot = frame("hot").expect("hot stated");
    assert_eq!(
        hot.location.as_ref().map(|l| (&l.file[..], l.line, l.column)),
        Some(("bot.txt", 10, 1))
    );
    assert!(hot.bot && frame("play").is_some_and(|f| f.bot));
    let helper = frame("helper").expect("helper stated");
    assert!(!helper.bot && helper.location.as_ref().is_some_and(|l| l.line == 7), "{helper:?}");
    assert!(frame("not a frame").is_none(), "a line that is not a frame is left out");
    let unplaced = frame("unplaced").expect("unplaced stated");
    assert!(!unplaced.bot, "the bot's frames have a place: {unplaced:?}");
    // `hot`'s stack, innermost `helper`, takes its fuel: what the game costs without it.
    let without = profiled(&sampling_runner("(call $cold)", &sample), 1, 1).1.fuel();
    let hot_cost = profile.fuel() - without;
    let in_helper = self_fuel(&profile, "helper");
    assert!(
        in_helper.abs_diff(hot_cost) <= hot_cost / 50,
        "helper {in_helper}, hot costs {hot_cost}"
    );
    let again = profiled(&bot, 1, 1).1;
    assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&profile).unwrap());
}

#[test]
fn a_runner_whose_samples_fail_is_profiled_without_frames_and_plays_the_same_game() {
    for (case, sample) in [
        ("traps", "unreachable"),
        ("spins until its fuel runs out", "(loop $spin (br $spin)) (i64.const 0)"),
        ("points past its memory", "(i64.const 0x7fff_ffff_ffff_fff0)"),
        (
            "states text that is not UTF-8",
            "(i32.store (i32.const 4000) (i32.const -1)) (i64.const 0x0000_0004_0000_0fa0)",
        ),
        // The host refuses every call of a sample, before it changes anything.
        ("logs", "(call $log (i32.const 2048) (i32.const 8)) (i64.const 0)"),
        (
            "moves",
            "(drop (call $act (i32.const 256) (i32.const 13) (i32.const 512) (i32.const 256)))
             (i64.const 0)",
        ),
    ] {
        let bot = sampling_runner("(call $hot) (call $cold)", sample);
        let (record, profile) = profiled(&bot, 1, 1000);
        let unprofiled = crate::support::play(&bot, 1, &SandboxLimits::default());
        assert_eq!(format!("{:?}", record.moves), format!("{:?}", unprofiled.moves), "{case}");
        assert!(record.outcome.fault.is_none(), "{case}: {}", record.outcome.reason);
        assert_every_unit_charged(&record, &profile);
        assert!(profile.frames.is_empty(), "{case}: {:?}", profile.frames);
    }
}
