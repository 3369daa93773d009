//! What the control flow says at a record: the conditions of the branches
//! every path to it took.
//!
//! A record is only ever observed on a path through it, and the variable
//! location it opens lasts until the next record of the variable (where
//! paths join, a debugger's location list keeps it only if every incoming
//! path agrees, so every path to a point it covers went through the record).
//! SSA values do not change once defined, so a branch condition that held
//! on the way to the record still holds wherever the record is shown.
//! Passes rely on exactly these facts (SCCP's and correlated-propagation's
//! rewrites inside a block that a range check guards), and a record they
//! rewrite is right if it shows the same value wherever it can be seen.
//!
//! Only the chain of unique predecessors is walked: a block with one
//! predecessor is entered only along that edge, so the edge's condition
//! (`br i1 %c` taken true or false, a `switch` case or its default) holds in
//! it. A block with several predecessors ends the walk; fewer facts only make
//! the check stricter.
//!
//! `call void @llvm.assume(i1 %c)` is a fact of the same kind: the program
//! is undefined when `%c` is false there (LangRef), so every path that goes
//! on past the call has `%c` true. The assumptions counted are those before
//! the record in its own block, those after it that nothing between can keep
//! from running (no other call, no terminator: an execution that reaches
//! `assume(false)` is undefined as a whole, so InstCombine may fold a value
//! recorded just before its assumption), and those anywhere in the blocks of
//! the chain (each of them runs whole before the edge out of it is taken).

use diopter_semantics::ir::{Function, InstKind};

/// One condition known to hold at a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The compared value's integer width (`i1` for a `br`).
    pub width: u64,
    /// Its local name, without `%`.
    pub name: String,
    /// The constant it equals (`true` for holding) or, with `equal` false,
    /// differs from, as written (`true`, `false`, `-3`).
    pub constant: String,
    pub equal: bool,
}

/// The facts that hold at byte offset `at` of `f`'s text (a record's
/// position), from the branches on the way to its block.
pub fn facts_at(f: &Function, at: usize) -> Vec<Fact> {
    // The block of the last instruction that starts at or before `at`.
    let Some(mut here) = f
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(k, b)| b.insts.iter().map(move |i| (i.span.0.start, k)))
        .filter(|(start, _)| *start <= at)
        .max()
        .map(|(_, k)| k)
    else {
        return Vec::new();
    };
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); f.blocks.len()];
    for (p, b) in f.blocks.iter().enumerate() {
        for &s in &b.succs {
            if s < preds.len() && !preds[s].contains(&p) {
                preds[s].push(p);
            }
        }
    }
    let mut out: Vec<Fact> = Vec::new();
    for i in &f.blocks[here].insts {
        // Past the record, an assumption still holds where the record is
        // seen if nothing between can keep it from being reached: an
        // execution that reaches `assume(false)` is undefined as a whole.
        // Any other call (it may not return) or the terminator ends that.
        if i.span.0.start > at && !i.text.contains("@llvm.assume(") && may_stop(&i.text) {
            break;
        }
        out.extend(assumed(&i.text));
    }
    let mut seen = vec![false; f.blocks.len()];
    seen[here] = true;
    while let [p] = preds[here][..] {
        if seen[p] {
            break;
        }
        seen[p] = true;
        out.extend(f.blocks[p].insts.iter().filter_map(|i| assumed(&i.text)));
        let Some(label) = f.blocks[here].label.as_deref() else {
            break;
        };
        if let Some(term) = f.blocks[p]
            .insts
            .iter()
            .rev()
            .find(|i| i.kind.is_terminator())
        {
            if let InstKind::Branch { targets } = &term.kind {
                out.extend(edge_facts(&term.text, targets, label));
            }
        }
        here = p;
    }
    out
}

