//! Reading a MIR file as `llc` reads it: every YAML document
//! ([`super::mir_yaml`]), the IR module of the `--- |` document (read by
//! [`super::module`] in place, so its diagnostics keep the file's lines), and
//! each machine function with its registers, stack objects and body. Each
//! machine function becomes one [`Function`] of the module, its `bb.N` blocks
//! [`Block`]s, and its debug instructions the IR model's debug instructions:
//! `DBG_VALUE`, `DBG_VALUE_LIST` and `DBG_INSTR_REF` records (with their
//! register, sub-register, frame-index, immediate and instruction-number
//! operands), `DBG_DEF` and `DBG_KILL`. Other instructions are kept as text.
//!
//! Registers have no IR type; what an expression's `DIOpArg` is checked
//! against is the operand's width in bits, [`MirFile::operand_bits`]: a
//! physical register's from its name, a virtual register's from its register
//! class (or sub-register index, or generic type), an instruction reference's
//! from the register its instruction defines. Names whose width diopter
//! cannot tell (an unknown target's registers, immediates, frame indexes)
//! are not size-checked.
//!
//! Without the target's instruction tables diopter cannot know every opcode:
//! an instruction name is accepted when it is a target-independent one or
//! has the shape of a target's (`V_MOV_B32_e32`, `MOV64rr`: an upper-case
//! letter first, then letters, digits and `_`); a name of another shape, or a
//! `DBG_`/`G_` name LLVM does not define, is an unknown instruction.

use super::lexer::{lex, Tok, Token};
use super::mir_yaml::{parse_documents, Node};
use super::module::{md_value, parse_module_range, Limits};
use super::parser::Parser;
use crate::ast::Span;
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::types::Type;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Resource limit: instructions in all machine function bodies of a file.
pub const MAX_MIR_INSTS: usize = 1_000_000;

/// A MIR file read.
#[derive(Clone, Debug, Default)]
pub struct MirFile {
    /// The IR module, with one function per machine function appended.
    pub module: Module,
    /// The width in bits the machine function gives each debug operand whose
    /// width is known, by the operand's span start.
    pub operand_bits: HashMap<usize, u64>,
    /// Indices in `module.functions` of the machine functions, in file order.
    pub machine_functions: Vec<usize>,
    /// The target the file is for: the IR's `target triple`, or `amdgcn`
    /// when the machine functions use AMDGPU registers.
    pub target: Option<String>,
}

/// Whether `text` is a MIR file: its first line that is not blank or a `#`
/// comment starts a YAML document.
pub fn is_mir(text: &str) -> bool {
    text.lines()
        .map(str::trim_end)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l == "---" || l.starts_with("--- "))
}

/// Reads a MIR file. Spans in the module and the diagnostics are byte
/// offsets into `text`.
pub fn parse_mir(text: &str) -> (MirFile, Vec<Diagnostic>) {
    let (docs, mut diags) = parse_documents(text);
    let mut file = MirFile::default();
    let mut have_ir = false;
    let mut insts = 0usize;
    for d in &docs {
        if let Some(b) = d.block {
            if have_ir {
                diags.push(Diagnostic::error(
                    d.marker,
                    "a second IR document (`--- |`); a MIR file has at most one, before the machine functions",
                ));
                continue;
            }
            if !file.machine_functions.is_empty() {
                diags.push(Diagnostic::error(
                    d.marker,
                    "the IR document (`--- |`) must come before the machine functions",
                ));
                continue;
            }
            have_ir = true;
            let (m, ds) = parse_module_range(text, b.start, b.end, Limits::default());
            file.module = m;
            diags.extend(ds);
            continue;
        }
        let Some(root) = &d.root else { continue };
        if !matches!(root, Node::Map(_)) {
            diags.push(Diagnostic::error(
                root.span(),
                "a machine function document must be a YAML mapping (`name:`, `body:`, ...)",
            ));
            continue;
        }
        machine_function(text, d.marker, root, &mut file, &mut diags, &mut insts);
        if insts > MAX_MIR_INSTS {
            break;
        }
    }
    file.target = file.module.triple.clone().or_else(|| {
        file.machine_functions
            .iter()
            .any(|&f| uses_amdgpu(&file.module.functions[f]))
            .then(|| "amdgcn".to_string())
    });
    (file, diags)
}

/// Whether a machine function's instructions name AMDGPU registers.
fn uses_amdgpu(f: &Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| {
        [
            "$vgpr", "$sgpr", "$agpr", "$exec", ":vgpr_", ":sreg_", ":vreg_", ":sgpr_",
        ]
        .iter()
        .any(|p| i.text.contains(p))
    })
}

/// What the `registers:`, `stack:` and `fixedStack:` lists declare.
#[derive(Default)]
struct Frame {
    /// Virtual register number or name -> its class (or `_` and a type).
    classes: HashMap<String, String>,
    stack: HashSet<u64>,
    fixed: HashSet<u64>,
}

fn machine_function(
    text: &str,
    marker: Span,
    root: &Node,
    file: &mut MirFile,
    diags: &mut Vec<Diagnostic>,
    insts: &mut usize,
) {
    let name = match root.get("name") {
        Some(Node::Scalar(s, _)) if !s.is_empty() => s.clone(),
        Some(n) => {
            diags.push(Diagnostic::error(
                n.span(),
                "`name:` of a machine function must be the function's name",
            ));
            return;
        }
        None => {
            diags.push(Diagnostic::error(
                marker,
                "this machine function has no `name:`",
            ));
            return;
        }
    };
    if let Some(&prev) = file
        .machine_functions
        .iter()
        .find(|&&f| file.module.functions[f].name == name)
    {
        let _ = prev;
        diags.push(Diagnostic::error(
            root.get("name").map_or(marker, Node::span),
            format!("a second machine function named `{name}`"),
        ));
        return;
    }
    let mut frame = Frame::default();
    if let Some(regs) = root.get("registers") {
        for r in seq_items(regs, "registers", diags) {
            let id = r.get("id").and_then(Node::scalar);
            let class = r.get("class").and_then(Node::scalar);
            match (id, class) {
                (Some(id), Some(c)) if !c.is_empty() => {
                    frame.classes.insert(id.to_string(), c.to_string());
                }
                (Some(_), _) => {}
                (None, _) => diags.push(Diagnostic::error(
                    r.span(),
                    "a `registers:` entry needs an `id:`",
                )),
            }
        }
    }
    for (key, out) in [
        ("stack", &mut frame.stack),
        ("fixedStack", &mut frame.fixed),
    ] {
        if let Some(list) = root.get(key) {
            for o in seq_items(list, key, diags) {
                match o.get("id").and_then(Node::scalar).map(str::parse::<u64>) {
                    Some(Ok(id)) => {
                        out.insert(id);
                    }
                    _ => diags.push(Diagnostic::error(
                        o.span(),
                        format!("a `{key}:` entry needs a numeric `id:`"),
                    )),
                }
            }
        }
    }
    let body = match root.get("body") {
        Some(Node::Block(s)) => Some(*s),
        Some(Node::Scalar(s, _)) if s.is_empty() => None,
        Some(n) => {
            diags.push(Diagnostic::error(
                n.span(),
                "`body:` must be a block scalar (`body: |` and the instructions on the lines after it)",
            ));
            None
        }
        None => None,
    };
    let mut f = Function {
        name,
        header: None,
        dbg: None,
        blocks: Vec::new(),
        implicit: false,
        span: Pos(marker),
    };
    if let Some(b) = body {
        let mut r = BodyReader {
            text,
            frame: &frame,
            diags,
            file,
            func: &mut f,
            instr_defs: HashMap::new(),
            pending_refs: Vec::new(),
            explicit_succs: Vec::new(),
            mentioned: BTreeMap::new(),
            classes_seen: HashMap::new(),
            insts,
        };
        r.read(b);
    }
    file.module.functions.push(f);
    file.machine_functions.push(file.module.functions.len() - 1);
}

