//! The text side: source lines into labels, directives and instruction statements, and an
//! instruction's text into the atoms the assembler matches (the same split is applied to the
//! printer's output, so input and candidate encodings are compared piece by piece).

/// Where an atom sits in an instruction's text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// The mnemonic itself (VOPD's `v_dual_*` names change with its opcode bits).
    Mnemonic,
    /// The first token of the i-th comma-separated operand.
    Pos(u8),
    /// A further token (a modifier such as `offset:16`, `glc`, `lgkmcnt(0)`), by its key (the
    /// text before `:` or `(`) and which occurrence of that key it is.
    Key(String, u8),
}

/// One piece of an instruction's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub slot: Slot,
    pub text: String,
    /// Byte column in the source line (0 for printed text).
    pub col: usize,
}

/// An instruction statement: the mnemonic and its atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub mnemonic: String,
    pub mnemonic_col: usize,
    pub atoms: Vec<Atom>,
}

impl Stmt {
    pub fn get(&self, slot: &Slot) -> Option<&Atom> {
        self.atoms.iter().find(|a| &a.slot == slot)
    }

    /// The statement as text, in the printer's spacing.
    pub fn render(&self) -> String {
        let mut s = self.mnemonic.clone();
        let mut last_pos = None;
        for a in &self.atoms {
            match a.slot {
                Slot::Mnemonic => continue,
                Slot::Pos(i) => {
                    s.push_str(if last_pos.is_some() { ", " } else { " " });
                    last_pos = Some(i);
                }
                Slot::Key(..) => {
                    s.push(' ');
                    last_pos = None;
                }
            }
            s.push_str(&a.text);
        }
        s
    }
}

