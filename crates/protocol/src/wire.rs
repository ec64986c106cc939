//! The messages' bytes as they cross the bot boundary: compact JSON, written and read by hand.
//!
//! Every message goes over the boundary on every turn, so this is the hot path of a wasm game.
//! [`Wire::write`] writes exactly the bytes `serde_json::to_vec` writes for the same value (the
//! shapes and field order of `docs/abi.md`), without serde's machinery: no allocation beyond the
//! output buffer, no escaping work on strings that need none. [`Wire::read`] reads exactly that
//! canonical form back and answers `None` for anything else, so a reader that must accept any
//! JSON (the host reading a hand-written bot's action) falls back to serde_json; the SDK, which
//! only ever reads what the host wrote, needs no JSON library at all.
//!
//! ```
//! use botlens_protocol::battleships::Attack;
//! use botlens_protocol::wire::Wire;
//!
//! let mut bytes = Vec::new();
//! Attack { x: 3, y: -1 }.write(&mut bytes);
//! assert_eq!(bytes, br#"{"x":3,"y":-1}"#);
//! assert_eq!(Attack::read(&bytes), Some(Attack { x: 3, y: -1 }));
//! assert_eq!(Attack::read(br#"{"y":-1,"x":3}"#), None); // valid JSON, not the canonical form
//! ```

/// A message with a hand-written canonical JSON form.
pub trait Wire: Sized {
    /// Appends the message's compact JSON to `out`: byte for byte what serde_json writes.
    fn write(&self, out: &mut Vec<u8>);

    /// Reads one message from the front of `reader`, in the form [`Wire::write`] writes.
    fn read_from(reader: &mut Reader<'_>) -> Option<Self>;

    /// Reads one message like [`Wire::read_from`], over `self`: strings and vectors keep their
    /// allocations. After `None`, `self` holds a mix of old and new parts.
    fn read_into(&mut self, reader: &mut Reader<'_>) -> Option<()> {
        *self = Self::read_from(reader)?;
        Some(())
    }

    /// Reads a whole message in its canonical form; `None` for anything else (other field
    /// order, whitespace, unknown fields, invalid JSON or UTF-8, numbers out of range).
    fn read(bytes: &[u8]) -> Option<Self> {
        let mut reader = Reader::new(bytes);
        let message = Self::read_from(&mut reader)?;
        reader.is_empty().then_some(message)
    }

    /// Reads a whole message like [`Wire::read`], over `self`, reusing its allocations (the SDK
    /// reads each turn's view over the last one's); says whether it could.
    fn read_over(&mut self, bytes: &[u8]) -> bool {
        let mut reader = Reader::new(bytes);
        self.read_into(&mut reader).is_some() && reader.is_empty()
    }

    /// The message's canonical JSON in a new buffer.
    fn to_wire(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }
}

/// A cursor over canonical JSON bytes, for [`Wire::read_from`].
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { rest: bytes }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// Consumes `literal` if the input continues with it.
    pub fn expect(&mut self, literal: &[u8]) -> Option<()> {
        self.rest = self.rest.strip_prefix(literal)?;
        Some(())
    }

    /// Consumes `literal` if the input continues with it, and says whether it did.
    pub fn accept(&mut self, literal: &[u8]) -> bool {
        self.expect(literal).is_some()
    }

