//! The `llvm-mc --disassemble` input syntax: bytes such as `0x00,0xf8` separated by commas, spaces
//! or newlines, with `#` and `;` starting comments.

/// A malformed token in hex input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: '{token}' is not a byte (expected 0x00..0xff)")]
pub struct HexError {
    pub line: usize,
    pub column: usize,
    pub token: String,
}

/// Parses hex-byte text into bytes.
pub fn parse(text: &str) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::with_capacity(text.len() / 5);
    for (ln, line) in text.lines().enumerate() {
        let code = match line.find(['#', ';']) {
            Some(i) => &line[..i],
            None => line,
        };
        let mut col = 0;
        for tok in code.split(|c: char| c == ',' || c.is_whitespace()) {
            let here = col;
            col += tok.len() + 1;
            if tok.is_empty() {
                continue;
            }
            let digits = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X"));
            match digits.and_then(|d| if d.len() <= 2 { u8::from_str_radix(d, 16).ok() } else { None }) {
                Some(b) => out.push(b),
                None => return Err(HexError { line: ln + 1, column: here + 1, token: tok.to_string() }),
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_llvm_mc_syntax() {
        assert_eq!(parse("0x01,0x02 0x03\n# c\n0xff ; x").unwrap(), vec![1, 2, 3, 0xff]);
    }

    #[test]
    fn rejects_non_bytes() {
        let e = parse("0x01, 0x1ff").unwrap_err();
        assert_eq!((e.line, e.column, e.token.as_str()), (1, 7, "0x1ff"));
        assert!(parse("zz").is_err());
    }
}
