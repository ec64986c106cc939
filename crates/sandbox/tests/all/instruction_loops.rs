//! Every instruction class a bot can run, each as the body of an endless loop in a bot module:
//! what `examples/fuel_rates.rs` times (wall time per unit of fuel) and what the budget tests run
//! under the default limits.
//!
//! A loop's body is written so that a bot burns as little fuel as it can per instruction: values
//! flow from one instruction into the next (so the compiler can drop none of them, and each waits
//! for the one before), operands come from locals, and the bulk operations take their lengths
//! from locals (so none is a constant the compiler could inline).
//!
//! Not for: checking what an instruction computes.

/// A value type of the loops' locals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    I32,
    I64,
    F32,
    F64,
    V128,
    /// An i32 address in memory (`$zero`).
    Addr,
}

impl Ty {
    /// The local a chain of this type runs through.
    fn chain(self) -> &'static str {
        match self {
            Ty::I32 | Ty::Addr => "$i32a",
            Ty::I64 => "$i64a",
            Ty::F32 => "$f32a",
            Ty::F64 => "$f64a",
            Ty::V128 => "$va",
        }
    }

    /// The local an operand of this type is read from.
    fn operand(self) -> &'static str {
        match self {
            Ty::I32 => "$i32b",
            Ty::I64 => "$i64b",
            Ty::F32 => "$f32b",
            Ty::F64 => "$f64b",
            Ty::V128 => "$vb",
            Ty::Addr => "$zero",
        }
    }

    /// An instruction that folds two values of this type into one (to accumulate results).
    fn fold(self) -> &'static str {
        match self {
            Ty::I32 | Ty::Addr => "i32.xor",
            Ty::I64 => "i64.xor",
            Ty::F32 => "f32.add",
            Ty::F64 => "f64.add",
            Ty::V128 => "v128.xor",
        }
    }
}

/// Instructions a generated loop body repeats.
const UNROLL: usize = 8;

/// One loop: a name for tables, module fields it needs beyond the template's, instructions run
/// once before it, and its body.
#[derive(Debug, Clone)]
pub struct InstructionLoop {
    /// What the loop runs, e.g. `memory.fill, 0 bytes`.
    pub name: String,
    /// Instructions run once before the loop (in `botlens_play`).
    pub setup: String,
    /// The loop's body; the loop is `(loop $spin BODY (br $spin))`.
    pub body: String,
}

impl InstructionLoop {
    fn new(name: impl Into<String>, setup: &str, body: &str) -> Self {
        InstructionLoop { name: name.into(), setup: setup.into(), body: body.into() }
    }

    /// The bot module: `botlens_play` runs the setup, then the loop forever.
    pub fn module(&self) -> String {
        module(&self.setup, &format!("(loop $spin {} (br $spin))", self.body))
    }
}

/// The 1,024 bytes of the passive data segment and the first page's initial contents.
const DATA_BYTES: usize = 1024;

/// Elements of the table and of the passive element segment.
const ELEMENTS: usize = 1024;

/// A bot module whose `botlens_play` runs `code` after setting its locals: every table, segment,
/// global and function the loops use is here.
pub fn module(setup: &str, code: &str) -> String {
    let data = "\\2a".repeat(DATA_BYTES);
    let elements = "$f ".repeat(ELEMENTS);
    format!(
        r#"(module
  (type $v (func))
  (memory (export "memory") 2)
  (table $t {ELEMENTS} funcref)
  (elem (table $t) (i32.const 0) func $f $tail_indirect)
  (elem $e func {elements})
  (data $d "{data}")
  (global $g (mut i64) (i64.const 1))
  (@custom "botlens_abi" "1")
  (func $f)
  (func $tail (return_call $tail))
  (func $tail_indirect (return_call_indirect (type $v) (i32.const 1)))
  (func $hop (return_call_indirect (type $v) (i32.const 0)))
  (func $deep (param $depth i32)
    (if (local.get $depth) (then (call $deep (i32.sub (local.get $depth) (i32.const 1)))))
    (loop $spin (br $spin)))
  (func (export "botlens_new") (param i32))
  (func (export "botlens_play")
    (local $zero i32) (local $one i32) (local $n i32) (local $p i32) (local $r funcref) (local $fr (ref null $v))
    (local $i32a i32) (local $i32b i32) (local $i64a i64) (local $i64b i64)
    (local $f32a f32) (local $f32b f32) (local $f64a f64) (local $f64b f64)
    (local $va v128) (local $vb v128) (local $vc v128)
    (local.set $one (i32.const 1))
    (local.set $i32a (i32.const 0x12345678)) (local.set $i32b (i32.const 1))
    (local.set $i64a (i64.const 0x123456789abcdef0)) (local.set $i64b (i64.const 1))
    (local.set $f32a (f32.const 1234.5)) (local.set $f32b (f32.const 1))
    (local.set $f64a (f64.const 1234.5)) (local.set $f64b (f64.const 1))
    (local.set $va (v128.const i32x4 0x12345678 0x3f800000 0x40490fdb 0x7f7fffff))
    (local.set $vb (v128.const i32x4 1 0x3f800000 1 0x3f800000))
    (local.set $vc (v128.const i32x4 -1 0 -1 0))
    (local.set $r (ref.func $f)) (local.set $fr (ref.func $f))
    {setup}
    {code}))"#
    )
}

