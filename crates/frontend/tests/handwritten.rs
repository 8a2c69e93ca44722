//! Control-flow shapes written by hand in assembly (encoded by llvm-mc-19): loops, irreducible
//! cycles, long branches and calls through computed addresses, and every unfollowable site
//! reported at once.

use rdna_disasm::Decoder;
use rdna_emu::program::Program;
use rdna_emu::sem::BranchIf;
use rdna_frontend::structure::Structure;
use rdna_frontend::{Cfg, Exit};

fn program(text: &str) -> Program {
    let target = rdna_isa::Target::from_name("gfx1030").unwrap();
    Program::decode(&Decoder::new(target), &rdna_testkit::asm_for("gfx1030", text, false), 0)
}

/// (first byte offset, last byte offset, exit) of each block, in block order.
fn shape(p: &Program, cfg: &Cfg) -> Vec<(u32, u32, Exit)> {
    cfg.blocks.iter().map(|b| (p.steps[b.first].pc, p.steps[b.last].pc, b.exit)).collect()
}

/// s0 counts to 10 in a one-block loop.
const COUNTED_LOOP: &str = "s_mov_b32 s0, 0
     s_add_u32 s0, s0, 1
     s_cmp_lt_u32 s0, 10
     s_cbranch_scc1 -3
     s_endpgm";

#[test]
fn a_counted_loop_is_one_block_looping_on_itself() {
    let p = program(COUNTED_LOOP);
    let cfg = Cfg::build(&p, 0).unwrap();
    assert_eq!(shape(&p, &cfg), vec![(0, 0, Exit::Goto(1)), (4, 12, Exit::Branch { cond: BranchIf::Scc1, taken: 1, next: 2 }), (16, 16, Exit::End)]);
    let st = Structure::of(&cfg);
    assert!(st.reducible());
    assert_eq!(st.loops.len(), 1);
    assert_eq!((st.loops[0].header, st.loops[0].latches.clone(), st.loops[0].exits.clone()), (1, vec![1], vec![(1, 2)]));
    assert_eq!(st.idom, vec![None, Some(0), Some(1)]);
}

#[test]
fn a_cycle_with_two_entries_is_irreducible() {
    let p = program(
        "s_cmp_eq_u32 s0, 0
         s_cbranch_scc1 1
         s_add_u32 s1, s1, 1
         s_cmp_lt_u32 s1, 5
         s_cbranch_scc1 -3
         s_endpgm",
    );
    let cfg = Cfg::build(&p, 0).unwrap();
    // Blocks: 0 [0,4], A [8], B [12,16], end [20].
    assert_eq!(shape(&p, &cfg)[1..3], [(8, 8, Exit::Goto(2)), (12, 16, Exit::Branch { cond: BranchIf::Scc1, taken: 1, next: 3 })]);
    let st = Structure::of(&cfg);
    assert!(!st.reducible());
    assert!(st.loops.is_empty());
    // Neither A nor B dominates the other; both are entered from block 0.
    assert_eq!((st.idom[1], st.idom[2]), (Some(0), Some(0)));
    assert_eq!(st.irreducible.len(), 1);
}

#[test]
fn a_long_branch_through_getpc_and_setpc_is_followed() {
    let p = program(
        "s_getpc_b64 s[0:1]
         s_add_u32 s0, s0, 16
         s_addc_u32 s1, s1, 0
         s_setpc_b64 s[0:1]
         s_endpgm
         s_endpgm",
    );
    let cfg = Cfg::build(&p, 0).unwrap();
    // s_getpc gives 4; 4 + 16 = 20, the second s_endpgm; the first is never reached.
    assert_eq!(shape(&p, &cfg), vec![(0, 12, Exit::Goto(1)), (20, 20, Exit::End)]);
}

#[test]
fn a_call_and_its_return_join_two_functions() {
    let p = program(
        "s_getpc_b64 s[4:5]
         s_add_u32 s4, s4, 16
         s_addc_u32 s5, s5, 0
         s_swappc_b64 s[30:31], s[4:5]
         s_endpgm
         v_mov_b32 v0, 1
         s_setpc_b64 s[30:31]",
    );
    let cfg = Cfg::build(&p, 0).unwrap();
    assert_eq!(cfg.functions.len(), 2);
    assert_eq!(shape(&p, &cfg), vec![(0, 12, Exit::Call { callee: 2, ret: 1 }), (16, 16, Exit::End), (20, 24, Exit::Return)]);
    assert!(cfg.allows(&p, 12, 20), "call");
    assert!(cfg.allows(&p, 24, 16), "return");
    assert!(!cfg.allows(&p, 12, 16), "a call does not fall through");
}