/// The facts of taking the edge to `label` out of the terminator `text`
/// (whose targets, in order, are `targets`).
fn edge_facts(text: &str, targets: &[String], label: &str) -> Vec<Fact> {
    let t = text.trim();
    let hits = targets.iter().filter(|x| x.as_str() == label).count();
    if hits != 1 {
        // Both ways lead here (or none does): the edge says nothing.
        return Vec::new();
    }
    if let Some(rest) = t.strip_prefix("br ") {
        // br i1 %c, label %T, label %F
        let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
        let (Some(cond), [_, _]) = (parts.first(), targets) else {
            return Vec::new();
        };
        let Some(name) = local(cond.strip_prefix("i1 ").unwrap_or("")) else {
            return Vec::new();
        };
        let taken = targets[0] == label;
        return vec![Fact {
            width: 1,
            name,
            constant: if taken { "true" } else { "false" }.into(),
            equal: true,
        }];
    }
    if let Some(rest) = t.strip_prefix("switch ") {
        // switch iN %v, label %D [ iN k, label %L ... ]
        let Some((head, cases)) = rest.split_once('[') else {
            return Vec::new();
        };
        let mut head = head.split(',').next().unwrap_or("").split_whitespace();
        let (Some(ty), Some(v)) = (head.next(), head.next()) else {
            return Vec::new();
        };
        let (Some(width), Some(name)) =
            (ty.strip_prefix('i').and_then(|w| w.parse().ok()), local(v))
        else {
            return Vec::new();
        };
        // `iN k, label %L` arms, however they are laid out over lines.
        let table = cases.split(']').next().unwrap_or("");
        let toks: Vec<&str> = table
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if !toks.len().is_multiple_of(4) {
            return Vec::new();
        }
        let arms: Vec<(String, String)> = toks
            .chunks(4)
            .map(|a| {
                (
                    a[1].to_string(),
                    a[3].trim_start_matches('%').trim_matches('"').to_string(),
                )
            })
            .collect();
        if targets.first().map(String::as_str) == Some(label) {
            return arms
                .into_iter()
                .map(|(k, _)| Fact {
                    width,
                    name: name.clone(),
                    constant: k,
                    equal: false,
                })
                .collect();
        }
        return arms
            .into_iter()
            .filter(|(_, d)| d == label)
            .map(|(k, _)| Fact {
                width,
                name: name.clone(),
                constant: k,
                equal: true,
            })
            .collect();
    }
    Vec::new()
}

/// The fact of a `call void @llvm.assume(i1 %c)` (with or without `tail`,
/// operand bundles, attributes); `None` for any other instruction and for
/// an assumption of a constant.
fn assumed(text: &str) -> Option<Fact> {
    let (_, args) = text.split_once("@llvm.assume(")?;
    let arg = args.split([')', ',']).next()?;
    let name = local(arg.trim().strip_prefix("i1 ")?)?;
    Some(Fact {
        width: 1,
        name,
        constant: "true".into(),
        equal: true,
    })
}

/// Whether an instruction may keep the ones after it from running: a call
/// (other than the assumption intrinsic) may not return, an `invoke` or a
/// terminator leaves the block.
fn may_stop(text: &str) -> bool {
    let t = text.trim_start();
    let body = t.split_once(" = ").map_or(t, |(_, r)| r).trim_start();
    let op = body
        .split_whitespace()
        .find(|w| !matches!(*w, "tail" | "musttail" | "notail"))
        .unwrap_or("");
    matches!(
        op,
        "call"
            | "invoke"
            | "callbr"
            | "ret"
            | "br"
            | "switch"
            | "indirectbr"
            | "resume"
            | "unreachable"
            | "catchswitch"
            | "catchret"
            | "cleanupret"
    )
}

