;; The least a Battleships bot can do through the botlens ABI, by hand: read the view, fire at
;; the first unknown square. `botlens bench` plays it to measure the sandbox's floor per turn
;; (host<->guest calls, the view's and answer's bytes) with no SDK and next to no bot work. It
;; declares the compact encoding, as the SDK does: the cheapest messages there are. Squares only
;; ever become known, so the search for the first unknown one starts where the last one ended
;; (a scan from the first square each turn was about 40 ns of the turn, more than the native
;; random player's whole choice).
(module
  (import "botlens" "view" (func $view (param i32 i32) (result i32)))
  (import "botlens" "act" (func $act (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")
  (@custom "botlens_encoding" "compact")

  ;; 0..1024: the view; 1024..1032: the move; 1088..1344: the answer.

  (func (export "botlens_new") (param $seat i32))

  ;; Where the last turn's search ended: every square before it is known.
  (global $searched (mut i32) (i32.const 0))

  (func (export "botlens_play")
    (local $i i32)
    (drop (call $view (i32.const 0) (i32.const 1024)))
    (local.set $i (global.get $searched))
    ;; The view starts with the targets: a u32 length (100), then the squares from byte 4;
    ;; '.' is unknown. While a ship is afloat one square is, so the scan ends.
    (block $found
      (loop $next
        (br_if $found (i32.eq (i32.load8_u offset=4 (local.get $i)) (i32.const 46)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (global.set $searched (local.get $i))
    ;; The move is x and y, little-endian i32s.
    (i32.store (i32.const 1024) (i32.rem_u (local.get $i) (i32.const 10)))
    (i32.store (i32.const 1028) (i32.div_u (local.get $i) (i32.const 10)))
    (drop (call $act (i32.const 1024) (i32.const 8) (i32.const 1088) (i32.const 256)))))