#[test]
fn every_unfollowable_site_is_reported_at_once() {
    let p = program(
        "s_cbranch_scc0 2
         s_swappc_b64 s[30:31], s[4:5]
         s_endpgm
         s_branch 100
         s_endpgm",
    );
    let err = Cfg::build(&p, 0).unwrap_err();
    let sites: Vec<(u64, &str, &str)> = err.0.iter().map(|s| (s.pc, s.raw.as_str(), s.text.as_str())).collect();
    assert_eq!(sites, vec![(4, "BE9E2104", "s_swappc_b64 s[30:31], s[4:5]"), (12, "BF820064", "s_branch 100")]);
    assert!(err.0[0].reason.contains("indirect call"), "{err}");
    assert!(err.0[1].reason.contains("not an instruction"), "{err}");
}

#[test]
fn running_into_undecodable_words_is_reported() {
    let mut bytes = rdna_testkit::asm_for("gfx1030", "s_mov_b32 s0, 1", false);
    bytes.extend_from_slice(&0xffff_ffffu32.to_le_bytes());
    let target = rdna_isa::Target::from_name("gfx1030").unwrap();
    let p = Program::decode(&Decoder::new(target), &bytes, 0);
    let err = Cfg::build(&p, 0).unwrap_err();
    assert_eq!(err.0.len(), 1, "{err}");
    assert_eq!(err.0[0].pc, 4, "{err}");
}

#[test]
fn the_counted_loop_structures_as_a_loop_with_an_if() {
    use rdna_frontend::structurize::{structurize, Node};
    let p = program(COUNTED_LOOP);
    let cfg = Cfg::build(&p, 0).unwrap();
    let tree = structurize(&cfg, &Structure::of(&cfg));
    let want = vec![
        Node::Code(0),
        Node::Loop {
            header: 1,
            body: vec![Node::Code(1), Node::If { block: 1, cond: BranchIf::Scc1, then: vec![Node::Continue(1)], otherwise: vec![Node::Code(2), Node::End] }],
        },
    ];
    assert_eq!(tree, vec![want]);
}

#[test]
fn a_diamond_puts_its_join_after_a_breakable_block() {
    use rdna_frontend::structurize::{structurize, Node};
    // if (scc) { s1 = 1 } else { s1 = 2 }; end
    let p = program(
        "s_cbranch_scc1 2
         s_mov_b32 s1, 2
         s_branch 1
         s_mov_b32 s1, 1
         s_endpgm",
    );
    let cfg = Cfg::build(&p, 0).unwrap();
    assert_eq!(shape(&p, &cfg).len(), 4);
    let tree = structurize(&cfg, &Structure::of(&cfg));
    // Blocks: 0 branch, 1 else-arm [4,8], 2 then-arm [12], 3 join [16].
    let want = vec![
        Node::Block {
            follow: 3,
            body: vec![
                Node::Code(0),
                Node::If { block: 0, cond: BranchIf::Scc1, then: vec![Node::Code(2), Node::Break(3)], otherwise: vec![Node::Code(1), Node::Break(3)] },
            ],
        },
        Node::Code(3),
        Node::End,
    ];
    assert_eq!(tree, vec![want]);
}

/// A site's dwords are the instruction's as llvm-mc-19 encodes them: a one-dword encoding
/// with a literal is two dwords, a two-dword one with a literal three.
#[test]
fn site_dwords_follow_the_encoding() {
    let p = program("v_fmamk_f16 v10, v7, 0x3e00, v8\n v_add3_u32 v1, v2, v3, 0x12345\n v_mov_b32 v1, v2\n s_endpgm");
    let words: Vec<String> = p.steps.iter().map(|s| s.hex_words()).collect();
    assert_eq!(words[..3], ["6E141107 00003E00", "D76D0001 03FE0702 00012345", "7E020302"]);
}
