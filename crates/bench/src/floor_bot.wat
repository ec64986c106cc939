;; The least a Battleships bot can do through the botlens ABI, by hand: read the view, fire at
;; the first unknown square. `botlens bench` plays it to measure the sandbox's floor per turn
;; (host<->guest calls, the view's and answer's bytes) with no SDK and next to no bot work.
(module
  (import "botlens" "view" (func $view (param i32 i32) (result i32)))
  (import "botlens" "act" (func $act (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")

  ;; 0..1024: the view; 1024..1037: the move; 1088..1344: the answer.
  (data (i32.const 1024) "{\"x\":0,\"y\":0}")

  (func (export "botlens_new") (param $seat i32))

  (func (export "botlens_play")
    (local $i i32)
    (drop (call $view (i32.const 0) (i32.const 1024)))
    ;; The view starts {"targets":" so its squares begin at byte 12; '.' is unknown. While a
    ;; ship is afloat one square is, so the scan ends.
    (block $found
      (loop $next
        (br_if $found (i32.eq (i32.load8_u offset=12 (local.get $i)) (i32.const 46)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    ;; The digits of {"x":0,"y":0} are at bytes 5 and 11 of the move.
    (i32.store8 (i32.const 1029) (i32.add (i32.const 48) (i32.rem_u (local.get $i) (i32.const 10))))
    (i32.store8 (i32.const 1035) (i32.add (i32.const 48) (i32.div_u (local.get $i) (i32.const 10))))
    (drop (call $act (i32.const 1024) (i32.const 13) (i32.const 1088) (i32.const 256)))))