fn seq_items<'n>(n: &'n Node, key: &str, diags: &mut Vec<Diagnostic>) -> Vec<&'n Node> {
    match n {
        Node::Seq(items, _) => items.iter().collect(),
        Node::Scalar(s, _) if s.is_empty() => Vec::new(),
        _ => {
            diags.push(Diagnostic::error(
                n.span(),
                format!("`{key}:` must be a YAML sequence (`- {{ id: 0, ... }}` items)"),
            ));
            Vec::new()
        }
    }
}

/// Target-independent opcodes LLVM defines (`TargetOpcodes.def`), the ones
/// that start with `DBG_` or `G_` checked exactly.
const GENERIC_OPCODES: &[&str] = &[
    "PHI",
    "INLINEASM",
    "INLINEASM_BR",
    "CFI_INSTRUCTION",
    "EH_LABEL",
    "GC_LABEL",
    "ANNOTATION_LABEL",
    "KILL",
    "EXTRACT_SUBREG",
    "INSERT_SUBREG",
    "IMPLICIT_DEF",
    "INIT_UNDEF",
    "SUBREG_TO_REG",
    "COPY_TO_REGCLASS",
    "DBG_VALUE",
    "DBG_VALUE_LIST",
    "DBG_INSTR_REF",
    "DBG_PHI",
    "DBG_LABEL",
    "DBG_DEF",
    "DBG_KILL",
    "REG_SEQUENCE",
    "COPY",
    "BUNDLE",
    "LIFETIME_START",
    "LIFETIME_END",
    "PSEUDO_PROBE",
    "ARITH_FENCE",
    "STACKMAP",
    "FENTRY_CALL",
    "PATCHPOINT",
    "LOAD_STACK_GUARD",
    "PREALLOCATED_SETUP",
    "PREALLOCATED_ARG",
    "STATEPOINT",
    "LOCAL_ESCAPE",
    "FAULTING_OP",
    "PATCHABLE_OP",
    "PATCHABLE_FUNCTION_ENTER",
    "PATCHABLE_RET",
    "PATCHABLE_FUNCTION_EXIT",
    "PATCHABLE_TAIL_CALL",
    "PATCHABLE_EVENT_CALL",
    "PATCHABLE_TYPED_EVENT_CALL",
    "ICALL_BRANCH_FUNNEL",
    "MEMBARRIER",
    "JUMP_TABLE_DEBUG_INFO",
    "CONVERGENCECTRL_ENTRY",
    "CONVERGENCECTRL_ANCHOR",
    "CONVERGENCECTRL_LOOP",
    "CONVERGENCECTRL_GLUE",
];

/// Instructions after which control does not fall through to the next block.
const BARRIERS: &[&str] = &[
    "S_BRANCH",
    "SI_RETURN",
    "SI_RETURN_TO_EPILOG",
    "S_ENDPGM",
    "S_ENDPGM0",
    "S_SETPC_B64",
    "S_SETPC_B64_return",
    "SI_TCRETURN",
    "SI_CS_CHAIN_TC_W32",
    "SI_CS_CHAIN_TC_W64",
    "S_TRAP",
    "G_BR",
    "G_BRINDIRECT",
    "RET",
    "RET32",
    "RET64",
    "RETQ",
    "JMP_1",
    "JMP_2",
    "JMP_4",
    "JMP64r",
    "TCRETURNdi64",
    "TCRETURNri64",
    "TRAP",
];

/// Words that may precede an instruction's name.
const INST_FLAGS: &[&str] = &[
    "frame",
    "setup",
    "destroy",
    "nnan",
    "ninf",
    "nsz",
    "arcp",
    "contract",
    "afn",
    "reassoc",
    "nuw",
    "nsw",
    "exact",
    "nofpexcept",
    "nomerge",
    "unpredictable",
    "noconvergent",
    "disjoint",
    "nusw",
    "samesign",
    "inbounds",
    "nneg",
];

/// Words that may precede a register operand.
const OPERAND_FLAGS: &[&str] = &[
    "implicit",
    "def",
    "dead",
    "killed",
    "undef",
    "internal",
    "early",
    "clobber",
    "debug",
    "use",
    "renamable",
];