/// Removes `/* ... */` comments (the printer's notes) from one line; an unterminated comment
/// runs to the end of the line.
pub fn strip_block_comments(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("/*") {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        // Removed, not blanked: a note can sit inside an operand (`|s0/*Invalid register*/|`).
        match rest[i + 2..].find("*/") {
            Some(j) => {
                rest = &rest[i + 2 + j + 2..];
            }
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// Cuts a line at its line comment (`;`, `//` or `#`).
pub fn strip_line_comment(line: &str) -> &str {
    let mut end = line.len();
    for pat in [";", "//", "#"] {
        if let Some(i) = line.find(pat) {
            end = end.min(i);
        }
    }
    &line[..end]
}

fn key_of(tok: &str) -> &str {
    let end = tok.find([':', '(']).unwrap_or(tok.len());
    &tok[..end]
}

/// Splits an instruction's text (without comments) into its mnemonic and atoms; `base_col` is
/// the column of `text` in its line. Commas and spaces inside brackets or parentheses do not split.
pub fn split(text: &str, base_col: usize) -> Option<Stmt> {
    let trimmed = text.trim_start();
    let lead = text.len() - trimmed.len();
    let mn_end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    if mn_end == 0 {
        return None;
    }
    let mnemonic = trimmed[..mn_end].to_ascii_lowercase();
    let mut atoms: Vec<Atom> = Vec::new();
    // `s_waitcnt vmcnt(0) & lgkmcnt(0)` and `vmcnt(0), lgkmcnt(0)` say what the printer's
    // `vmcnt(0) lgkmcnt(0)` says (the separators become spaces, columns kept).
    let joined;
    let rest = if mnemonic == "s_waitcnt" {
        joined = trimmed[mn_end..].replace(['&', ','], " ");
        joined.as_str()
    } else {
        &trimmed[mn_end..]
    };
    let rest_col = base_col + lead + mn_end;
    // Tokens: (start, end, comma_before).
    let mut depth = 0i32;
    let mut tok_start: Option<usize> = None;
    let mut seg = 0u8;
    let mut first_in_seg = true;
    let mut keys: Vec<(String, u8)> = Vec::new();
    let mut push = |s: usize, e: usize, seg: u8, first: &mut bool, atoms: &mut Vec<Atom>| {
        let t = &rest[s..e];
        let slot = if *first {
            *first = false;
            Slot::Pos(seg)
        } else {
            let k = key_of(t).to_ascii_lowercase();
            let n = match keys.iter_mut().find(|(kk, _)| *kk == k) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    keys.push((k.clone(), 0));
                    0
                }
            };
            Slot::Key(k, n)
        };
        atoms.push(Atom { slot, text: t.to_string(), col: rest_col + s });
    };
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                tok_start.get_or_insert(i);
            }
            ')' | ']' | '}' => {
                depth -= 1;
                tok_start.get_or_insert(i);
            }
            ',' if depth <= 0 => {
                if let Some(s) = tok_start.take() {
                    push(s, i, seg, &mut first_in_seg, &mut atoms);
                }
                // Every token before a comma is an operand (`exp mrt0 v0, ...` has two).
                for a in atoms.iter_mut().rev() {
                    if let Slot::Key(..) = a.slot {
                        a.slot = Slot::Pos(0);
                    } else {
                        break;
                    }
                }
                seg = seg.saturating_add(1);
                first_in_seg = true;
            }
            c if c.is_whitespace() && depth <= 0 => {
                if let Some(s) = tok_start.take() {
                    push(s, i, seg, &mut first_in_seg, &mut atoms);
                }
            }
            _ => {
                tok_start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = tok_start.take() {
        push(s, rest.len(), seg, &mut first_in_seg, &mut atoms);
    }
    atoms.insert(0, Atom { slot: Slot::Mnemonic, text: mnemonic.clone(), col: base_col + lead });
    // Number the operands in order. VOPD's second half (`:: v_dual_y ...`) has its mnemonic as a
    // key and its operands numbered from 32, so that the first half's operand count does not
    // move them.
    let mut n = 0u8;
    let mut after_pair = false;
    for a in atoms.iter_mut() {
        if a.text == "::" {
            a.slot = Slot::Key("::".into(), 0);
            after_pair = true;
            n = 32;
            continue;
        }
        if after_pair {
            a.slot = Slot::Key("dual_y".into(), 0);
            after_pair = false;
            continue;
        }
        if let Slot::Pos(_) = a.slot {
            a.slot = Slot::Pos(n);
            n = n.saturating_add(1);
        }
    }
    Some(Stmt { mnemonic, mnemonic_col: base_col + lead, atoms })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_and_modifiers_get_their_slots() {
        let s = split("buffer_load_dword v1, off, s[4:7], s1 offset:16 glc", 0).unwrap();
        assert_eq!(s.mnemonic, "buffer_load_dword");
        let slots: Vec<_> = s.atoms.iter().map(|a| (a.slot.clone(), a.text.as_str())).collect();
        assert_eq!(
            slots,
            vec![
                (Slot::Mnemonic, "buffer_load_dword"),
                (Slot::Pos(0), "v1"),
                (Slot::Pos(1), "off"),
                (Slot::Pos(2), "s[4:7]"),
                (Slot::Pos(3), "s1"),
                (Slot::Key("offset".into(), 0), "offset:16"),
                (Slot::Key("glc".into(), 0), "glc"),
            ]
        );
        assert_eq!((s.atoms[3].text.as_str(), s.atoms[3].col), ("s[4:7]", 27));
        assert_eq!(s.render(), "buffer_load_dword v1, off, s[4:7], s1 offset:16 glc");
    }

    #[test]
    fn brackets_and_parentheses_keep_their_commas() {
        let s = split("s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 1)", 0).unwrap();
        assert_eq!(s.atoms[2].text, "hwreg(HW_REG_MODE, 0, 1)");
        let s = split("v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf", 0).unwrap();
        assert_eq!(s.atoms[3].text, "quad_perm:[0,1,2,3]");
        assert_eq!(s.atoms[4].slot, Slot::Key("row_mask".into(), 0));
    }

    #[test]
    fn vopd_halves_number_their_operands_apart() {
        let text = "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5";
        let s = split(text, 0).unwrap();
        assert_eq!(s.get(&Slot::Key("dual_y".into(), 0)).unwrap().text, "v_dual_mul_f32");
        assert_eq!(s.get(&Slot::Pos(32)).unwrap().text, "v3");
        assert_eq!(s.get(&Slot::Pos(2)).unwrap().text, "v2");
        assert_eq!(s.render(), text);
    }

    #[test]
    fn comments_are_removed() {
        assert_eq!(strip_block_comments("v_mov_b32 v1, /*x*/ v2"), "v_mov_b32 v1,  v2");
        assert_eq!(strip_block_comments("v_add_f32 v0, |s0/*Invalid register*/|, v1"), "v_add_f32 v0, |s0|, v1");
        assert_eq!(strip_line_comment("s_nop 0 ; wait"), "s_nop 0 ");
        assert_eq!(strip_line_comment("s_nop 0 // wait"), "s_nop 0 ");
    }
}