    /// Reads a JSON string of plain ASCII (no escapes), such as an enum's name, as the bytes
    /// between its quotes.
    pub fn name(&mut self) -> Option<&'a [u8]> {
        let rest = self.rest.strip_prefix(b"\"")?;
        let end = plain_run(rest);
        if rest.get(end) != Some(&b'"') {
            return None;
        }
        self.rest = &rest[end + 1..];
        Some(&rest[..end])
    }

    /// Reads an integer as JSON writes it: an optional `-`, then digits without a leading zero.
    /// Returns the sign and the magnitude.
    fn integer(&mut self) -> Option<(bool, u64)> {
        let negative = self.accept(b"-");
        let digits = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (number, rest) = self.rest.split_at(digits);
        if digits == 0 || (digits > 1 && number[0] == b'0') {
            return None;
        }
        if matches!(rest.first(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let magnitude = number
            .iter()
            .try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))?;
        self.rest = rest;
        Some((negative, magnitude))
    }

    /// Reads a JSON string (the quotes included), unescaping it; `None` for invalid UTF-8, a
    /// raw control character or a bad escape.
    pub fn string(&mut self) -> Option<String> {
        let mut text = String::new();
        self.string_into(&mut text)?;
        Some(text)
    }

    /// Reads a JSON string like [`Reader::string`], into `text` (replacing what it held).
    pub fn string_into(&mut self, text: &mut String) -> Option<()> {
        self.expect(b"\"")?;
        let (plain, rest) = self.rest.split_at(plain_run(self.rest));
        self.rest = rest;
        text.clear();
        // SAFETY: `plain_run` admits ASCII bytes only, and ASCII is UTF-8. (Checking again
        // would cost a wasm bot a tenth of its turn: views are mostly board strings.)
        text.push_str(unsafe { std::str::from_utf8_unchecked(plain) });
        if self.accept(b"\"") {
            return Some(());
        }
        // Escapes, or text beyond ASCII: byte by byte, then checked as UTF-8 as a whole.
        let mut bytes = std::mem::take(text).into_bytes();
        loop {
            let (&byte, rest) = self.rest.split_first()?;
            self.rest = rest;
            match byte {
                b'"' => break,
                b'\\' => self.escape(&mut bytes)?,
                0..0x20 => return None,
                _ => bytes.push(byte),
            }
        }
        *text = String::from_utf8(bytes).ok()?;
        Some(())
    }

    /// Reads the rest of an escape after its backslash, appending the character as UTF-8.
    fn escape(&mut self, out: &mut Vec<u8>) -> Option<()> {
        let (&kind, rest) = self.rest.split_first()?;
        self.rest = rest;
        let simple = match kind {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let unit = self.hex4()?;
                let code = match unit {
                    0xd800..0xdc00 => {
                        self.expect(b"\\u")?;
                        let low = self.hex4()?;
                        if !(0xdc00..0xe000).contains(&low) {
                            return None;
                        }
                        0x10000 + ((u32::from(unit) - 0xd800) << 10) + (u32::from(low) - 0xdc00)
                    }
                    0xdc00..0xe000 => return None,
                    _ => u32::from(unit),
                };
                let c = char::from_u32(code)?;
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                return Some(());
            }
            _ => return None,
        };
        out.push(simple);
        Some(())
    }

    fn hex4(&mut self) -> Option<u16> {
        let digits = self.rest.get(..4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.rest = &self.rest[4..];
        u16::from_str_radix(text, 16).ok()
    }
}

/// Appends `text` as a JSON string with serde_json's escapes: `\"`, `\\`, `\b`, `\f`, `\n`,
/// `\r`, `\t`, and `\u00xx` for the other control characters; everything else as it is.
pub fn write_str(text: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let mut rest = text.as_bytes();
    loop {
        let run = plain_run(rest);
        out.extend_from_slice(&rest[..run]);
        let Some((&byte, tail)) = rest[run..].split_first() else { break };
        rest = tail;
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0..0x20 => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0xf)]);
            }
            _ => out.push(byte),
        }
    }
    out.push(b'"');
}

/// The length of the run of bytes at the start of `bytes` that stand for themselves inside a
/// JSON string and are ASCII: no `"`, `\\`, control character or non-ASCII byte. Eight bytes
/// at a time, since board strings are most of a view's bytes and wasm bots scan them on every
/// turn without SIMD.
fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH_BITS: u64 = u64::from_le_bytes([0x80; 8]);
    /// The high bit of each byte of `word` below `limit` (at most 0x80), exact up to and
    /// including the first such byte: a borrow only ever runs from a lower byte to higher ones.
    fn below(word: u64, limit: u8) -> u64 {
        word.wrapping_sub(ONES * u64::from(limit)) & !word & HIGH_BITS
    }
    let mut run = 0;
    for chunk in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let stops = below(quote, 1) | below(backslash, 1) | below(word, 0x20) | (word & HIGH_BITS);
        if stops != 0 {
            // Little-endian: the lowest flagged byte is the first one in memory.
            return run + (stops.trailing_zeros() / 8) as usize;
        }
        run += 8;
    }
    let is_plain = |b: &u8| b.is_ascii() && *b >= 0x20 && *b != b'"' && *b != b'\\';
    run + bytes[run..].iter().take_while(|b| is_plain(b)).count()
}

