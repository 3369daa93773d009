//! Printing an [`ir::Module`](crate::ir::Module) back to IR text.
//!
//! The parts diopter interprets print canonically (metadata nodes it knows,
//! DIOp expressions, debug instructions); everything else prints as the text
//! it was read as. Comments are not kept. `print(parse(x))` is a fixpoint:
//! printing the re-parsed output gives the same text, and re-parsing gives an
//! equal module.

use super::printer::{escape_string, print_expr, print_local_name};
use crate::ir::*;
use std::fmt::Write;

/// The whole module as IR text.
pub fn print_module(m: &Module) -> String {
    let mut out = String::new();
    let mut prev: Option<u8> = None;
    for item in &m.items {
        let cat = category(item);
        // A blank line between groups of items and around functions.
        if prev.is_some_and(|p| p != cat || cat == 4) {
            out.push('\n');
        }
        prev = Some(cat);
        match item {
            Item::Datalayout => {
                if let Some((dl, _)) = &m.datalayout {
                    let _ = writeln!(out, "target datalayout = \"{}\"", escape_string(&dl.text));
                }
            }
            Item::TypeDef(name) => {
                let body = match m.types.named.get(name) {
                    Some(Some(t)) => t.to_string(),
                    _ => "opaque".to_string(),
                };
                let _ = writeln!(out, "%{} = type {body}", print_local_name(name));
            }
            Item::Global(i) => {
                if let Some(g) = m.globals.get(*i) {
                    out.push_str(&print_global(g));
                    out.push('\n');
                }
            }
            Item::Function(i) => {
                if let Some(f) = m.functions.get(*i) {
                    out.push_str(&print_function(f));
                }
            }
            Item::TopLevel { block, inst } => {
                let b = m.implicit_function().and_then(|f| f.blocks.get(*block));
                match (b, inst) {
                    (Some(b), None) => {
                        if let Some(l) = &b.label {
                            let _ = writeln!(out, "{}:", print_label(l));
                        }
                    }
                    (Some(b), Some(i)) => {
                        if let Some(i) = b.insts.get(*i) {
                            out.push_str(&print_inst(i));
                            out.push('\n');
                        }
                    }
                    _ => {}
                }
            }
            Item::NamedMd(i) => {
                if let Some(n) = m.named_metadata.get(*i) {
                    let _ = writeln!(out, "!{} = !{{{}}}", n.name, print_list(&n.items));
                }
            }
            Item::Metadata(id) => {
                if let Some(n) = m.metadata.get(id) {
                    out.push_str(&print_md_node(n));
                    out.push('\n');
                }
            }
            Item::Opaque { text, .. } => {
                out.push_str(text);
                out.push('\n');
            }
        }
    }
    out
}

fn category(item: &Item) -> u8 {
    match item {
        Item::Datalayout | Item::Opaque { .. } => 0,
        Item::TypeDef(_) => 1,
        Item::Global(_) => 2,
        Item::TopLevel { .. } => 3,
        Item::Function(_) => 4,
        Item::NamedMd(_) | Item::Metadata(_) => 5,
    }
}

pub fn print_global(g: &Global) -> String {
    let mut s = format!("@{} = {}", print_local_name(&g.name), g.body);
    for (k, id) in &g.attachments {
        if g.comma {
            s.push_str(", ");
        } else if !g.body.is_empty() {
            s.push(' ');
        }
        let _ = write!(s, "!{k} !{id}");
    }
    s
}

/// A function with its trailing newline. The implicit function's
/// instructions print without indentation and without a `define` around
/// them ([`print_module`] prints them one by one, in file order).
pub fn print_function(f: &Function) -> String {
    let mut s = String::new();
    let indent = if f.implicit { "" } else { "  " };
    if let Some(h) = &f.header {
        let _ = writeln!(s, "{h} {{");
    }
    for (i, b) in f.blocks.iter().enumerate() {
        if let Some(l) = &b.label {
            if i > 0 {
                s.push('\n');
            }
            let _ = writeln!(s, "{}:", print_label(l));
        }
        for i in &b.insts {
            let _ = writeln!(s, "{indent}{}", print_inst(i));
        }
    }
    if f.header.is_some() {
        s.push_str("}\n");
    }
    s
}