/// Whether `w` is an instruction name LLVM could know.
pub fn known_opcode_shape(w: &str) -> bool {
    if w.starts_with("DBG_")
        || w.starts_with("G_")
            && w.chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
    {
        return GENERIC_OPCODES.contains(&w) || w.starts_with("G_");
    }
    let mut cs = w.chars();
    cs.next().is_some_and(|c| c.is_ascii_uppercase())
        && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && w.chars()
            .nth(1)
            .is_none_or(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The width in bits of a physical register, from its name (AMDGPU and
/// x86-64 names); `None` when diopter cannot tell.
pub fn physical_register_bits(name: &str) -> Option<u64> {
    let parts: Vec<&str> = name.split('_').collect();
    // `vgpr0_vgpr1`: a tuple of 32-bit registers.
    if parts.len() > 1 && parts.iter().all(|p| amdgpu_reg32(p)) {
        return Some(32 * parts.len() as u64);
    }
    if let Some(base) = name
        .strip_suffix("_lo16")
        .or_else(|| name.strip_suffix("_hi16"))
    {
        return amdgpu_reg32(base).then_some(16);
    }
    if amdgpu_reg32(name) {
        return Some(32);
    }
    match name {
        "vcc" | "exec" | "flat_scr" | "xnack_mask" | "tba" | "tma" | "src_shared_base"
        | "src_private_base" | "src_shared_limit" | "src_private_limit" | "sgpr_null64" => Some(64),
        "vcc_lo" | "vcc_hi" | "exec_lo" | "exec_hi" | "m0" | "flat_scr_lo" | "flat_scr_hi"
        | "sgpr_null" | "mode" | "lds_direct" | "src_vccz" | "src_execz" | "src_scc" => Some(32),
        "scc" => Some(1),
        _ => x86_register_bits(name),
    }
}

fn amdgpu_reg32(p: &str) -> bool {
    ["vgpr", "sgpr", "agpr", "ttmp"].iter().any(|k| {
        p.strip_prefix(k)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
    })
}

fn x86_register_bits(name: &str) -> Option<u64> {
    const R64: &[&str] = &[
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "rip",
    ];
    const R32: &[&str] = &[
        "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp", "eip",
    ];
    const R16: &[&str] = &["ax", "bx", "cx", "dx", "si", "di", "bp", "sp"];
    const R8: &[&str] = &[
        "al", "bl", "cl", "dl", "ah", "bh", "ch", "dh", "sil", "dil", "bpl", "spl",
    ];
    if R64.contains(&name) {
        return Some(64);
    }
    if R32.contains(&name) {
        return Some(32);
    }
    if R16.contains(&name) {
        return Some(16);
    }
    if R8.contains(&name) {
        return Some(8);
    }
    if let Some(n) = name.strip_prefix('r') {
        let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(k) = digits.parse::<u32>() {
            if (8..=15).contains(&k) {
                return match &n[digits.len()..] {
                    "" => Some(64),
                    "d" => Some(32),
                    "w" => Some(16),
                    "b" => Some(8),
                    _ => None,
                };
            }
        }
    }
    for (p, w) in [("xmm", 128), ("ymm", 256), ("zmm", 512)] {
        if name
            .strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
        {
            return Some(w);
        }
    }
    None
}

/// The width in bits of a register class or generic type, by LLVM's naming:
/// the last component of `vgpr_32`, `vreg_64_align2`, `sreg_32_xm0`, `gr64`,
/// `vgpr_lo16` that ends in a number; `_(s32)`, `_(p5)` (with the data
/// layout's pointer width), `_(<2 x s16>)` for generic virtual registers.
pub fn class_bits(class: &str, pointer_bits: &dyn Fn(u32) -> u64) -> Option<u64> {
    if let Some(t) = class.strip_prefix("_(").and_then(|t| t.strip_suffix(')')) {
        return llt_bits(t, pointer_bits);
    }
    if class.starts_with('(') {
        return llt_bits(
            class.trim_start_matches('(').trim_end_matches(')'),
            pointer_bits,
        );
    }
    // A component that is a number (`vreg_64_align2`: 64), else one that
    // ends in one (`gr64`, `vgpr_lo16`).
    if let Some(n) = class
        .split('_')
        .rev()
        .find(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()))
    {
        return n.parse().ok();
    }
    class.split('_').rev().find_map(|c| {
        let digits: String = c
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        (!digits.is_empty()).then(|| digits.parse().ok()).flatten()
    })
}

/// The width of a generic type: `s32`, `p5`, `<4 x s32>`.
fn llt_bits(t: &str, pointer_bits: &dyn Fn(u32) -> u64) -> Option<u64> {
    let t = t.trim();
    if let Some(v) = t.strip_prefix('<').and_then(|v| v.strip_suffix('>')) {
        let (n, e) = v.split_once(" x ")?;
        return Some(n.trim().parse::<u64>().ok()? * llt_bits(e, pointer_bits)?);
    }
    if let Some(n) = t.strip_prefix('s') {
        return n.parse().ok();
    }
    if let Some(n) = t.strip_prefix('p') {
        return Some(pointer_bits(n.parse().ok()?));
    }
    None
}

/// The width of a sub-register index: `sub0` 32, `sub0_sub1` 64, `lo16` 16.
fn subreg_bits(idx: &str) -> Option<u64> {
    if idx == "lo16" || idx == "hi16" {
        return Some(16);
    }
    let parts: Vec<&str> = idx.split('_').collect();
    if parts.iter().all(|p| {
        p.strip_prefix("sub")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
    }) {
        return Some(32 * parts.len() as u64);
    }
    match idx {
        "sub_8bit" | "sub_8bit_hi" => Some(8),
        "sub_16bit" => Some(16),
        "sub_32bit" => Some(32),
        _ => None,
    }
}

/// One operand of a machine instruction, read.
struct MOperand {
    operand: Operand,
    bits: Option<u64>,
}

struct BodyReader<'a, 't> {
    text: &'t str,
    frame: &'a Frame,
    diags: &'a mut Vec<Diagnostic>,
    file: &'a mut MirFile,
    func: &'a mut Function,
    /// `debug-instr-number N` (and `DBG_PHI`'s number) -> widths of the values it defines.
    instr_defs: HashMap<u64, Vec<Option<u64>>>,
    /// `dbg-instr-ref(N, M)` operands seen: their span start, N, M.
    pending_refs: Vec<(usize, u64, u64, Span)>,
    /// Per block: the `successors:` line's targets, when it has one.
    explicit_succs: Vec<Option<Vec<(u64, Span)>>>,
    /// Virtual registers mentioned without a class at that mention -> first span.
    mentioned: BTreeMap<String, Span>,
    /// Virtual registers given a class (`%N:CLASS`) or a type (`%N(s32)`) in the body.
    classes_seen: HashMap<String, String>,
    insts: &'a mut usize,
}

impl BodyReader<'_, '_> {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn pointer_bits(&self) -> impl Fn(u32) -> u64 + '_ {
        let dl = self.file.module.datalayout.as_ref().map(|(d, _)| d.clone());
        move |a| match &dl {
            Some(d) => d.pointer_bits(a),
            // AMDGPU's layout when the IR gives none: private and local
            // pointers are 32 bits.
            None if matches!(a, 2 | 3 | 5 | 6) => 32,
            None => 64,
        }
    }

    fn read(&mut self, body: Span) {
        // Lines of the body, joined while parentheses are open.
        let mut lines: Vec<(usize, usize)> = Vec::new();
        let mut at = body.start;
        for l in self.text[body.start..body.end].split_inclusive('\n') {
            let end = at + l.trim_end_matches('\n').trim_end_matches('\r').len();
            lines.push((at, end));
            at += l.len();
        }
        let mut k = 0;
        let mut block_labels: HashMap<u64, usize> = HashMap::new();
        let mut block_nums: Vec<Option<u64>> = Vec::new();
        while k < lines.len() {
            let (s, mut e) = lines[k];
            k += 1;
            let mut toks = lex(self.text, s, e);
            let mut depth = paren_depth(&toks);
            while depth > 0 && k < lines.len() {
                e = lines[k].1;
                k += 1;
                toks = lex(self.text, s, e);
                depth = paren_depth(&toks);
            }
            let toks: Vec<Token> = toks.into_iter().filter(|t| t.tok != Tok::Newline).collect();
            if toks.is_empty() {
                continue;
            }
            if let Some(Token {
                tok: Tok::Error(msg),
                span,
            }) = toks.iter().find(|t| matches!(t.tok, Tok::Error(_)))
            {
                let (m, sp) = (msg.clone(), *span);
                self.err(sp, m);
                continue;
            }
            // A block label: `bb.N[.name][ (attributes)]:`.
            if let (Tok::Ident(w), Some(Tok::Colon)) = (&toks[0].tok, toks.last().map(|t| &t.tok)) {
                if let Some(rest) = w.strip_prefix("bb.") {
                    let span = Span::new(toks[0].span.start, toks[toks.len() - 1].span.end);
                    let num = rest.split('.').next().unwrap_or("");
                    let Ok(n) = num.parse::<u64>() else {
                        self.err(
                            toks[0].span,
                            "a basic block label is `bb.N[.name]:` with a number N",
                        );
                        continue;
                    };
                    if let Some(&prev) = block_labels.get(&n) {
                        let _ = prev;
                        self.err(
                            span,
                            format!(
                                "basic block `bb.{n}` is defined twice in machine function `{}`",
                                self.func.name
                            ),
                        );
                        continue;
                    }
                    block_labels.insert(n, self.func.blocks.len());
                    block_nums.push(Some(n));
                    self.func.blocks.push(Block {
                        label: Some(format!("bb.{n}")),
                        insts: Vec::new(),
                        succs: Vec::new(),
                        span: Pos(span),
                    });
                    self.explicit_succs.push(None);
                    continue;
                }
            }
            if let (Tok::Ident(w), Some(Tok::Colon)) = (&toks[0].tok, toks.get(1).map(|t| &t.tok)) {
                if w == "successors" || w == "liveins" {
                    if self.func.blocks.is_empty() {
                        self.err(
                            toks[0].span,
                            format!("`{w}:` before the first basic block label"),
                        );
                        continue;
                    }
                    if w == "successors" {
                        let targets = toks
                            .iter()
                            .filter_map(|t| match &t.tok {
                                Tok::Local(n) => block_ref(n).map(|b| (b, t.span)),
                                _ => None,
                            })
                            .collect();
                        if let Some(last) = self.explicit_succs.last_mut() {
                            *last = Some(targets);
                        }
                    }
                    continue;
                }
            }
            // A bundle's closing brace.
            if toks.len() == 1 && toks[0].tok == Tok::RBrace {
                continue;
            }
            if self.func.blocks.is_empty() {
                self.err(
                    Span::new(toks[0].span.start, toks[toks.len() - 1].span.end),
                    "an instruction before the first basic block label (`bb.0:`)",
                );
                continue;
            }
            *self.insts += 1;
            if *self.insts > MAX_MIR_INSTS {
                self.err(
                    toks[0].span,
                    format!("more than {MAX_MIR_INSTS} machine instructions (diopter's limit); the rest of the file is not read"),
                );
                return;
            }
            let inst = self.instruction(&toks);
            if let Some(b) = self.func.blocks.last_mut() {
                b.insts.push(inst);
            }
        }
        self.resolve(&block_labels, &block_nums);
    }

    /// Successors, instruction references and classes, once the body is read.
    fn resolve(&mut self, labels: &HashMap<u64, usize>, _nums: &[Option<u64>]) {
        let n = self.func.blocks.len();
        for i in 0..n {
            let mut succs = Vec::new();
            let explicit = self.explicit_succs[i].clone();
            let targets: Vec<(u64, Span)> = match explicit {
                Some(t) => t,
                None => {
                    let b = &self.func.blocks[i];
                    let mut t = Vec::new();
                    for inst in &b.insts {
                        for tok in lex(&inst.text, 0, inst.text.len()) {
                            if let Tok::Local(name) = &tok.tok {
                                if let Some(bn) = block_ref(name) {
                                    t.push((bn, inst.span.0));
                                }
                            }
                        }
                    }
                    let falls = b.insts.last().is_none_or(|l| {
                        !BARRIERS.contains(&opcode_of(&l.text).unwrap_or_default().as_str())
                    });
                    let mut t2: Vec<(u64, Span)> = t;
                    if falls && i + 1 < n {
                        if let Some(next) = self.func.blocks[i + 1]
                            .label
                            .as_deref()
                            .and_then(|l| l.strip_prefix("bb."))
                            .and_then(|l| l.parse().ok())
                        {
                            t2.push((next, self.func.blocks[i].span.0));
                        }
                    }
                    t2
                }
            };
            for (bn, span) in targets {
                match labels.get(&bn) {
                    Some(&j) => {
                        if !succs.contains(&j) {
                            succs.push(j)
                        }
                    }
                    None => self.err(
                        span,
                        format!(
                            "`%bb.{bn}` is not a basic block of machine function `{}`",
                            self.func.name
                        ),
                    ),
                }
            }
            self.func.blocks[i].succs = succs;
        }
        for (at, num, op, span) in std::mem::take(&mut self.pending_refs) {
            match self.instr_defs.get(&num) {
                Some(defs) => {
                    if let Some(Some(b)) = defs.get(op as usize) {
                        self.file.operand_bits.insert(at, *b);
                    } else if defs.get(op as usize).is_none() {
                        self.err(span, format!("instruction {num} (`debug-instr-number {num}`) has no operand {op}"));
                    }
                }
                None => self.err(
                    span,
                    format!(
                        "no instruction of machine function `{}` has `debug-instr-number {num}`",
                        self.func.name
                    ),
                ),
            }
        }
        let mentioned = std::mem::take(&mut self.mentioned);
        for (v, span) in mentioned {
            if !self.frame.classes.contains_key(&v) && !self.has_class(&v) {
                self.err(
                    span,
                    format!("virtual register `%{v}` has no register class: give it one in `registers:` or as `%{v}:CLASS` where it is defined"),
                );
            }
        }
    }

    fn has_class(&self, v: &str) -> bool {
        self.classes_seen.contains_key(v)
    }

    fn instruction(&mut self, toks: &[Token]) -> Inst {
        let span = Span::new(toks[0].span.start, toks[toks.len() - 1].span.end);
        let text = self.text[span.start..span.end].to_string();
        let opaque = |text: String| Inst {
            kind: InstKind::Opaque,
            text,
            span: Pos(span),
        };
        // Memory operands after `::` are not read.
        let end = toks
            .windows(2)
            .position(|w| w[0].tok == Tok::Colon && w[1].tok == Tok::Colon)
            .unwrap_or(toks.len());
        let toks = &toks[..end];
        let eq = top_level(toks).find(|&i| toks[i].tok == Tok::Eq);
        let defs = eq.map_or(&toks[..0], |e| &toks[..e]);
        let mut i = eq.map_or(0, |e| e + 1);
        while i < toks.len() {
            match &toks[i].tok {
                Tok::Ident(w) if INST_FLAGS.contains(&w.as_str()) => i += 1,
                Tok::Minus => i += 1,
                _ => break,
            }
        }
        let Some(Token {
            tok: Tok::Ident(op),
            span: op_span,
        }) = toks.get(i)
        else {
            let at = toks.get(i).map_or(span, |t| t.span);
            self.err(at, "expected a machine instruction name");
            return opaque(text);
        };
        let (op, op_span) = (op.clone(), *op_span);
        if !known_opcode_shape(&op) {
            self.err(op_span, format!("unknown machine instruction name `{op}`"));
            return opaque(text);
        }
        let ops: Vec<&[Token]> = split_commas(&toks[i + 1..]);
        // Classes and mentions of virtual registers, widths of defined values.
        self.note_vregs(toks);
        let def_groups = split_commas(defs);
        if let Some(n) = instr_number(&ops) {
            let widths = def_groups.iter().map(|g| self.operand(g).bits).collect();
            self.instr_defs.insert(n, widths);
        }
        let kind = match op.as_str() {
            "DBG_VALUE" => self.dbg_value(&ops, op_span),
            "DBG_VALUE_LIST" | "DBG_INSTR_REF" => self.dbg_list(&op, &ops, op_span),
            "DBG_DEF" => self.dbg_def(&ops, op_span),
            "DBG_KILL" => match ops.first().and_then(|g| lifetime_of(g)) {
                Some(l) => Some(InstKind::DbgKill {
                    lifetime: l,
                    form: Form::Mir {
                        trailer: String::new(),
                    },
                }),
                None => {
                    self.err(op_span, "DBG_KILL takes `!N` naming a DILifetime");
                    None
                }
            },
            "DBG_PHI" => {
                if let (Some(r), Some(n)) = (ops.first(), ops.get(1).and_then(|g| int_of(g))) {
                    let w = self.operand(r).bits;
                    self.instr_defs.insert(n, vec![w]);
                }
                None
            }
            _ => None,
        };
        Inst {
            kind: kind.unwrap_or(InstKind::Opaque),
            text,
            span: Pos(span),
        }
    }

    /// Records `%N:class` definitions and every mention of a virtual register.
    fn note_vregs(&mut self, toks: &[Token]) {
        for (k, t) in toks.iter().enumerate() {
            let Tok::Local(name) = &t.tok else { continue };
            let Some(v) = vreg_name(name) else { continue };
            let class = match (
                toks.get(k + 1).map(|t| &t.tok),
                toks.get(k + 2).map(|t| &t.tok),
            ) {
                (Some(Tok::Colon), Some(Tok::Ident(c))) => Some(c.clone()),
                (Some(Tok::LParen), _) => Some("_".to_string()),
                _ => None,
            };
            match class {
                Some(c) => {
                    self.classes_seen.entry(v.to_string()).or_insert(c);
                }
                None => {
                    self.mentioned.entry(v.to_string()).or_insert(t.span);
                }
            }
        }
    }

    /// One operand: a register (with its flags, sub-register and class), a
    /// frame index, an immediate, a global, `dbg-instr-ref(N, M)`.
    fn operand(&mut self, g: &[Token]) -> MOperand {
        let mut k = 0;
        while k < g.len() {
            match &g[k].tok {
                Tok::Ident(w) if OPERAND_FLAGS.contains(&w.as_str()) && g.len() > k + 1 => k += 1,
                Tok::Minus if k > 0 => k += 1,
                _ => break,
            }
        }
        let g = &g[k..];
        let span = match (g.first(), g.last()) {
            (Some(a), Some(b)) => Span::new(a.span.start, b.span.end),
            _ => Span::default(),
        };
        let mk = |value: Value, ty: Option<Type>, bits: Option<u64>| MOperand {
            operand: Operand {
                ty,
                value,
                span: Pos(span),
            },
            bits,
        };
        match g.first().map(|t| &t.tok) {
            Some(Tok::Dollar(r)) if r == "noreg" => mk(Value::Undef, None, None),
            Some(Tok::Dollar(r)) => {
                let bits = physical_register_bits(r);
                mk(Value::Reg(r.clone()), None, bits)
            }
            Some(Tok::Local(name)) => {
                if let Some(v) = vreg_name(name) {
                    let sub = name.split_once('.').map(|(_, s)| s);
                    let class = match (g.get(1).map(|t| &t.tok), g.get(2).map(|t| &t.tok)) {
                        (Some(Tok::Colon), Some(Tok::Ident(c))) => Some(c.clone()),
                        _ => self
                            .frame
                            .classes
                            .get(v)
                            .cloned()
                            .or_else(|| self.classes_seen.get(v).cloned()),
                    };
                    let pb = self.pointer_bits();
                    let bits = match sub {
                        Some(s) => subreg_bits(s),
                        None => class.as_deref().and_then(|c| {
                            // `%0:_(s32)`: the type follows the `_`.
                            let full = if c == "_" {
                                let rest: String = g[3..]
                                    .iter()
                                    .map(|t| &self.text[t.span.start..t.span.end])
                                    .collect::<Vec<_>>()
                                    .join(" ");
                                format!("_{}", rest.replace("( ", "(").replace(" )", ")"))
                            } else {
                                c.to_string()
                            };
                            class_bits(&full, &pb)
                        }),
                    };
                    return mk(Value::Local(name.clone()), None, bits);
                }
                for (p, list, what) in [
                    ("stack.", &self.frame.stack, "stack"),
                    ("fixed-stack.", &self.frame.fixed, "fixedStack"),
                ] {
                    if let Some(rest) = name.strip_prefix(p) {
                        let n = rest.split('.').next().unwrap_or("").parse::<u64>();
                        if !n.is_ok_and(|n| list.contains(&n)) {
                            let m = format!("`%{name}` names no object of this machine function's `{what}:` list");
                            self.err(span, m);
                        }
                    }
                }
                mk(Value::Local(name.clone()), None, None)
            }
            Some(Tok::Global(n)) => mk(Value::Global(n.clone()), None, None),
            Some(Tok::Ident(w)) if w == "dbg" => {
                // `dbg-instr-ref(N, M)`.
                let nums: Vec<u64> = g
                    .iter()
                    .filter_map(|t| match &t.tok {
                        Tok::Int(s) => s.parse().ok(),
                        _ => None,
                    })
                    .collect();
                if let [n, m] = nums[..] {
                    self.pending_refs.push((span.start, n, m, span));
                } else {
                    self.err(
                        span,
                        "`dbg-instr-ref(N, M)` takes an instruction number and an operand number",
                    );
                }
                mk(
                    Value::Const(self.text[span.start..span.end].to_string()),
                    None,
                    None,
                )
            }
            Some(Tok::Ident(_)) if g.len() >= 2 => {
                // A typed immediate: `i32 5`, `float 1.0`.
                let mut p = Parser::new(g, span.end);
                match p.parse_type() {
                    Ok(t) => {
                        let rest = &self.text[g[p.pos.min(g.len() - 1)].span.start..span.end];
                        mk(Value::Const(rest.to_string()), Some(t), None)
                    }
                    Err(_) => mk(
                        Value::Const(self.text[span.start..span.end].to_string()),
                        None,
                        None,
                    ),
                }
            }
            Some(_) => mk(
                Value::Const(self.text[span.start..span.end].to_string()),
                None,
                None,
            ),
            None => mk(Value::Const(String::new()), None, None),
        }
    }

    fn record_operand(&mut self, g: &[Token]) -> Operand {
        let o = self.operand(g);
        if let Some(b) = o.bits {
            self.file.operand_bits.insert(o.operand.span.start, b);
        }
        o.operand
    }

    /// A metadata operand (`!12`, `!DIExpression(...)`, `!DILocalVariable(...)`).
    fn metadata(&mut self, g: &[Token], what: &str, at: Span) -> Option<MdValue> {
        if g.is_empty() {
            self.err(at, format!("{what} is missing"));
            return None;
        }
        let end = g[g.len() - 1].span.end;
        let mut p = Parser::new(g, end);
        match md_value(&mut p, self.text, self.diags, 0) {
            Ok(v) if p.pos >= g.len() => Some(v),
            Ok(_) => {
                let s = g[p.pos].span;
                self.err(s, format!("unexpected text after {what}"));
                None
            }
            Err(d) => {
                self.diags.push(d);
                None
            }
        }
    }

    fn dbg_loc(&mut self, rest: &[&[Token]]) -> Option<MdValue> {
        rest.iter().find_map(
            |g| match (g.first().map(|t| &t.tok), g.last().map(|t| &t.tok)) {
                (Some(Tok::Ident(w)), Some(Tok::MetaId(n))) if w == "debug" => {
                    Some(MdValue::Ref(*n))
                }
                _ => None,
            },
        )
    }

    /// `DBG_VALUE LOC, OFFSET-OR-$noreg, !var, !expr[, debug-location !N]`.
    fn dbg_value(&mut self, ops: &[&[Token]], at: Span) -> Option<InstKind> {
        if ops.len() < 4 {
            self.err(
                at,
                format!("DBG_VALUE takes a location, an offset or `$noreg`, a variable and an expression; found {} operand{}", ops.len(), if ops.len() == 1 { "" } else { "s" }),
            );
            return None;
        }
        let loc = self.record_operand(ops[0]);
        let variable = self.metadata(ops[2], "DBG_VALUE's variable", at)?;
        let expr = self.metadata(ops[3], "DBG_VALUE's expression", at)?;
        let dbg_loc = self.dbg_loc(&ops[4..]);
        Some(InstKind::DbgRecord(Box::new(DbgRecord {
            kind: RecordKind::Value,
            form: Form::Mir {
                trailer: String::new(),
            },
            location: DbgLocation::Value(loc),
            variable,
            expr,
            assign: None,
            dbg_loc,
        })))
    }

    /// `DBG_VALUE_LIST !var, !expr, LOC...` and `DBG_INSTR_REF !var, !expr,
    /// dbg-instr-ref(N, M)...` (or the older `DBG_INSTR_REF N, M, !var, !expr`).
    fn dbg_list(&mut self, op: &str, ops: &[&[Token]], at: Span) -> Option<InstKind> {
        let old_form = op == "DBG_INSTR_REF"
            && ops
                .first()
                .is_some_and(|g| matches!(g.first().map(|t| &t.tok), Some(Tok::Int(_))));
        let (variable, expr, locs) = if old_form {
            if ops.len() < 4 {
                self.err(at, "DBG_INSTR_REF takes an instruction number, an operand number, a variable and an expression");
                return None;
            }
            let n = int_of(ops[0]);
            let m = int_of(ops[1]);
            let span = Span::new(ops[0][0].span.start, ops[1][ops[1].len() - 1].span.end);
            if let (Some(n), Some(m)) = (n, m) {
                self.pending_refs.push((span.start, n, m, span));
            }
            let v = self.metadata(ops[2], "DBG_INSTR_REF's variable", at)?;
            let e = self.metadata(ops[3], "DBG_INSTR_REF's expression", at)?;
            let o = Operand {
                ty: None,
                value: Value::Const(self.text[span.start..span.end].to_string()),
                span: Pos(span),
            };
            (v, e, vec![o])
        } else {
            if ops.len() < 2 {
                self.err(
                    at,
                    format!("{op} takes a variable, an expression and its location operands"),
                );
                return None;
            }
            let v = self.metadata(ops[0], &format!("{op}'s variable"), at)?;
            let e = self.metadata(ops[1], &format!("{op}'s expression"), at)?;
            let mut locs = Vec::new();
            for g in &ops[2..] {
                if matches!(g.first().map(|t| &t.tok), Some(Tok::Ident(w)) if w == "debug")
                    && !matches!(g.get(2).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "instr")
                {
                    continue;
                }
                locs.push(self.record_operand(g));
            }
            (v, e, locs)
        };
        let dbg_loc = self.dbg_loc(ops);
        Some(InstKind::DbgRecord(Box::new(DbgRecord {
            kind: RecordKind::Value,
            form: Form::Mir {
                trailer: String::new(),
            },
            location: DbgLocation::ArgList(locs),
            variable,
            expr,
            assign: None,
            dbg_loc,
        })))
    }

    /// `DBG_DEF !L, REFERRER`.
    fn dbg_def(&mut self, ops: &[&[Token]], at: Span) -> Option<InstKind> {
        let lifetime = ops.first().and_then(|g| lifetime_of(g));
        let (Some(lifetime), Some(r)) = (lifetime, ops.get(1)) else {
            self.err(
                at,
                "DBG_DEF takes `!N` naming a DILifetime and the referrer",
            );
            return None;
        };
        let referrer = self.record_operand(r);
        Some(InstKind::DbgDef {
            lifetime,
            referrer,
            form: Form::Mir {
                trailer: String::new(),
            },
        })
    }
}

/// `%bb.N[.name]` -> N.
fn block_ref(name: &str) -> Option<u64> {
    name.strip_prefix("bb.")?.split('.').next()?.parse().ok()
}

/// A virtual register's number or name (`%5`, `%5.sub0`, `%foo`), or `None`
/// for the other `%` names of MIR (blocks, stack objects, IR values, ...).
fn vreg_name(name: &str) -> Option<&str> {
    const NOT: &[&str] = &[
        "bb.",
        "stack.",
        "fixed-stack.",
        "ir.",
        "ir-block.",
        "const.",
        "jump-table.",
        "subreg.",
        "target-index",
    ];
    if NOT.iter().any(|p| name.starts_with(p)) {
        return None;
    }
    let base = name.split('.').next()?;
    (!base.is_empty()).then_some(base)
}

fn lifetime_of(g: &[Token]) -> Option<u64> {
    g.iter().find_map(|t| match t.tok {
        Tok::MetaId(n) => Some(n),
        _ => None,
    })
}

fn int_of(g: &[Token]) -> Option<u64> {
    match g {
        [Token {
            tok: Tok::Int(s), ..
        }] => s.parse().ok(),
        _ => None,
    }
}

/// `debug-instr-number N` among an instruction's trailing operands.
fn instr_number(ops: &[&[Token]]) -> Option<u64> {
    ops.iter().find_map(|g| {
        let words: Vec<&Tok> = g.iter().map(|t| &t.tok).collect();
        match words.as_slice() {
            [Tok::Ident(a), Tok::Minus, Tok::Ident(b), Tok::Minus, Tok::Ident(c), Tok::Int(n)]
                if a == "debug" && b == "instr" && c == "number" =>
            {
                n.parse().ok()
            }
            _ => None,
        }
    })
}

/// The opcode of an instruction's text.
fn opcode_of(text: &str) -> Option<String> {
    let toks = lex(text, 0, text.len());
    let eq = top_level(&toks).find(|&i| toks[i].tok == Tok::Eq);
    toks[eq.map_or(0, |e| e + 1)..]
        .iter()
        .find_map(|t| match &t.tok {
            Tok::Ident(w) if !INST_FLAGS.contains(&w.as_str()) => Some(w.clone()),
            _ => None,
        })
}

/// Indices of the tokens outside brackets.
fn top_level(toks: &[Token]) -> impl Iterator<Item = usize> + '_ {
    let mut depth = 0i64;
    toks.iter().enumerate().filter_map(move |(i, t)| {
        let here = depth;
        match t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Lt => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Gt => depth -= 1,
            _ => {}
        }
        (here == 0 && depth <= 0).then_some(i)
    })
}

