//! The raw botlens ABI (version 1, `docs/abi.md`) behind a small safe adapter.
//!
//! Only this module touches the imports. On `wasm32` they are the host functions in module
//! `botlens` (plus WASI `random_get`); on any other target there is no host, and every call panics
//! with a message saying so, so that host builds of bot crates (checks, docs, unit tests of pure
//! logic) still compile.

use std::cell::RefCell;

/// Bytes asked for in the first try at receiving a message; larger messages are fetched again
/// with `reply` into a buffer of the announced size.
const FIRST_TRY: usize = 512;

#[cfg(target_arch = "wasm32")]
mod imports {
    #[link(wasm_import_module = "botlens")]
    unsafe extern "C" {
        pub fn view(out_ptr: *mut u8, out_cap: usize) -> i32;
        pub fn act(msg_ptr: *const u8, msg_len: usize, out_ptr: *mut u8, out_cap: usize) -> i32;
        pub fn reply(out_ptr: *mut u8, out_cap: usize) -> i32;
        pub fn log(ptr: *const u8, len: usize);
        pub fn panic(
            msg_ptr: *const u8,
            msg_len: usize,
            file_ptr: *const u8,
            file_len: usize,
            line: u32,
            column: u32,
        );
        pub fn position(file_ptr: *const u8, file_len: usize, line: u32, column: u32);
        #[allow(clippy::too_many_arguments)] // the ABI's signature
        pub fn draw(
            kind: i32,
            x: i32,
            y: i32,
            to_x: i32,
            to_y: i32,
            colour: u32,
            ptr: *const u8,
            len: usize,
        );
    }

    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    unsafe extern "C" {
        pub fn random_get(buf: *mut u8, len: usize) -> i32;
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imports {
    //! Stand-ins with the imports' signatures for host builds: there is no botlens host here.

    fn outside() -> ! {
        panic!(
            "botlens-sdk bots only run inside botlens: build with `--target wasm32-wasip1` and run \
             with `botlens run`"
        )
    }

    pub unsafe fn view(_out_ptr: *mut u8, _out_cap: usize) -> i32 {
        outside()
    }
    pub unsafe fn act(_msg: *const u8, _len: usize, _out_ptr: *mut u8, _out_cap: usize) -> i32 {
        outside()
    }
    pub unsafe fn reply(_out_ptr: *mut u8, _out_cap: usize) -> i32 {
        outside()
    }
    pub unsafe fn log(_ptr: *const u8, _len: usize) {
        outside()
    }
    pub unsafe fn panic(_m: *const u8, _ml: usize, _f: *const u8, _fl: usize, _l: u32, _c: u32) {
        outside()
    }
    pub unsafe fn random_get(_buf: *mut u8, _len: usize) -> i32 {
        outside()
    }
    pub unsafe fn position(_file: *const u8, _len: usize, _line: u32, _column: u32) {
        outside()
    }
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn draw(
        _k: i32,
        _x: i32,
        _y: i32,
        _tx: i32,
        _ty: i32,
        _c: u32,
        _p: *const u8,
        _l: usize,
    ) {
        outside()
    }
}

thread_local! {
    /// The buffer messages from the host are received into, reused turn after turn (given
    /// [`FIRST_TRY`] bytes on first use: a `const` initializer spares every access a check).
    static INCOMING: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The buffer actions are written into before they go to the host.
    static OUTGOING: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Receives one message and hands its bytes to `read`: `first` writes the message into the
/// buffer it is given when it fits and returns its full length; a longer message is then copied
/// again with `reply`.
fn receive<T>(first: impl FnOnce(*mut u8, usize) -> i32, read: impl FnOnce(&[u8]) -> T) -> T {
    INCOMING.with_borrow_mut(|buf| {
        buf.clear();
        if buf.capacity() == 0 {
            buf.reserve_exact(FIRST_TRY);
        }
        let len = message_len(first(buf.as_mut_ptr(), buf.capacity()));
        if len > buf.capacity() {
            buf.reserve_exact(len);
            // SAFETY: the buffer is valid for writes of `buf.capacity()` bytes.
            let again = message_len(unsafe { imports::reply(buf.as_mut_ptr(), buf.capacity()) });
            assert_eq!(again, len, "botlens changed a message between two reads");
        }
        // SAFETY: the host wrote exactly `len` initialized bytes at the start of the buffer
        // (ABI: a non-negative return no larger than the capacity is the number of bytes
        // written), and `len <= capacity` holds on both paths above.
        unsafe { buf.set_len(len) };
        read(buf)
    })
}

fn message_len(code: i32) -> usize {
    usize::try_from(code).unwrap_or_else(|_| panic!("botlens refused a message read ({code})"))
}

/// Fetches the view of the turn in progress and hands its bytes to `read`.
pub fn view<T>(read: impl FnOnce(&[u8]) -> T) -> T {
    // SAFETY: `receive` passes a pointer and capacity of a live, writable buffer.
    receive(|ptr, cap| unsafe { imports::view(ptr, cap) }, read)
}

/// Makes the turn's move, which `write` writes, and hands the bytes of the game's answer to
/// `read`. Does not return when the move loses the game: the host stops the bot.
pub fn act<T>(write: impl FnOnce(&mut Vec<u8>), read: impl FnOnce(&[u8]) -> T) -> T {
    OUTGOING.with_borrow_mut(|action| {
        action.clear();
        write(action);
        // SAFETY: `action` is a live buffer; `receive` passes a live, writable buffer.
        receive(|ptr, cap| unsafe { imports::act(action.as_ptr(), action.len(), ptr, cap) }, read)
    })
}

/// Adds a line to the turn's log.
pub fn log(line: &str) {
    // SAFETY: `line` is a live slice of `line.len()` bytes.
    unsafe { imports::log(line.as_ptr(), line.len()) }
}

/// Reports a panic and its location; the host ends the game there and never returns.
pub fn panic(message: &str, file: &str, line: u32, column: u32) {
    // SAFETY: both strings are live slices of the lengths passed.
    unsafe {
        imports::panic(message.as_ptr(), message.len(), file.as_ptr(), file.len(), line, column)
    }
}

/// Draws one mark (`botlens.draw`) drawn at `at`: `kind` and its arguments as `docs/abi.md`
/// gives them, and the bytes it reads (a label's text, a heat map's values). The line is stated
/// right before (`botlens.position`), so the host need not read the stack to find it.
pub fn draw(
    at: &std::panic::Location<'_>,
    kind: i32,
    from: (i32, i32),
    to: (i32, i32),
    colour: u32,
    bytes: &[u8],
) {
    let file = at.file();
    // SAFETY: `file` and `bytes` are live slices of the lengths passed.
    unsafe {
        imports::position(file.as_ptr(), file.len(), at.line(), at.column());
        imports::draw(kind, from.0, from.1, to.0, to.1, colour, bytes.as_ptr(), bytes.len());
    }
}

/// Fills `bytes` from WASI `random_get`, which botlens seeds from the game seed.
pub fn random(bytes: &mut [u8]) {
    // SAFETY: `bytes` is a live, writable slice of `bytes.len()` bytes.
    let errno = unsafe { imports::random_get(bytes.as_mut_ptr(), bytes.len()) };
    assert_eq!(errno, 0, "random_get failed with WASI errno {errno}");
}

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(expected = "botlens-sdk bots only run inside botlens")]
    fn outside_botlens_the_imports_say_so() {
        super::log("hello");
    }
}