fn print_label(l: &str) -> String {
    if !l.is_empty()
        && l.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-'))
        && !l.starts_with('-')
    {
        l.to_string()
    } else {
        format!("\"{}\"", escape_string(l))
    }
}

pub fn print_inst(i: &Inst) -> String {
    match &i.kind {
        InstKind::DbgDef {
            lifetime,
            referrer,
            form,
        } => match form {
            Form::Mir { trailer } => {
                format!("DBG_DEF !{lifetime}, {}{trailer}", print_operand(referrer))
            }
            Form::Call { prefix, trailer } => {
                format!(
                    "{prefix}(metadata !{lifetime}, metadata {}){trailer}",
                    print_operand(referrer)
                )
            }
            Form::Record { trailer } => format!(
                "call void @llvm.dbg.def(metadata !{lifetime}, metadata {}){trailer}",
                print_operand(referrer)
            ),
        },
        InstKind::DbgKill { lifetime, form } => match form {
            Form::Mir { trailer } => format!("DBG_KILL !{lifetime}{trailer}"),
            Form::Call { prefix, trailer } => format!("{prefix}(metadata !{lifetime}){trailer}"),
            Form::Record { trailer } => {
                format!("call void @llvm.dbg.kill(metadata !{lifetime}){trailer}")
            }
        },
        InstKind::DbgRecord(r) => print_record(r),
        InstKind::Branch { .. } | InstKind::Exit | InstKind::Opaque => i.text.clone(),
    }
}

fn print_record(r: &DbgRecord) -> String {
    match &r.form {
        Form::Call { prefix, trailer } => {
            let mut args = vec![
                print_location(&r.location),
                print_value(&r.variable),
                print_value(&r.expr),
            ];
            if let Some(a) = &r.assign {
                args.extend([
                    print_value(&a.id),
                    print_location(&a.address),
                    print_value(&a.address_expr),
                ]);
            }
            let args: Vec<String> = args.into_iter().map(|a| format!("metadata {a}")).collect();
            format!("{prefix}({}){trailer}", args.join(", "))
        }
        Form::Record { trailer } | Form::Mir { trailer } => {
            let mut args = vec![
                print_location(&r.location),
                print_value(&r.variable),
                print_value(&r.expr),
            ];
            if let Some(a) = &r.assign {
                args.extend([
                    print_value(&a.id),
                    print_location(&a.address),
                    print_value(&a.address_expr),
                ]);
            }
            if let Some(l) = &r.dbg_loc {
                args.push(print_value(l));
            }
            format!("#dbg_{}({}){trailer}", r.kind.name(), args.join(", "))
        }
    }
}

pub fn print_location(l: &DbgLocation) -> String {
    match l {
        DbgLocation::Value(o) => print_operand(o),
        DbgLocation::ArgList(os) => {
            let v: Vec<String> = os.iter().map(print_operand).collect();
            format!("!DIArgList({})", v.join(", "))
        }
        DbgLocation::Md(v) => print_value(v),
    }
}

pub fn print_operand(o: &Operand) -> String {
    match &o.ty {
        Some(t) => format!("{t} {}", print_ir_value(&o.value)),
        None => print_ir_value(&o.value),
    }
}

pub fn print_ir_value(v: &Value) -> String {
    match v {
        Value::Local(n) => format!("%{}", print_local_name(n)),
        Value::Global(n) => format!("@{}", print_local_name(n)),
        Value::Reg(n) => format!("${n}"),
        Value::Undef => "undef".into(),
        Value::Poison => "poison".into(),
        Value::Const(s) => s.clone(),
    }
}

/// `!N = [distinct ]VALUE`, without a newline.
pub fn print_md_node(n: &MdNode) -> String {
    format!(
        "!{} = {}{}",
        n.id,
        if n.distinct { "distinct " } else { "" },
        print_value(&n.value)
    )
}

fn print_list(vs: &[MdValue]) -> String {
    vs.iter().map(print_value).collect::<Vec<_>>().join(", ")
}