/// `%name` as a name; `None` for a constant.
fn local(v: &str) -> Option<String> {
    let n = v.trim().strip_prefix('%')?;
    Some(n.trim_matches('"').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_semantics::syntax::module::parse_module;

    fn facts(text: &str, marker: &str) -> Vec<(String, String, bool)> {
        let (m, _) = parse_module(text);
        let f = m
            .functions
            .iter()
            .find(|f| !f.implicit)
            .expect("a function");
        let at = text.find(marker).expect("marker");
        facts_at(f, at)
            .into_iter()
            .map(|f| (f.name, f.constant, f.equal))
            .collect()
    }

    const SWITCH: &str = "define i32 @f(i32 %k, i1 %c) {\nentry:\n  switch i32 %k, label %d [\n    i32 5, label %five\n    i32 9, label %nine\n  ], !dbg !4\nfive:\n  br i1 %c, label %t, label %e, !dbg !5\nt:\n  %x = add i32 %k, 1 ; T\n  ret i32 %x\ne:\n  ret i32 0 ; E\nnine:\n  ret i32 9 ; NINE\nd:\n  ret i32 1 ; D\n}\n";

    #[test]
    fn a_chain_of_unique_predecessors_gives_each_edges_condition() {
        // t is reached from five when %c is true, five from entry when %k is 5.
        assert_eq!(
            facts(SWITCH, "; T"),
            vec![
                ("c".into(), "true".into(), true),
                ("k".into(), "5".into(), true)
            ]
        );
        assert_eq!(
            facts(SWITCH, "; E"),
            vec![
                ("c".into(), "false".into(), true),
                ("k".into(), "5".into(), true)
            ]
        );
        // The default edge: %k is none of the cases.
        assert_eq!(
            facts(SWITCH, "; D"),
            vec![
                ("k".into(), "5".into(), false),
                ("k".into(), "9".into(), false)
            ]
        );
    }

    #[test]
    fn a_join_or_a_branch_with_both_ways_alike_says_nothing() {
        let join = "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %j\na:\n  br label %j\nj:\n  ret i32 0 ; J\n}\n";
        assert!(facts(join, "; J").is_empty());
        let same = "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %a\na:\n  ret i32 0 ; A\n}\n";
        assert!(facts(same, "; A").is_empty());
        // A loop back to its own header: the header has two predecessors.
        let looped = "define i32 @f(i1 %c) {\nentry:\n  br label %h\nh:\n  br i1 %c, label %h, label %x\nx:\n  ret i32 0 ; X\n}\n";
        assert_eq!(
            facts(looped, "; X"),
            vec![("c".into(), "false".into(), true)]
        );
    }

    #[test]
    fn an_assumption_before_the_record_or_up_the_chain_is_a_fact() {
        let text = "define i8 @f(i8 %x, i8 %y, i1 %c) {\nentry:\n  %a = icmp sle i8 %x, 0\n  call void @llvm.assume(i1 %a)\n  br i1 %c, label %t, label %e\nt:\n  %q = sdiv i8 %x, %y ; Q\n  %b = icmp sge i8 %y, 0\n  tail call void @llvm.assume(i1 %b) [ \"nonnull\"(ptr null) ]\n  call void @llvm.assume(i1 true)\n  ret i8 %q ; R\ne:\n  ret i8 0\n}\n";
        // %b's assumption comes later in the block with nothing between
        // that could stop the run: it holds at %q too, as %a's (up the
        // chain) and the edge do.
        assert_eq!(
            facts(text, "; Q"),
            vec![
                ("b".into(), "true".into(), true),
                ("a".into(), "true".into(), true),
                ("c".into(), "true".into(), true)
            ]
        );
        // An assumption after the record counts while nothing between can
        // stop the run; a call between ends that.
        let later = "define i1 @g(i32 %b) {\nentry:\n  %c = icmp eq i32 %b, 0 ; C\n  %d = add i32 %b, 1\n  call void @llvm.assume(i1 %c)\n  call void @h()\n  %e = icmp ne i32 %b, 7\n  call void @llvm.assume(i1 %e)\n  ret i1 %c\n}\n";
        assert_eq!(facts(later, "; C"), vec![("c".into(), "true".into(), true)]);
        // After it, %b too; an assumption of a constant says nothing.
        assert_eq!(
            facts(text, "; R"),
            vec![
                ("b".into(), "true".into(), true),
                ("a".into(), "true".into(), true),
                ("c".into(), "true".into(), true)
            ]
        );
    }

    /// Every prefix of a module, every line doubled or dropped: the walk
    /// and the callers' scan read broken IR without panicking.
    #[test]
    fn broken_modules_never_panic() {
        let text = format!(
            "{SWITCH}define internal i32 @g(i32 %a) {{\nentry:\n  %r = call i32 @g(i32 7, i32 %a\n  ret i32 %r\n}}\n"
        );
        let lines: Vec<&str> = text.lines().collect();
        let mut variants: Vec<String> = (0..=text.len())
            .filter(|&k| text.is_char_boundary(k))
            .map(|k| text[..k].to_string())
            .collect();
        for k in 0..lines.len() {
            let mut dropped = lines.clone();
            dropped.remove(k);
            variants.push(dropped.join("\n"));
            let mut doubled = lines.clone();
            doubled.insert(k, lines[k]);
            variants.push(doubled.join("\n"));
        }
        for v in &variants {
            let (m, _) = parse_module(v);
            for f in &m.functions {
                for at in (0..v.len()).step_by(7) {
                    let _ = facts_at(f, at);
                }
                let _ = crate::callsites::constant_args(&m, f);
            }
        }
    }
}