/// Appends the decimal digits of `n`.
fn write_u64(mut n: u64, out: &mut Vec<u8>) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

macro_rules! wire_unsigned {
    ($($ty:ty),*) => {$(
        impl Wire for $ty {
            fn write(&self, out: &mut Vec<u8>) {
                write_u64(u64::from(*self), out);
            }
            fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
                match reader.integer()? {
                    (false, n) => <$ty>::try_from(n).ok(),
                    (true, 0) => Some(0),
                    (true, _) => None,
                }
            }
        }
    )*};
}

wire_unsigned!(u8, u32, u64);

impl Wire for i32 {
    fn write(&self, out: &mut Vec<u8>) {
        if *self < 0 {
            out.push(b'-');
        }
        write_u64(u64::from(self.unsigned_abs()), out);
    }
    fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
        let (negative, magnitude) = reader.integer()?;
        let value = i64::try_from(magnitude).ok()?;
        i32::try_from(if negative { -value } else { value }).ok()
    }
}

impl Wire for bool {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
    fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
        if reader.accept(b"true") { Some(true) } else { reader.expect(b"false").map(|()| false) }
    }
}

impl Wire for String {
    fn write(&self, out: &mut Vec<u8>) {
        write_str(self, out);
    }
    fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
        reader.string()
    }
    fn read_into(&mut self, reader: &mut Reader<'_>) -> Option<()> {
        reader.string_into(self)
    }
}

/// Writes `items` as a JSON array.
fn write_seq<'a, T: Wire + 'a>(items: impl IntoIterator<Item = &'a T>, out: &mut Vec<u8>) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item.write(out);
    }
    out.push(b']');
}

impl<T: Wire> Wire for Vec<T> {
    fn write(&self, out: &mut Vec<u8>) {
        write_seq(self, out);
    }
    fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
        let mut items = Vec::new();
        items.read_into(reader)?;
        Some(items)
    }
    fn read_into(&mut self, reader: &mut Reader<'_>) -> Option<()> {
        reader.expect(b"[")?;
        let mut len = 0;
        if !reader.accept(b"]") {
            loop {
                match self.get_mut(len) {
                    Some(item) => item.read_into(reader)?,
                    None => self.push(T::read_from(reader)?),
                }
                len += 1;
                if reader.accept(b"]") {
                    break;
                }
                reader.expect(b",")?;
            }
        }
        self.truncate(len);
        Some(())
    }
}

impl<T: Wire, const N: usize> Wire for [T; N] {
    fn write(&self, out: &mut Vec<u8>) {
        write_seq(self, out);
    }
    fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
        let items = Vec::<T>::read_from(reader)?;
        items.try_into().ok()
    }
}

