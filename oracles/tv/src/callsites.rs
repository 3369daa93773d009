//! What a function's callers pass: a parameter of a function with local
//! linkage (`internal`, `private`) whose every use in the module is a direct
//! call takes only the values those calls pass. Interprocedural passes
//! (IPSCCP, argument promotion) rely on it, and a record they rewrite with
//! that knowledge is right wherever the function can run.
//!
//! Only integer constants are read: a parameter some caller passes anything
//! else to (or a function whose address is taken, or that another module
//! could call) gets no fact; fewer facts only make the check stricter.

use diopter_semantics::ir::{Function, Module};
use diopter_semantics::syntax::lexer::{lex, Tok};
use std::collections::BTreeMap;

/// For each parameter (by position) of `f` that every caller passes an
/// integer constant to, the constants as written (`100`, `-1`, `true`).
/// Empty unless `f` has local linkage and is only ever called directly.
pub fn constant_args(m: &Module, f: &Function) -> BTreeMap<usize, Vec<String>> {
    let mut out: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let local = f.header.as_deref().is_some_and(|h| {
        let mut w = h.split_whitespace();
        w.next() == Some("define") && matches!(w.next(), Some("internal" | "private"))
    });
    if !local {
        return out;
    }
    if m.globals.iter().any(|g| mentions(&g.body, &f.name)) {
        return out;
    }
    let mut unknown = std::collections::BTreeSet::new();
    let mut calls = 0usize;
    for g in &m.functions {
        for b in &g.blocks {
            for i in &b.insts {
                if !mentions(&i.text, &f.name) {
                    continue;
                }
                let Some(args) = direct_call_args(&i.text, &f.name) else {
                    // Address taken (stored, passed, compared): any caller.
                    return BTreeMap::new();
                };
                calls += 1;
                for (k, a) in args.into_iter().enumerate() {
                    match a {
                        Some(c) => {
                            let v = out.entry(k).or_default();
                            if !v.contains(&c) {
                                v.push(c);
                            }
                        }
                        None => {
                            unknown.insert(k);
                        }
                    }
                }
            }
        }
    }
    if calls == 0 {
        return BTreeMap::new();
    }
    out.retain(|k, _| !unknown.contains(k));
    out
}

fn mentions(text: &str, name: &str) -> bool {
    lex(text, 0, text.len())
        .iter()
        .any(|t| matches!(&t.tok, Tok::Global(g) if g == name))
}

/// The arguments of `text` if it is a direct `call`/`invoke` of `@name`
/// and mentions `@name` nowhere else: each an integer constant as written,
/// or `None`.
fn direct_call_args(text: &str, name: &str) -> Option<Vec<Option<String>>> {
    let toks = lex(text, 0, text.len());
    if !toks
        .iter()
        .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "call" || w == "invoke"))
    {
        return None;
    }
    let at: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(&t.tok, Tok::Global(g) if g == name))
        .map(|(k, _)| k)
        .collect();
    let [g] = at[..] else {
        return None;
    };
    if !matches!(toks.get(g + 1).map(|t| &t.tok), Some(Tok::LParen)) {
        return None;
    }
    let mut args = Vec::new();
    let mut last: Option<&Tok> = None;
    let mut depth = 0i32;
    for t in &toks[g + 2..] {
        match &t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Lt => depth += 1,
            Tok::RParen if depth == 0 => {
                if let Some(l) = last {
                    args.push(constant(l));
                }
                return Some(args);
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Gt => depth -= 1,
            Tok::Comma if depth == 0 => {
                args.push(last.and_then(constant));
                last = None;
                continue;
            }
            _ => {}
        }
        if depth == 0 {
            last = Some(&t.tok);
        }
    }
    None
}

fn constant(t: &Tok) -> Option<String> {
    match t {
        Tok::Int(v) => Some(v.clone()),
        Tok::Ident(w) if w == "true" || w == "false" => Some(w.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_semantics::syntax::module::parse_module;

    fn args_of(text: &str, f: &str) -> BTreeMap<usize, Vec<String>> {
        let (m, _) = parse_module(text);
        let g = m.functions.iter().find(|g| g.name == f).expect("function");
        constant_args(&m, g)
    }

    #[test]
    fn an_internal_function_called_with_constants_takes_only_those() {
        let t = "define internal i1 @f(i32 %x, i32 %y) {\nentry:\n  ret i1 true\n}\ndefine i1 @g(i32 %z) {\nentry:\n  %a = call i1 @f(i32 100, i32 %z)\n  %b = tail call i1 @f(i32 noundef -3, i32 7), !dbg !4\n  ret i1 %a\n}\n";
        let a = args_of(t, "f");
        assert_eq!(a.get(&0), Some(&vec!["100".to_string(), "-3".to_string()]));
        // %z: any value.
        assert_eq!(a.get(&1), None);
    }

    #[test]
    fn an_external_or_address_taken_function_takes_anything() {
        let ext = "define i1 @f(i32 %x) {\nentry:\n  ret i1 true\n}\ndefine i1 @g() {\nentry:\n  %a = call i1 @f(i32 1)\n  ret i1 %a\n}\n";
        assert!(args_of(ext, "f").is_empty());
        let taken = "define internal i1 @f(i32 %x) {\nentry:\n  ret i1 true\n}\ndefine ptr @g() {\nentry:\n  %a = call i1 @f(i32 1)\n  ret ptr @f\n}\n";
        assert!(args_of(taken, "f").is_empty());
        let passed = "define internal i1 @f(i32 %x) {\nentry:\n  ret i1 true\n}\ndefine void @g() {\nentry:\n  %a = call i1 @f(i32 1)\n  call void @h(ptr @f)\n  ret void\n}\n";
        assert!(args_of(passed, "f").is_empty());
        let uncalled = "define internal i1 @f(i32 %x) {\nentry:\n  ret i1 true\n}\n";
        assert!(args_of(uncalled, "f").is_empty());
    }
}