pub fn print_value(v: &MdValue) -> String {
    match v {
        MdValue::Ref(n) => format!("!{n}"),
        MdValue::MdString(s) => format!("!\"{}\"", escape_string(s)),
        MdValue::Str(s) => format!("\"{}\"", escape_string(s)),
        MdValue::Num(s) | MdValue::Ident(s) | MdValue::Raw(s) => s.clone(),
        MdValue::Flags(fs) => fs.join(" | "),
        MdValue::Tuple(vs) => format!("!{{{}}}", print_list(vs)),
        MdValue::Braces(vs) => format!("{{{}}}", print_list(vs)),
        MdValue::Node(n) => print_node(n),
        MdValue::Expr(e) => print_expr(e),
        MdValue::Ellipsis => "...".into(),
    }
}

/// Known nodes canonically, others as written.
pub fn print_node(n: &Node) -> String {
    if !n.is_known() {
        return n.raw.clone();
    }
    let fields: Vec<String> = n
        .fields
        .iter()
        .map(|f| match &f.key {
            Some(k) => format!("{k}: {}", print_value(&f.value)),
            None => print_value(&f.value),
        })
        .collect();
    format!("!{}({})", n.name, fields.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::module::parse_module;

    fn reprint(s: &str) -> String {
        let (m, ds) = parse_module(s);
        assert!(ds.is_empty(), "{ds:?}");
        let p = print_module(&m);
        let (m2, _) = parse_module(&p);
        assert_eq!(m, m2, "{p}");
        assert_eq!(print_module(&m2), p);
        p
    }

    #[test]
    fn known_nodes_print_canonically_others_as_written() {
        let p = reprint(
            "!1 = !DILocalVariable(\"x\", ...)\n\
             !2 = distinct !DILifetime(object:!1,location:!DIExpr(DIOpReferrer( i64 addrspace(5)* ),DIOpDeref()) , argObjects: {  })\n\
             !3 = !DILocation(line:  4, column: 1, scope: !4)\n\
             !4 = distinct !DISubprogram(name: \"f\",\n    unit: !5)\n\
             !5 = !DIExpression(DW_OP_plus_uconst,  4)\n\
             !6 = !DIExpression(DIOpArg(0, ptr),DIOpDeref(i32))\n",
        );
        assert_eq!(
            p,
            "!1 = !DILocalVariable(name: \"x\", ...)\n\
             !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref()), argObjects: {})\n\
             !3 = !DILocation(line:  4, column: 1, scope: !4)\n\
             !4 = distinct !DISubprogram(name: \"f\",\n    unit: !5)\n\
             !5 = !DIExpression(DW_OP_plus_uconst,  4)\n\
             !6 = !DIExpression(DIOpArg(0, ptr), DIOpDeref(i32))\n"
        );
    }

    #[test]
    fn instructions_keep_their_text_debug_instructions_print_canonically() {
        let p = reprint(
            "define void @f() {\nentry:\n  %x = add   i32 1, 2 ; sum\n  call void @llvm.dbg.def(metadata   !2, metadata i32   %x), !dbg !7\n  DBG_DEF !2,$r0\n  #dbg_value(i32   %x, !1, !DIExpression(DIOpArg(0,i32)), !7)\n  br label %exit\nexit:\n  ret void\n}\n",
        );
        assert_eq!(
            p,
            "define void @f() {\nentry:\n  %x = add   i32 1, 2\n  call void @llvm.dbg.def(metadata !2, metadata i32 %x), !dbg !7\n  DBG_DEF !2, $r0\n  #dbg_value(i32 %x, !1, !DIExpression(DIOpArg(0, i32)), !7)\n  br label %exit\n\nexit:\n  ret void\n}\n"
        );
    }

    #[test]
    fn items_keep_their_order_in_groups() {
        let p = reprint("!1 = distinct !DIFragment()\nDBG_KILL !1\n@g = i32 !dbg.default !1\n%t = type { i8 }\n!llvm.dbg.cu = !{!1}\n");
        assert_eq!(
            p,
            "!1 = distinct !DIFragment()\n\nDBG_KILL !1\n\n@g = i32 !dbg.default !1\n\n%t = type { i8 }\n\n!llvm.dbg.cu = !{!1}\n"
        );
    }

    #[test]
    fn names_that_need_quotes() {
        let p = reprint("@\"a b\" = global i32 0\ncall void @llvm.dbg.def(metadata !1, metadata ptr %\"x y\")\n");
        assert!(p.contains("@\"a b\" = global i32 0\n"), "{p}");
        assert!(p.contains("metadata ptr %\"x y\")"), "{p}");
    }
}
