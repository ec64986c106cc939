//! The compact binary form of the messages, for bots that declare it (`docs/abi.md`,
//! "Encodings"): what a bot reads on every turn costs it fuel, and a view in this form is read
//! with a few loads and copies instead of parsed.
//!
//! The form, for each kind of value:
//!
//! - integers: little-endian, the width of their type (`u8` one byte, `u32` and `i32` four);
//! - `bool`: one byte, `0` or `1`;
//! - a string: its length in bytes as a `u32`, then its UTF-8 bytes;
//! - a list: its length as a `u32`, then its items;
//! - a name (a fieldless enum such as a ship kind or a direction): one byte, the variant's index
//!   in the order `docs/abi.md` lists the names;
//! - a struct: its fields in the order of the JSON form, nothing around or between them.
//!
//! ```
//! use botlens_protocol::battleships::Attack;
//! use botlens_protocol::compact::Compact;
//!
//! let bytes = Attack { x: 3, y: -1 }.to_compact();
//! assert_eq!(bytes, [3, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
//! assert_eq!(Attack::take(&bytes), Some(Attack { x: 3, y: -1 }));
//! assert_eq!(Attack::take(&bytes[..7]), None); // a message cut short
//! ```

/// A message with a compact binary form.
pub trait Compact: Sized {
    /// Appends the message's compact form to `out`.
    fn put(&self, out: &mut Vec<u8>);

    /// Reads one message from the front of `bytes`.
    fn take_from(bytes: &mut Bytes<'_>) -> Option<Self>;

    /// Reads one message like [`Compact::take_from`], over `self`: strings and lists keep their
    /// allocations. After `None`, `self` holds a mix of old and new parts.
    fn take_into(&mut self, bytes: &mut Bytes<'_>) -> Option<()> {
        *self = Self::take_from(bytes)?;
        Some(())
    }

    /// Reads a whole message; `None` if the bytes are not exactly one message of this type.
    fn take(bytes: &[u8]) -> Option<Self> {
        let mut bytes = Bytes::new(bytes);
        let message = Self::take_from(&mut bytes)?;
        bytes.is_empty().then_some(message)
    }

    /// Reads a whole message like [`Compact::take`], over `self`, reusing its allocations (the
    /// SDK reads each turn's view over the last one's); says whether it could.
    fn take_over(&mut self, bytes: &[u8]) -> bool {
        let mut bytes = Bytes::new(bytes);
        self.take_into(&mut bytes).is_some() && bytes.is_empty()
    }

    /// Reads `len` items over `items` (a list's items, after its length), reusing what they
    /// hold; a type may read them faster than one by one (names read `len` bytes at once).
    fn take_items(items: &mut Vec<Self>, len: usize, bytes: &mut Bytes<'_>) -> Option<()> {
        items.truncate(len);
        for item in items.iter_mut() {
            item.take_into(bytes)?;
        }
        while items.len() < len {
            items.push(Self::take_from(bytes)?);
        }
        Some(())
    }

    /// The message's compact form in a new buffer.
    fn to_compact(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.put(&mut out);
        out
    }
}

/// A cursor over compact bytes, for [`Compact::take_from`].
#[derive(Debug, Clone)]
pub struct Bytes<'a> {
    rest: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A cursor at the start of `bytes`.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Self {
        Bytes { rest: bytes }
    }

    /// Whether every byte has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next `len` bytes.
    #[inline]
    pub fn slice(&mut self, len: usize) -> Option<&'a [u8]> {
        let (front, rest) = self.rest.split_at_checked(len)?;
        self.rest = rest;
        Some(front)
    }

    /// The next `N` bytes.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (front, rest) = self.rest.split_first_chunk::<N>()?;
        self.rest = rest;
        Some(*front)
    }

    /// The next byte.
    #[inline]
    pub fn byte(&mut self) -> Option<u8> {
        self.array::<1>().map(|[byte]| byte)
    }

    /// A length prefix (a `u32`), as long as it could be a count of items of at least one byte
    /// each that are still there: a corrupt length never makes a reader reserve memory.
    #[inline]
    fn len(&mut self) -> Option<usize> {
        let len = usize::try_from(u32::from_le_bytes(self.array()?)).ok()?;
        (len <= self.rest.len()).then_some(len)
    }
}

macro_rules! compact_integer {
    ($($ty:ty),*) => {$(
        impl Compact for $ty {
            #[inline]
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn take_from(bytes: &mut Bytes<'_>) -> Option<Self> {
                bytes.array().map(<$ty>::from_le_bytes)
            }
        }
    )*};
}

compact_integer!(u8, u32, i32, u64);