/// Implements both wire forms of a struct with named fields, [`Wire`] (JSON) and
/// [`Compact`](crate::compact::Compact), fields in the order listed (which must be the
/// declaration order, as serde writes them), each field's name as its JSON key.
#[macro_export]
macro_rules! wire_struct {
    ($ty:ident { $first:ident $(, $field:ident)* $(,)? }) => {
        impl $crate::wire::Wire for $ty {
            fn write(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(concat!("{\"", stringify!($first), "\":").as_bytes());
                $crate::wire::Wire::write(&self.$first, out);
                $(
                    out.extend_from_slice(concat!(",\"", stringify!($field), "\":").as_bytes());
                    $crate::wire::Wire::write(&self.$field, out);
                )*
                out.push(b'}');
            }
            fn read_from(reader: &mut $crate::wire::Reader<'_>) -> Option<Self> {
                reader.expect(concat!("{\"", stringify!($first), "\":").as_bytes())?;
                let $first = $crate::wire::Wire::read_from(reader)?;
                $(
                    reader.expect(concat!(",\"", stringify!($field), "\":").as_bytes())?;
                    let $field = $crate::wire::Wire::read_from(reader)?;
                )*
                reader.expect(b"}")?;
                Some($ty { $first $(, $field)* })
            }
            fn read_into(&mut self, reader: &mut $crate::wire::Reader<'_>) -> Option<()> {
                reader.expect(concat!("{\"", stringify!($first), "\":").as_bytes())?;
                $crate::wire::Wire::read_into(&mut self.$first, reader)?;
                $(
                    reader.expect(concat!(",\"", stringify!($field), "\":").as_bytes())?;
                    $crate::wire::Wire::read_into(&mut self.$field, reader)?;
                )*
                reader.expect(b"}")
            }
        }
        impl $crate::compact::Compact for $ty {
            #[inline]
            fn put(&self, out: &mut Vec<u8>) {
                $crate::compact::Compact::put(&self.$first, out);
                $($crate::compact::Compact::put(&self.$field, out);)*
            }
            #[inline]
            fn take_from(bytes: &mut $crate::compact::Bytes<'_>) -> Option<Self> {
                let $first = $crate::compact::Compact::take_from(bytes)?;
                $(let $field = $crate::compact::Compact::take_from(bytes)?;)*
                Some($ty { $first $(, $field)* })
            }
            #[inline]
            fn take_into(&mut self, bytes: &mut $crate::compact::Bytes<'_>) -> Option<()> {
                $crate::compact::Compact::take_into(&mut self.$first, bytes)?;
                $($crate::compact::Compact::take_into(&mut self.$field, bytes)?;)*
                Some(())
            }
        }
    };
}