/// A numeric or vector instruction: its text (with immediates), operand types and result type
/// (`None`: it has none, a store).
struct Op {
    text: String,
    operands: Vec<Ty>,
    result: Option<Ty>,
}

impl Op {
    /// The loop body: a chain through the result's local when an operand has the result's type
    /// (each instruction takes the one before as that operand), else the results folded into
    /// that local, else the instruction repeated.
    fn body(&self) -> String {
        let operands = |chained: Option<(usize, String)>| {
            self.operands
                .iter()
                .enumerate()
                .map(|(at, ty)| match &chained {
                    Some((index, inner)) if *index == at => inner.clone(),
                    _ => format!("(local.get {})", ty.operand()),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let Some(result) = self.result else {
            return format!("({} {})", self.text, operands(None)).repeat(UNROLL);
        };
        let local = result.chain();
        match self.operands.iter().position(|ty| ty.chain() == local && *ty != Ty::Addr) {
            Some(index) => {
                let mut inner = format!("(local.get {local})");
                for _ in 0..UNROLL {
                    inner = format!("({} {})", self.text, operands(Some((index, inner))));
                }
                format!("(local.set {local} {inner})")
            }
            None => {
                let fold = result.fold();
                let once = format!(
                    "(local.set {local} ({fold} (local.get {local}) ({} {})))",
                    self.text,
                    operands(None)
                );
                once.repeat(UNROLL)
            }
        }
    }
}

fn op(text: &str, operands: &[Ty], result: Option<Ty>) -> Op {
    Op { text: text.into(), operands: operands.to_vec(), result }
}

/// Every numeric, memory and vector instruction, by signature.
fn numeric() -> Vec<Op> {
    use Ty::*;
    let mut ops = Vec::new();
    let mut each = |names: &str, prefix: &str, operands: &[Ty], result: Option<Ty>| {
        for name in names.split_whitespace() {
            ops.push(op(&format!("{prefix}.{name}"), operands, result));
        }
    };
    let int_binary = "add sub mul div_s div_u rem_s rem_u and or xor shl shr_s shr_u rotl rotr";
    let int_compare = "eq ne lt_s lt_u gt_s gt_u le_s le_u ge_s ge_u";
    each(int_binary, "i32", &[I32, I32], Some(I32));
    each(int_binary, "i64", &[I64, I64], Some(I64));
    each(int_compare, "i32", &[I32, I32], Some(I32));
    each(int_compare, "i64", &[I64, I64], Some(I32));
    each("clz ctz popcnt eqz extend8_s extend16_s", "i32", &[I32], Some(I32));
    each("clz ctz popcnt extend8_s extend16_s extend32_s", "i64", &[I64], Some(I64));
    each("eqz", "i64", &[I64], Some(I32));
    let float_binary = "add sub mul div min max copysign";
    let float_unary = "abs neg ceil floor trunc nearest sqrt";
    let float_compare = "eq ne lt gt le ge";
    for (prefix, ty) in [("f32", F32), ("f64", F64)] {
        each(float_binary, prefix, &[ty, ty], Some(ty));
        each(float_unary, prefix, &[ty], Some(ty));
        each(float_compare, prefix, &[ty, ty], Some(I32));
    }
    for (text, from, to) in [
        ("i32.wrap_i64", I64, I32),
        ("i64.extend_i32_s", I32, I64),
        ("i64.extend_i32_u", I32, I64),
        ("i32.trunc_f32_s", F32, I32),
        ("i32.trunc_f32_u", F32, I32),
        ("i32.trunc_f64_s", F64, I32),
        ("i32.trunc_f64_u", F64, I32),
        ("i64.trunc_f32_s", F32, I64),
        ("i64.trunc_f32_u", F32, I64),
        ("i64.trunc_f64_s", F64, I64),
        ("i64.trunc_f64_u", F64, I64),
        ("i32.trunc_sat_f32_s", F32, I32),
        ("i32.trunc_sat_f32_u", F32, I32),
        ("i32.trunc_sat_f64_s", F64, I32),
        ("i32.trunc_sat_f64_u", F64, I32),
        ("i64.trunc_sat_f32_s", F32, I64),
        ("i64.trunc_sat_f32_u", F32, I64),
        ("i64.trunc_sat_f64_s", F64, I64),
        ("i64.trunc_sat_f64_u", F64, I64),
        ("f32.convert_i32_s", I32, F32),
        ("f32.convert_i32_u", I32, F32),
        ("f32.convert_i64_s", I64, F32),
        ("f32.convert_i64_u", I64, F32),
        ("f64.convert_i32_s", I32, F64),
        ("f64.convert_i32_u", I32, F64),
        ("f64.convert_i64_s", I64, F64),
        ("f64.convert_i64_u", I64, F64),
        ("f32.demote_f64", F64, F32),
        ("f64.promote_f32", F32, F64),
        ("i32.reinterpret_f32", F32, I32),
        ("i64.reinterpret_f64", F64, I64),
        ("f32.reinterpret_i32", I32, F32),
        ("f64.reinterpret_i64", I64, F64),
    ] {
        ops.push(op(text, &[from], Some(to)));
    }
    for (text, ty) in [
        ("i32.load", I32),
        ("i64.load", I64),
        ("f32.load", F32),
        ("f64.load", F64),
        ("i32.load8_s", I32),
        ("i32.load8_u", I32),
        ("i32.load16_s", I32),
        ("i32.load16_u", I32),
        ("i64.load8_s", I64),
        ("i64.load8_u", I64),
        ("i64.load16_s", I64),
        ("i64.load16_u", I64),
        ("i64.load32_s", I64),
        ("i64.load32_u", I64),
        ("v128.load", V128),
        ("v128.load8x8_s", V128),
        ("v128.load8x8_u", V128),
        ("v128.load16x4_s", V128),
        ("v128.load16x4_u", V128),
        ("v128.load32x2_s", V128),
        ("v128.load32x2_u", V128),
        ("v128.load8_splat", V128),
        ("v128.load16_splat", V128),
        ("v128.load32_splat", V128),
        ("v128.load64_splat", V128),
        ("v128.load32_zero", V128),
        ("v128.load64_zero", V128),
    ] {
        ops.push(op(text, &[Addr], Some(ty)));
    }
    for (text, ty) in [
        ("i32.store", I32),
        ("i64.store", I64),
        ("f32.store", F32),
        ("f64.store", F64),
        ("i32.store8", I32),
        ("i32.store16", I32),
        ("i64.store8", I64),
        ("i64.store16", I64),
        ("i64.store32", I64),
        ("v128.store", V128),
    ] {
        ops.push(op(text, &[Addr, ty], None));
    }
    for lanes in ["8", "16", "32", "64"] {
        ops.push(op(&format!("v128.load{lanes}_lane 1"), &[Addr, V128], Some(V128)));
        ops.push(op(&format!("v128.store{lanes}_lane 1"), &[Addr, V128], None));
    }
    ops.extend(vector());
    ops
}

/// The vector instructions (SIMD and relaxed SIMD) that are not memory accesses.
fn vector() -> Vec<Op> {
    use Ty::*;
    let mut ops = Vec::new();
    let mut each = |names: &str, prefix: &str, operands: &[Ty], result: Ty| {
        for name in names.split_whitespace() {
            ops.push(op(&format!("{prefix}.{name}"), operands, Some(result)));
        }
    };
    let v = V128;
    each("not", "v128", &[v], v);
    each("and andnot or xor", "v128", &[v, v], v);
    each("bitselect", "v128", &[v, v, v], v);
    each("any_true", "v128", &[v], I32);
    each("swizzle relaxed_swizzle", "i8x16", &[v, v], v);
    let mut lanes = Vec::new();
    for (shape, scalar, signed) in [
        ("i8x16", I32, true),
        ("i16x8", I32, true),
        ("i32x4", I32, false),
        ("i64x2", I64, false),
        ("f32x4", F32, false),
        ("f64x2", F64, false),
    ] {
        each("splat", shape, &[scalar], v);
        let extracts: &[&str] =
            if signed { &["extract_lane_s", "extract_lane_u"] } else { &["extract_lane"] };
        for extract in extracts {
            lanes.push(op(&format!("{shape}.{extract} 1"), &[v], Some(scalar)));
        }
        lanes.push(op(&format!("{shape}.replace_lane 1"), &[v, scalar], Some(v)));
    }
    let int_compare = "eq ne lt_s lt_u gt_s gt_u le_s le_u ge_s ge_u";
    each(int_compare, "i8x16", &[v, v], v);
    each(int_compare, "i16x8", &[v, v], v);
    each(int_compare, "i32x4", &[v, v], v);
    each("eq ne lt_s gt_s le_s ge_s", "i64x2", &[v, v], v);
    for shape in ["f32x4", "f64x2"] {
        each("eq ne lt gt le ge", shape, &[v, v], v);
        each("ceil floor trunc nearest abs neg sqrt", shape, &[v], v);
        each("add sub mul div min max pmin pmax relaxed_min relaxed_max", shape, &[v, v], v);
        each("relaxed_madd relaxed_nmadd", shape, &[v, v, v], v);
    }
    for shape in ["i8x16", "i16x8", "i32x4", "i64x2"] {
        each("abs neg", shape, &[v], v);
        each("all_true bitmask", shape, &[v], I32);
        each("shl shr_s shr_u", shape, &[v, I32], v);
        each("add sub", shape, &[v, v], v);
        each("relaxed_laneselect", shape, &[v, v, v], v);
    }
    each("popcnt", "i8x16", &[v], v);
    each("narrow_i16x8_s narrow_i16x8_u", "i8x16", &[v, v], v);
    each(
        "add_sat_s add_sat_u sub_sat_s sub_sat_u min_s min_u max_s max_u avgr_u",
        "i8x16",
        &[v, v],
        v,
    );
    each(
        "add_sat_s add_sat_u sub_sat_s sub_sat_u min_s min_u max_s max_u avgr_u",
        "i16x8",
        &[v, v],
        v,
    );
    each("mul q15mulr_sat_s relaxed_q15mulr_s relaxed_dot_i8x16_i7x16_s", "i16x8", &[v, v], v);
    each("narrow_i32x4_s narrow_i32x4_u", "i16x8", &[v, v], v);
    each(
        "extend_low_i8x16_s extend_low_i8x16_u extend_high_i8x16_s extend_high_i8x16_u \
         extadd_pairwise_i8x16_s extadd_pairwise_i8x16_u",
        "i16x8",
        &[v],
        v,
    );
    each(
        "extmul_low_i8x16_s extmul_low_i8x16_u extmul_high_i8x16_s extmul_high_i8x16_u",
        "i16x8",
        &[v, v],
        v,
    );
    each("mul min_s min_u max_s max_u dot_i16x8_s", "i32x4", &[v, v], v);
    each(
        "extend_low_i16x8_s extend_low_i16x8_u extend_high_i16x8_s extend_high_i16x8_u \
         extadd_pairwise_i16x8_s extadd_pairwise_i16x8_u",
        "i32x4",
        &[v],
        v,
    );
    each(
        "extmul_low_i16x8_s extmul_low_i16x8_u extmul_high_i16x8_s extmul_high_i16x8_u",
        "i32x4",
        &[v, v],
        v,
    );
    each("relaxed_dot_i8x16_i7x16_add_s", "i32x4", &[v, v, v], v);
    each(
        "trunc_sat_f32x4_s trunc_sat_f32x4_u trunc_sat_f64x2_s_zero trunc_sat_f64x2_u_zero \
         relaxed_trunc_f32x4_s relaxed_trunc_f32x4_u relaxed_trunc_f64x2_s_zero \
         relaxed_trunc_f64x2_u_zero",
        "i32x4",
        &[v],
        v,
    );
    each("mul", "i64x2", &[v, v], v);
    each(
        "extend_low_i32x4_s extend_low_i32x4_u extend_high_i32x4_s extend_high_i32x4_u",
        "i64x2",
        &[v],
        v,
    );
    each(
        "extmul_low_i32x4_s extmul_low_i32x4_u extmul_high_i32x4_s extmul_high_i32x4_u",
        "i64x2",
        &[v, v],
        v,
    );
    each("convert_i32x4_s convert_i32x4_u demote_f64x2_zero", "f32x4", &[v], v);
    each("convert_low_i32x4_s convert_low_i32x4_u promote_low_f32x4", "f64x2", &[v], v);
    ops.extend(lanes);
    ops.push(op("i8x16.shuffle 31 0 30 1 29 2 28 3 27 4 26 5 25 6 24 7", &[v, v], Some(v)));
    ops
}

/// The bulk memory and table instructions at a length (bytes or elements) held in `$n`: a
/// constant the compiler sees, or one it reads from memory (which it compiles differently).
fn bulk(lengths: &[u32]) -> Vec<InstructionLoop> {
    let mut loops = Vec::new();
    for (&n, read) in lengths.iter().flat_map(|n| [(n, false), (n, true)]) {
        let setup = if read {
            format!(
                "(i32.store (i32.const 65528) (i32.const {n})) (local.set $n (i32.load (i32.const 65528)))"
            )
        } else {
            format!("(local.set $n (i32.const {n}))")
        };
        let unit = |unit: &str| {
            let unit = if n == 1 { unit.to_owned() } else { format!("{unit}s") };
            if read { format!("{unit} read from memory") } else { unit }
        };
        let bytes = format!("{n} {}", unit("byte"));
        let elements = format!("{n} {}", unit("element"));
        let mut add =
            |name: String, body: &str| loops.push(InstructionLoop::new(name, &setup, body));
        add(
            format!("memory.fill, {bytes}"),
            "(memory.fill (local.get $zero) (local.get $zero) (local.get $n))",
        );
        add(
            format!("memory.copy, {bytes}"),
            "(memory.copy (local.get $zero) (local.get $zero) (local.get $n))",
        );
        add(
            format!("memory.init, {bytes}"),
            "(memory.init $d (local.get $zero) (local.get $zero) (local.get $n))",
        );
        add(
            format!("table.fill, {elements}"),
            "(table.fill $t (local.get $zero) (local.get $r) (local.get $n))",
        );
        add(
            format!("table.copy, {elements}"),
            "(table.copy $t $t (local.get $zero) (local.get $zero) (local.get $n))",
        );
        add(
            format!("table.init, {elements}"),
            "(table.init $t $e (local.get $zero) (local.get $zero) (local.get $n))",
        );
    }
    loops
}

/// Control, calls, references, tables, memory management, globals and memory access patterns:
/// the instructions that are not plain computations on values.
fn special() -> Vec<InstructionLoop> {
    let l = |name: &str, body: &str| InstructionLoop::new(name, "", body);
    let mut loops = vec![
        l("br (an empty loop)", ""),
        l("br_if", "(br_if $spin (local.get $one))"),
        l("br_table", "(br_table $spin $spin $spin (local.get $one))"),
        l("if, else", "(if (local.get $one) (then (nop)) (else (nop)))"),
        l("block, end", "(block (block (block)))"),
        l(
            "select",
            "(local.set $i32a (select (local.get $i32a) (local.get $i32b) (local.get $one)))",
        ),
        l("local.tee", "(local.set $i32a (local.tee $i32b (local.tee $i32a (local.get $i32b))))"),
        l("global.get, global.set", "(global.set $g (global.get $g))"),
        l("call (an empty function)", "(call $f)"),
        l("call_indirect", "(call_indirect (type $v) (local.get $zero))"),
        l("return_call (a function calling itself)", "(call $tail)"),
        l("return_call_indirect (a function calling itself)", "(call $tail_indirect)"),
        l("call_ref", "(call_ref $v (local.get $fr))"),
        l("ref.func", "(local.set $r (ref.func $f))"),
        l("ref.as_non_null", "(local.set $fr (ref.as_non_null (local.get $fr)))"),
        l("br_on_null", "(block $null (br_on_null $null (local.get $fr)) (drop))"),
        l(
            "br_on_non_null",
            "(drop (block $b (result (ref $v)) (br_on_non_null $b (local.get $fr)) (unreachable)))",
        ),
        l("ref.null, ref.is_null", "(local.set $i32a (ref.is_null (ref.null func)))"),
        l("ref.is_null", "(local.set $i32a (ref.is_null (local.get $r)))"),
        l("table.get", "(local.set $r (table.get $t (local.get $zero)))"),
        l("table.set", "(table.set $t (local.get $zero) (local.get $r))"),
        l("table.size", "(local.set $i32a (table.size $t))"),
        l(
            "table.grow, 0 elements",
            "(local.set $i32a (table.grow $t (local.get $r) (local.get $zero)))",
        ),
        l("elem.drop", "(elem.drop $e)"),
        l("memory.size", "(local.set $i32a (memory.size))"),
        l("memory.grow, 0 pages", "(local.set $i32a (memory.grow (local.get $zero)))"),
        l("data.drop", "(data.drop $d)"),
        l(
            "i64.load across a page boundary",
            "(local.set $i64a (i64.load offset=65532 (local.get $zero)))",
        ),
        l(
            "i64.store, then i64.load of its last half",
            "(i64.store (local.get $zero) (local.get $i64a)) \
             (local.set $i64a (i64.load offset=4 (local.get $zero)))",
        ),
        l(
            "f64.mul of subnormals",
            "(local.set $f64a (f64.mul (local.get $f64a) (local.get $f64b)))",
        ),
    ];
    let subnormal = loops.last_mut().expect("just pushed");
    subnormal.setup =
        "(local.set $f64a (f64.const 0x1p-1070)) (local.set $f64b (f64.const 1))".into();
    loops.extend([
        InstructionLoop::new(
            "table.grow, 100,000 elements (refused)",
            "(local.set $n (i32.const 100000))",
            "(local.set $i32a (table.grow $t (local.get $r) (local.get $n)))",
        ),
        pointer_chase(1),
        pointer_chase(8),
        pointer_chase(60),
        // What a profiler's stack samples cost grows with the stack's depth.
        InstructionLoop::new(
            "br, under 5,000 calls (a deep stack)",
            "(call $deep (i32.const 5000))",
            "",
        ),
    ]);
    loops
}

/// Loads that each wait for the one before, at addresses spread over `mib` MiB in an order no
/// prefetcher follows: past the caches' size (and the TLB's reach), every load misses them.
fn pointer_chase(mib: u32) -> InstructionLoop {
    let lines = (mib << 20) / 64;
    // Line k points at line k + STRIDE (mod lines): one cycle through every line, since the
    // stride is prime to their count, jumping about 2.5 MiB at a time.
    const STRIDE: u32 = 40_507;
    let setup = format!(
        "(drop (memory.grow (i32.const {pages})))
         (loop $link
           (i32.store (i32.shl (local.get $p) (i32.const 6))
             (i32.shl (i32.rem_u (i32.add (local.get $p) (i32.const {STRIDE})) (i32.const {lines}))
                      (i32.const 6)))
           (local.set $p (i32.add (local.get $p) (local.get $one)))
           (br_if $link (i32.lt_u (local.get $p) (i32.const {lines}))))
         (local.set $p (i32.const 0))",
        pages = (mib << 20) / 65536,
    );
    let chase =
        (0..UNROLL).fold("(local.get $p)".to_owned(), |inner, _| format!("(i32.load {inner})"));
    InstructionLoop::new(
        format!("i32.load, each waiting for the last (a pointer chase over {mib} MiB)"),
        &setup,
        &format!("(local.set $p {chase})"),
    )
}

/// Every instruction class in a loop: control and calls, references and tables, memory
/// management, bulk operations at 0, 1, 16 and 1,024 bytes or elements, then every numeric, memory
/// and vector instruction by signature.
pub fn all() -> Vec<InstructionLoop> {
    let mut loops = special();
    loops.extend(bulk(&[0, 1, 16, 1024]));
    loops.extend(numeric().into_iter().map(|op| InstructionLoop {
        name: op.text.split_whitespace().next().unwrap_or_default().to_owned(),
        setup: String::new(),
        body: op.body(),
    }));
    loops
}
