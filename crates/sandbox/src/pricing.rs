//! What each WebAssembly instruction costs in fuel, so that fuel bounds wall time whatever
//! instructions a bot runs.
//!
//! wasmtime charges one unit of fuel per instruction (none for `nop`, `drop`, `block`, `loop`,
//! `end`, `else`, `return` and `unreachable`), and bulk instructions one more per byte or
//! element they move (`memory.fill`, `memory.copy`, `memory.init`, `table.fill`, `table.copy`,
//! `table.init`, `table.grow`). Almost every instruction then burns fuel at least as fast as the
//! slowest-burning loop, `(loop (br 0))`, about a nanosecond per unit; the few that call into
//! wasmtime's runtime or take many cycles did not: `ref.func` took about 60 ns for its one unit
//! and a `memory.fill` of no bytes 110–210 ns (glibc's AVX-512 `memset` of zero bytes on this
//! AMD CPU), so an endless loop of either reached the wall-clock backstop long before its fuel
//! ran out. [`operator_cost`] prices those: each costs what its time would buy of the empty
//! loop, with margin.
//!
//! `examples/fuel_rates.rs` times every instruction class in a tight loop (nanoseconds per unit
//! of fuel), which is how these prices were found; `tests/all/budgets.rs` checks each price and
//! that an endless loop of each priced instruction ends `out_of_fuel` under the default limits.
//! `docs/abi.md` lists the prices and `docs/performance.md` the measurements.
//!
//! A price is part of what a game is: a bot that runs a priced instruction burns different
//! fuel under other prices, so its traces replay only under the same prices (and its clock,
//! which is fuel, reads differently).
//!
//! Not for: host calls, which charge their own fuel (`crate::host::charge`).

use wasmtime::OperatorCost;

/// Fuel of a `ref.func` (a call into wasmtime's runtime: about 60 ns).
const REF_FUNC: u8 = 60;

/// Fuel of a `memory.fill`, on top of one unit per byte (a runtime call; `memset` of zero bytes
/// takes up to 210 ns on AMD Zen 4 with glibc 2.36).
const MEMORY_FILL: u8 = 160;

/// Fuel of a `memory.grow` (a runtime call and the store's limiter: about 30 ns).
const MEMORY_GROW: u8 = 30;

/// Fuel of a `table.grow`, on top of one unit per element (a runtime call: about 25 ns).
const TABLE_GROW: u8 = 20;

/// Fuel of an `elem.drop` (a runtime call: about 11 ns).
const ELEM_DROP: u8 = 10;

/// Fuel of a `table.init`, on top of one unit per element (a runtime call: about 13 ns).
const TABLE_INIT: u8 = 8;

/// Fuel per element of a `table.copy` (a runtime call that may initialise each element).
const TABLE_COPY_PER_ELEMENT: u8 = 2;

/// Fuel of `f64.sqrt` and `f64x2.sqrt` (about 7 ns each, in a chain).
const SQRT_F64: u8 = 6;

/// Fuel of `f32.sqrt` and `f32x4.sqrt` (about 5–6 ns each, in a chain).
const SQRT_F32: u8 = 5;

/// Fuel of the float divisions and of the vector float-to-integer conversions (about 3 ns).
const DIVIDE: u8 = 3;

/// Fuel of the other instructions that take two or three times the empty loop's time per unit:
/// float rounding, vector float minimum and maximum, vector float conversions and relaxed dot
/// products, `memory.copy` and `memory.init` (runtime calls), `return_call_indirect`.
const SLOW: u8 = 2;

/// wasmtime's operator costs with the slow instructions priced (see the module docs).
pub(crate) fn operator_cost() -> OperatorCost {
    let mut cost = OperatorCost::new();
    cost.RefFunc = REF_FUNC;
    cost.MemoryFill = MEMORY_FILL;
    cost.MemoryGrow = MEMORY_GROW;
    cost.TableGrow = TABLE_GROW;
    cost.ElemDrop = ELEM_DROP;
    cost.TableInit = TABLE_INIT;
    cost.variable.table_copy_per_element = TABLE_COPY_PER_ELEMENT;
    for sqrt in [&mut cost.F64Sqrt, &mut cost.F64x2Sqrt] {
        *sqrt = SQRT_F64;
    }
    for sqrt in [&mut cost.F32Sqrt, &mut cost.F32x4Sqrt] {
        *sqrt = SQRT_F32;
    }
    for divide in [
        &mut cost.F32Div,
        &mut cost.F64Div,
        &mut cost.F32x4Div,
        &mut cost.F64x2Div,
        &mut cost.I32x4TruncSatF32x4S,
        &mut cost.I32x4TruncSatF32x4U,
        &mut cost.I32x4TruncSatF64x2SZero,
        &mut cost.I32x4TruncSatF64x2UZero,
        &mut cost.I32x4RelaxedTruncF32x4S,
        &mut cost.I32x4RelaxedTruncF32x4U,
        &mut cost.I32x4RelaxedTruncF64x2SZero,
        &mut cost.I32x4RelaxedTruncF64x2UZero,
    ] {
        *divide = DIVIDE;
    }
    for slow in [
        &mut cost.F32Ceil,
        &mut cost.F32Floor,
        &mut cost.F32Trunc,
        &mut cost.F32Nearest,
        &mut cost.F64Ceil,
        &mut cost.F64Floor,
        &mut cost.F64Trunc,
        &mut cost.F64Nearest,
        &mut cost.F32x4Ceil,
        &mut cost.F32x4Floor,
        &mut cost.F32x4Trunc,
        &mut cost.F32x4Nearest,
        &mut cost.F64x2Ceil,
        &mut cost.F64x2Floor,
        &mut cost.F64x2Trunc,
        &mut cost.F64x2Nearest,
        &mut cost.F32x4Min,
        &mut cost.F32x4Max,
        &mut cost.F64x2Min,
        &mut cost.F64x2Max,
        &mut cost.F32x4RelaxedMin,
        &mut cost.F32x4RelaxedMax,
        &mut cost.F64x2RelaxedMin,
        &mut cost.F64x2RelaxedMax,
        &mut cost.F32x4DemoteF64x2Zero,
        &mut cost.F64x2PromoteLowF32x4,
        &mut cost.I16x8RelaxedDotI8x16I7x16S,
        &mut cost.I32x4RelaxedDotI8x16I7x16AddS,
        &mut cost.MemoryCopy,
        &mut cost.MemoryInit,
        &mut cost.ReturnCallIndirect,
    ] {
        *slow = SLOW;
    }
    cost
}
