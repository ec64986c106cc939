//! A minimal reader of the WebAssembly binary layout: the custom sections (ABI version, SDK path,
//! DWARF, function names) and where each function body sits in the code section.
//!
//! Not a validator: wasmtime validates modules. Every length read here is bounds-checked, so
//! arbitrary bytes give an error, never a panic.

use std::ops::Range;

/// The sections of a module this crate reads itself.
#[derive(Debug, Default)]
pub(crate) struct Sections<'a> {
    /// Every custom section, in order: name and contents.
    pub custom: Vec<(&'a str, &'a [u8])>,
    /// Function bodies in the code section, as ranges relative to the start of the section's
    /// contents (the addresses DWARF uses for WebAssembly).
    pub bodies: Vec<Range<u64>>,
    /// Where the code section's contents start in the file.
    pub code_offset: u64,
    /// Exported functions: index and export name.
    pub exported_functions: Vec<(u32, &'a str)>,
}

impl<'a> Sections<'a> {
    /// Reads the section headers of a binary module (which starts with `\0asm`).
    pub fn read(bytes: &'a [u8]) -> Result<Sections<'a>, String> {
        let mut reader = Reader { bytes, pos: 8 };
        if bytes.len() < 8 {
            return Err("truncated header".into());
        }
        let mut sections = Sections::default();
        while reader.pos < bytes.len() {
            let id = reader.byte()?;
            let size = reader.u32()? as usize;
            let start = reader.pos;
            let contents =
                reader.take(size).map_err(|_| format!("section {id} runs past the end"))?;
            match id {
                0 => {
                    let mut inner = Reader { bytes: contents, pos: 0 };
                    let name = inner.name()?;
                    sections.custom.push((name, &contents[inner.pos..]));
                }
                7 => sections.exported_functions = exported_functions(contents)?,
                10 => {
                    sections.code_offset = start as u64;
                    sections.bodies = code_bodies(contents)?;
                }
                _ => {}
            }
            debug_assert_eq!(reader.pos, start + size);
        }
        Ok(sections)
    }

    /// The contents of every custom section called `name`, in order.
    pub fn custom<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'a [u8]> + 's {
        self.custom.iter().filter(move |(n, _)| *n == name).map(|(_, contents)| *contents)
    }

    /// Function names from the `name` section (subsection 1), by function index; mangled as the
    /// compiler wrote them.
    pub fn function_names(&self) -> Vec<(u32, &'a str)> {
        self.custom("name")
            .next()
            .and_then(|contents| function_names(contents).ok())
            .unwrap_or_default()
    }
}

fn exported_functions(contents: &[u8]) -> Result<Vec<(u32, &str)>, String> {
    let mut reader = Reader { bytes: contents, pos: 0 };
    let count = reader.u32()?;
    let mut functions = Vec::new();
    for _ in 0..count {
        let name = reader.name()?;
        let kind = reader.byte()?;
        let index = reader.u32()?;
        if kind == 0 {
            functions.push((index, name));
        }
    }
    Ok(functions)
}

fn code_bodies(contents: &[u8]) -> Result<Vec<Range<u64>>, String> {
    let mut reader = Reader { bytes: contents, pos: 0 };
    let count = reader.u32()?;
    let mut bodies = Vec::new();
    for _ in 0..count {
        let size = reader.u32()? as usize;
        let start = reader.pos as u64;
        reader.take(size)?;
        bodies.push(start..reader.pos as u64);
    }
    Ok(bodies)
}

fn function_names(contents: &[u8]) -> Result<Vec<(u32, &str)>, String> {
    let mut reader = Reader { bytes: contents, pos: 0 };
    while reader.pos < contents.len() {
        let id = reader.byte()?;
        let size = reader.u32()? as usize;
        let sub = reader.take(size)?;
        if id == 1 {
            let mut names = Reader { bytes: sub, pos: 0 };
            let count = names.u32()?;
            let mut out = Vec::new();
            for _ in 0..count {
                let index = names.u32()?;
                out.push((index, names.name()?));
            }
            return Ok(out);
        }
    }
    Ok(Vec::new())
}

/// A cursor over bytes with bounds-checked reads.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.pos).ok_or("unexpected end of module")?;
        self.pos += 1;
        Ok(b)
    }

    /// An unsigned LEB128 number of at most 32 bits.
    fn u32(&mut self) -> Result<u32, String> {
        let mut value: u32 = 0;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            let bits = u32::from(b & 0x7f);
            if shift == 28 && bits > 0x0f {
                return Err("integer too large".into());
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("integer too long".into())
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        let end = self.pos.checked_add(len).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or("unexpected end of module")?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn name(&mut self) -> Result<&'a str, String> {
        let len = self.u32()? as usize;
        std::str::from_utf8(self.take(len)?).map_err(|_| "a name is not UTF-8".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(wat: &str) -> Vec<u8> {
        wat::parse_str(wat).unwrap()
    }

    #[test]
    fn custom_sections_and_bodies_are_found() {
        let bytes = module(
            r#"(module (@custom "botlens_abi" "1") (func $a) (func $b nop nop) (export "b" (func $b))
                (memory (export "m") 1) (@custom "x" "yz"))"#,
        );
        let sections = Sections::read(&bytes).unwrap();
        assert_eq!(sections.exported_functions, vec![(1, "b")]);
        let first_body = sections.code_offset + sections.bodies[0].start;
        assert_eq!(bytes[first_body as usize - 1], 2, "a body of two bytes: no locals, `end`");
        assert_eq!(sections.custom("botlens_abi").collect::<Vec<_>>(), vec![b"1".as_slice()]);
        assert_eq!(sections.custom("x").next(), Some(b"yz".as_slice()));
        assert_eq!(sections.bodies.len(), 2);
        assert!(sections.bodies[0].end <= sections.bodies[1].start);
        let names = sections.function_names();
        assert_eq!(names, vec![(0, "a"), (1, "b")]);
    }

    #[test]
    fn truncated_and_garbage_input_is_an_error_not_a_panic() {
        let bytes = module("(module (func))");
        for len in 8..bytes.len() {
            let _ = Sections::read(&bytes[..len]);
        }
        assert!(Sections::read(b"\0asm\x01\0\0\0\x00\xff\xff\xff\xff\x0f").is_err());
        assert!(Sections::read(b"\0asm").is_err());
    }
}