/// Splits operands at the commas outside brackets.
fn split_commas(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut depth = 0i64;
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Lt => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Gt => depth -= 1,
            Tok::Comma if depth == 0 => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() {
        out.push(&toks[start..]);
    }
    // A bundle's opening brace ends its header line.
    if let Some(last) = out.last_mut() {
        if last.last().is_some_and(|t| t.tok == Tok::LBrace) {
            *last = &last[..last.len() - 1];
        }
    }
    out.retain(|g| !g.is_empty());
    out
}

fn paren_depth(toks: &[Token]) -> i64 {
    toks.iter()
        .map(|t| match t.tok {
            Tok::LParen => 1,
            Tok::RParen => -1,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Source;
    use crate::lifetimes::check_lifetimes;

    fn read(s: &str) -> (MirFile, Vec<String>) {
        let (f, ds) = parse_mir(s);
        let src = Source::new("t.mir", s);
        (f, ds.iter().map(|d| src.render(d)).collect())
    }

    fn line_col(s: &str, d: &Diagnostic) -> (usize, usize) {
        Source::new("t.mir", s).line_col(d.span.start)
    }

    const TWO: &str = "--- |\n  define void @f() {\n    ret void\n  }\n  !1 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpReferrer(i32)))\n  !2 = !DILocalVariable(name: \"x\")\n...\n---\nname: f\nbody: |\n  bb.0:\n    successors: %bb.1, %bb.2\n    S_CBRANCH_SCC1 %bb.2, implicit undef $scc\n  bb.1:\n    DBG_DEF !1, $vgpr0\n    S_BRANCH %bb.3\n  bb.2:\n    DBG_DEF !1, $vgpr0\n  bb.3:\n    DBG_KILL !1\n    SI_RETURN\n...\n---\nname: g\nbody: |\n  bb.0:\n    DBG_VALUE $sgpr0_sgpr1, $noreg, !2, !DIExpression(DIOpArg(0, i64))\n    SI_RETURN\n...\n";

    #[test]
    fn every_document_is_read_and_each_machine_function_is_its_own() {
        let (f, ds) = read(TWO);
        assert!(ds.is_empty(), "{ds:?}");
        assert_eq!(f.machine_functions, vec![1, 2]);
        let m = &f.module;
        assert_eq!(m.functions[1].name, "f");
        assert_eq!(m.functions[2].name, "g");
        let succs: Vec<Vec<usize>> = m.functions[1]
            .blocks
            .iter()
            .map(|b| b.succs.clone())
            .collect();
        // bb.1 ends in S_BRANCH (no fall-through); bb.2 falls through to bb.3.
        assert_eq!(succs, vec![vec![1, 2], vec![3], vec![3], vec![]]);
        assert_eq!(f.target.as_deref(), Some("amdgcn"));
        // A lifetime defined in two blocks of one machine function is accepted.
        assert!(check_lifetimes(m).is_empty(), "{:?}", check_lifetimes(m));
        // The record's operand is the 64-bit register pair.
        let (_, inst) = m.insts().find(|(r, _)| r.function == 2).unwrap();
        let InstKind::DbgRecord(r) = &inst.kind else {
            panic!("{inst:?}")
        };
        let ops = r.location.operands();
        assert_eq!(ops[0].value, Value::Reg("sgpr0_sgpr1".into()));
        assert_eq!(f.operand_bits.get(&ops[0].span.start), Some(&64));
        assert!(m.resolve_expr(&r.expr).is_some());
    }

    #[test]
    fn a_kill_in_another_machine_function_is_not_reached() {
        let s = TWO.replace(
            "    DBG_VALUE $sgpr0_sgpr1",
            "    DBG_KILL !1\n    DBG_VALUE $sgpr0_sgpr1",
        );
        let (f, ds) = read(&s);
        assert!(ds.is_empty(), "{ds:?}");
        let l = check_lifetimes(&f.module);
        assert_eq!(l.len(), 1, "{l:?}");
        assert!(
            l[0].message.contains("DBG_KILL of !1 is not reachable"),
            "{l:?}"
        );
    }

    #[test]
    fn operand_widths() {
        let pb = |a: u32| if a == 5 { 32 } else { 64 };
        assert_eq!(physical_register_bits("vgpr0"), Some(32));
        assert_eq!(physical_register_bits("vgpr4_vgpr5_vgpr6"), Some(96));
        assert_eq!(physical_register_bits("sgpr42_lo16"), Some(16));
        assert_eq!(physical_register_bits("vcc"), Some(64));
        assert_eq!(physical_register_bits("exec_lo"), Some(32));
        assert_eq!(physical_register_bits("rbp"), Some(64));
        assert_eq!(physical_register_bits("r9d"), Some(32));
        assert_eq!(physical_register_bits("private_rsrc_reg"), None);
        assert_eq!(class_bits("vgpr_32", &pb), Some(32));
        assert_eq!(class_bits("vreg_64_align2", &pb), Some(64));
        assert_eq!(class_bits("sreg_32_xm0_xexec", &pb), Some(32));
        assert_eq!(class_bits("vreg_1", &pb), Some(1));
        assert_eq!(class_bits("gr64", &pb), Some(64));
        assert_eq!(class_bits("_(p5)", &pb), Some(32));
        assert_eq!(class_bits("_(<2 x s16>)", &pb), Some(32));
        assert_eq!(class_bits("ccr", &pb), None);
        assert_eq!(subreg_bits("sub0_sub1"), Some(64));
        assert_eq!(subreg_bits("lo16"), Some(16));
    }

    #[test]
    fn instruction_references_take_the_width_of_the_defined_register() {
        let s = "---\nname: f\nbody: |\n  bb.0:\n    DBG_INSTR_REF !1, !DIExpression(DIOpArg(0, i32), DIOpArg(1, i64), DIOpComposite(2, i96)), dbg-instr-ref(1, 0), dbg-instr-ref(2, 0)\n    $vgpr0 = V_MOV_B32_e32 0, implicit $exec, debug-instr-number 1\n    DBG_PHI $sgpr4_sgpr5, 2\n    SI_RETURN\n...\n";
        let (f, ds) = read(s);
        assert!(ds.is_empty(), "{ds:?}");
        let inst = &f.module.functions[0].blocks[0].insts[0];
        let InstKind::DbgRecord(r) = &inst.kind else {
            panic!()
        };
        let bits: Vec<Option<u64>> = r
            .location
            .operands()
            .iter()
            .map(|o| f.operand_bits.get(&o.span.start).copied())
            .collect();
        assert_eq!(bits, vec![Some(32), Some(64)]);
        let (_, ds) = read(&s.replace("debug-instr-number 1", ""));
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert!(
            ds[0].contains("no instruction of machine function `f` has `debug-instr-number 1`"),
            "{ds:?}"
        );
    }

    #[test]
    fn bad_mir_gets_a_caret_at_the_fault() {
        // An unclosed flow mapping.
        let s = "---\nname: f\nregisters:\n  - { id: 0, class: vgpr_32\nbody: |\n  bb.0:\n    SI_RETURN\n...\n";
        let (_, ds) = parse_mir(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(line_col(s, &ds[0]), (4, 5));
        assert!(ds[0].message.contains("this `{` is never closed"), "{ds:?}");
        // A tab in the indentation.
        let s = "---\nname: f\nbody: |\n  bb.0:\n\tSI_RETURN\n...\n";
        let (_, ds) = parse_mir(s);
        assert!(!ds.is_empty());
        assert!(ds.iter().any(|d| d.message.contains("tab")), "{ds:?}");
        // A mapping line without `:`.
        let s = "---\nname: f\nthis is not yaml\nbody: |\n  bb.0:\n    SI_RETURN\n...\n";
        let (_, ds) = parse_mir(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(line_col(s, &ds[0]), (3, 1));
        // An unknown instruction, at its name.
        let s = "---\nname: f\nbody: |\n  bb.0:\n    $vgpr1 = v_mov_b32 $vgpr0\n    DBG_VALUES $vgpr0, $noreg, !1, !DIExpression(DIOpArg(0, i32))\n    SI_RETURN\n...\n";
        let (_, ds) = parse_mir(s);
        assert_eq!(ds.len(), 2, "{ds:?}");
        assert_eq!(line_col(s, &ds[0]), (5, 14));
        assert_eq!(
            ds[0].message,
            "unknown machine instruction name `v_mov_b32`"
        );
        assert_eq!(line_col(s, &ds[1]), (6, 5));
        // A virtual register without a class, at its first use.
        let s = "---\nname: f\nregisters:\n  - { id: 0, class: vgpr_32 }\nbody: |\n  bb.0:\n    %0 = COPY $vgpr0\n    %1 = COPY %0\n    %2:vgpr_32 = COPY %1\n    SI_RETURN\n...\n";
        let (_, ds) = parse_mir(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(line_col(s, &ds[0]), (8, 5));
        assert!(
            ds[0]
                .message
                .contains("virtual register `%1` has no register class"),
            "{ds:?}"
        );
        // Two blocks of one number.
        let s = "---\nname: f\nbody: |\n  bb.0:\n    S_NOP 0\n  bb.0:\n    SI_RETURN\n...\n";
        let (_, ds) = parse_mir(s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(line_col(s, &ds[0]), (6, 3));
    }

    #[test]
    fn the_ir_document_keeps_the_files_lines() {
        let s = "# RUN: llc\n--- |\n  define void @f() {\n    #dbg_value(i32 0, !1, !DIExpression(DIOpArg(0, i32)), !2)\n    ret void\n  }\n  !1 = !DILocalVariable(name: \"x\")\n  !2 = !DIFrob(\n...\n";
        let (f, ds) = parse_mir(s);
        assert!(!ds.is_empty());
        assert_eq!(line_col(s, &ds[0]).0, 8, "{ds:?}");
        assert_eq!(f.module.functions.len(), 1);
        assert!(is_mir(s));
        assert!(!is_mir("define void @f() {\n}\n"));
    }

    #[test]
    fn no_input_panics() {
        for s in [
            "", "---", "--- |", "---\n- a\n- b\n", "---\nname:\n", "---\nname: f\nbody: 3\n",
            "---\nname: f\nbody: |\n  DBG_VALUE\n", "---\nname: f\nbody: |\n  bb.x:\n",
            "---\nname: f\nbody: |\n  bb.0:\n    DBG_VALUE $vgpr0, $noreg, !1, !DIExpression(DIOpArg(\n",
            "---\nname: f\nregisters: [ { id: 0 }, { ]\n", "---\n{ a: 'b\n", "...\n...\n",
            "---\nname: f\nstack:\n  - { id: x }\nbody: |\n  bb.0:\n    DBG_VALUE %stack.9, $noreg, !1, !DIExpression()\n",
        ] {
            let _ = parse_mir(s);
        }
        let deep = format!("---\nname: f\nx: {}{}\n", "[".repeat(200), "]".repeat(200));
        let (_, ds) = parse_mir(&deep);
        assert!(
            ds.iter().any(|d| d.message.contains("levels deep")),
            "{ds:?}"
        );
    }
}