impl Compact for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    fn take_from(bytes: &mut Bytes<'_>) -> Option<Self> {
        match bytes.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// Appends a `u32` length prefix.
#[inline]
fn put_len(len: usize, out: &mut Vec<u8>) {
    let len = u32::try_from(len).expect("a message part longer than 4 GiB");
    out.extend_from_slice(&len.to_le_bytes());
}

impl Compact for String {
    #[inline]
    fn put(&self, out: &mut Vec<u8>) {
        put_len(self.len(), out);
        out.extend_from_slice(self.as_bytes());
    }
    fn take_from(bytes: &mut Bytes<'_>) -> Option<Self> {
        let mut text = String::new();
        text.take_into(bytes)?;
        Some(text)
    }
    #[inline]
    fn take_into(&mut self, bytes: &mut Bytes<'_>) -> Option<()> {
        let len = bytes.len()?;
        let text = text(bytes.slice(len)?)?;
        self.clear();
        self.push_str(text);
        Some(())
    }
}

/// `bytes` as UTF-8 text. Boards and names are ASCII, which is checked 32 bytes per loop turn
/// (a wasm bot pays fuel for every loop turn's bookkeeping, and reads two 100-byte boards every
/// Battleships turn: `str::from_utf8` costs it several times as much). Anything else goes
/// through `str::from_utf8`.
#[inline]
fn text(bytes: &[u8]) -> Option<&str> {
    const HIGH_BITS: u64 = u64::from_le_bytes([0x80; 8]);
    let word = |eight: &[u8]| u64::from_le_bytes(eight.try_into().expect("eight bytes"));
    let blocks = bytes.chunks_exact(32);
    let words = blocks.remainder().chunks_exact(8);
    let tail = words.remainder();
    let high = blocks.fold(0, |high, block| {
        high | word(&block[..8]) | word(&block[8..16]) | word(&block[16..24]) | word(&block[24..])
    });
    let high = words.fold(high, |high, eight| high | word(eight));
    if high & HIGH_BITS == 0 && tail.is_ascii() {
        // SAFETY: every byte is below 0x80, so the bytes are ASCII, and ASCII is UTF-8.
        return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).ok()
}

impl<T: Compact> Compact for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        put_len(self.len(), out);
        for item in self {
            item.put(out);
        }
    }
    fn take_from(bytes: &mut Bytes<'_>) -> Option<Self> {
        let mut items = Vec::new();
        items.take_into(bytes)?;
        Some(items)
    }
    fn take_into(&mut self, bytes: &mut Bytes<'_>) -> Option<()> {
        let len = bytes.len()?;
        T::take_items(self, len, bytes)
    }
}

/// A fixed number of items, without a length prefix.
impl<T: Compact, const N: usize> Compact for [T; N] {
    fn put(&self, out: &mut Vec<u8>) {
        for item in self {
            item.put(out);
        }
    }
    fn take_from(bytes: &mut Bytes<'_>) -> Option<Self> {
        let mut items = Vec::with_capacity(N);
        for _ in 0..N {
            items.push(T::take_from(bytes)?);
        }
        items.try_into().ok()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fmt::Debug;

    use serde::Serialize;
    use serde::de::DeserializeOwned;

    use super::*;
    use crate::Message;
    use crate::wire::tests::agrees_with_serde;

    /// Checks both forms of `value`: JSON against serde_json, and the compact form read back.
    pub(crate) fn in_both_forms<T>(value: &T)
    where
        T: Message + Serialize + DeserializeOwned + PartialEq + Debug + Clone,
    {
        agrees_with_serde(value);
        round_trips(value);
    }

    /// Checks `value`'s compact form: read back whole and over itself, and no proper prefix of
    /// it read as a message.
    fn round_trips<T: Compact + PartialEq + Debug + Clone>(value: &T) {
        let bytes = value.to_compact();
        assert_eq!(T::take(&bytes).as_ref(), Some(value));
        let mut over = value.clone();
        assert!(over.take_over(&bytes) && over == *value, "read over itself");
        for cut in 0..bytes.len() {
            assert!(T::take(&bytes[..cut]).is_none(), "a prefix of {cut} bytes was read");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(T::take(&longer).is_none(), "a trailing byte was ignored");
    }

    #[test]
    fn strings_and_lists_are_length_prefixed() {
        assert_eq!("ab".to_owned().to_compact(), [2, 0, 0, 0, b'a', b'b']);
        assert_eq!(vec![true, false].to_compact(), [2, 0, 0, 0, 1, 0]);
        assert_eq!(String::take(&[1, 0, 0, 0, 0xff]), None, "not UTF-8");
        assert_eq!(bool::take(&[2]), None);
    }

    proptest::proptest! {
        #[test]
        fn text_is_read_exactly_when_it_is_utf8(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80),
            ascii in "[ -~]{0,80}",
            at in 0..80usize,
            high in 0x80..=0xffu8,
        ) {
            proptest::prop_assert_eq!(text(&bytes), std::str::from_utf8(&bytes).ok());
            let mut one_high = ascii.into_bytes();
            proptest::prop_assert!(text(&one_high).is_some());
            if !one_high.is_empty() {
                let at = at % one_high.len();
                one_high[at] = high;
                proptest::prop_assert_eq!(text(&one_high), None, "a lone byte {} at {}", high, at);
            }
        }

        #[test]
        fn strings_round_trip(text in ".{0,40}") {
            round_trips(&text);
        }
    }

    #[test]
    fn a_corrupt_length_reserves_nothing() {
        assert_eq!(Vec::<u8>::take(&[0xff, 0xff, 0xff, 0x7f, 1]), None);
        assert_eq!(String::take(&[5, 0, 0, 0, b'a']), None);
    }

    #[test]
    fn lists_read_over_longer_and_shorter_ones() {
        let mut list = vec![1u32, 2, 3];
        assert!(list.take_over(&vec![7u32].to_compact()));
        assert_eq!(list, [7]);
        assert!(list.take_over(&vec![4u32, 5].to_compact()));
        assert_eq!(list, [4, 5]);
    }
}