/// Implements both wire forms of a fieldless enum, one name per variant, listed in declaration
/// order: [`Wire`] writes the name as a JSON string, [`Compact`](crate::compact::Compact) the
/// variant's index as one byte (the order is checked at compile time).
#[macro_export]
macro_rules! wire_names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $crate::wire::Wire for $ty {
            fn write(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(match self {
                    $($ty::$variant => concat!("\"", $name, "\"").as_bytes(),)+
                });
            }
            fn read_from(reader: &mut $crate::wire::Reader<'_>) -> Option<Self> {
                let name = reader.name()?;
                $(
                    if name == $name.as_bytes() {
                        return Some($ty::$variant);
                    }
                )+
                None
            }
        }
        impl $crate::compact::Compact for $ty {
            #[inline]
            fn put(&self, out: &mut Vec<u8>) {
                out.push(*self as u8);
            }
            #[inline]
            fn take_from(bytes: &mut $crate::compact::Bytes<'_>) -> Option<Self> {
                const ALL: &[$ty] = &[$($ty::$variant),+];
                ALL.get(usize::from(bytes.byte()?)).copied()
            }
            #[inline]
            fn take_items(
                items: &mut Vec<Self>,
                len: usize,
                bytes: &mut $crate::compact::Bytes<'_>,
            ) -> Option<()> {
                const ALL: &[$ty] = &[$($ty::$variant),+];
                items.clear();
                for &index in bytes.slice(len)? {
                    items.push(*ALL.get(usize::from(index))?);
                }
                Some(())
            }
        }
        const _: () = {
            let mut index = 0;
            $(
                assert!($ty::$variant as usize == index, "names listed out of declaration order");
                index += 1;
            )+
            let _ = index;
        };
    };
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fmt::Debug;

    use proptest::prelude::*;
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    use super::*;

    /// Checks `value` against serde_json: the same bytes written, the value read back, and the
    /// reader refusing every proper prefix of a delimited value (string, array, object).
    pub(crate) fn agrees_with_serde<T>(value: &T)
    where
        T: Wire + Serialize + DeserializeOwned + PartialEq + Debug,
    {
        let ours = value.to_wire();
        let theirs = serde_json::to_vec(value).unwrap();
        assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs));
        assert_eq!(T::read(&ours).as_ref(), Some(value));
        assert_eq!(serde_json::from_slice::<T>(&ours).unwrap(), *value);
        let mut over = T::read(&ours).unwrap();
        assert!(over.read_over(&ours) && over == *value, "read over itself");
        let delimited = matches!(ours.first(), Some(b'"' | b'[' | b'{'));
        for cut in (0..ours.len()).filter(|_| delimited) {
            assert!(T::read(&ours[..cut]).is_none(), "a prefix of {cut} bytes was read");
        }
    }

    proptest! {
        #[test]
        fn strings_match_serde(text in any::<String>()) {
            agrees_with_serde(&text);
        }

        #[test]
        fn control_and_quote_heavy_strings_match_serde(
            text in proptest::collection::vec(
                prop_oneof![Just('"'), Just('\\'), Just('/'), Just('é'), Just('曹'), Just('😀'),
                            (0u8..0x20).prop_map(char::from), Just('a'), Just('\u{7f}')],
                0..20,
            ).prop_map(|chars| chars.into_iter().collect::<String>())
        ) {
            agrees_with_serde(&text);
        }

        #[test]
        fn plain_runs_stop_at_the_first_byte_that_is_not_plain(
            bytes in proptest::collection::vec(
                prop_oneof![4 => 0x20u8..0x7f, 1 => any::<u8>()], 0..40)
        ) {
            let plain = |b: u8| b.is_ascii() && b >= 0x20 && b != b'"' && b != b'\\';
            let expected = bytes.iter().take_while(|&&b| plain(b)).count();
            prop_assert_eq!(plain_run(&bytes), expected);
        }

        #[test]
        fn numbers_match_serde(a in any::<i32>(), b in any::<u32>(), c in any::<u8>(), d in any::<u64>()) {
            agrees_with_serde(&a);
            agrees_with_serde(&b);
            agrees_with_serde(&c);
            agrees_with_serde(&d);
        }

        #[test]
        fn escaped_strings_from_any_json_writer_are_read(text in any::<String>()) {
            // Escape every character as \uXXXX (surrogate pairs included), as some writers do.
            let mut json = String::from("\"");
            for unit in text.encode_utf16() {
                json.push_str(&format!("\\u{unit:04X}"));
            }
            json.push('"');
            prop_assert_eq!(String::read(json.as_bytes()), Some(text));
        }
    }

    #[test]
    fn sequences_and_booleans_match_serde() {
        agrees_with_serde(&vec![1u32, 20, 300]);
        agrees_with_serde(&Vec::<u32>::new());
        agrees_with_serde(&[7u32, 0]);
        agrees_with_serde(&true);
        agrees_with_serde(&false);
        agrees_with_serde(&vec![String::from("a\"b"), String::new()]);
    }

    #[test]
    fn what_is_not_canonical_is_refused() {
        for bad in [
            &b"01"[..],
            b"-",
            b"1.5",
            b"1e3",
            b" 1",
            b"1 ",
            b"99999999999999999999",
            b"\"\\x\"",
            b"\"\\ud800\"",
            b"\"\\udc00\"",
            b"\"\\ud800\\u0041\"",
            b"\"\x01\"",
            b"\"\xff\"",
            b"\"unterminated",
            b"[1,]",
            b"[,1]",
            b"[1 ,2]",
        ] {
            assert!(
                u32::read(bad).is_none()
                    && String::read(bad).is_none()
                    && Vec::<u32>::read(bad).is_none(),
                "{:?} was read",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(u8::read(b"256"), None);
        assert_eq!(i32::read(b"2147483648"), None);
        assert_eq!(i32::read(b"-2147483648"), Some(i32::MIN));
        assert_eq!(u32::read(b"-0"), Some(0));
        assert_eq!(<[u32; 2]>::read(b"[1]"), None);
        assert_eq!(bool::read(b"True"), None);
    }
}
