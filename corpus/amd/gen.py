#!/usr/bin/env python3
"""Generate diopter's one-line expression files from the AMD TSV data.

Usage:  python3 corpus/amd/gen.py          (from anywhere; paths are relative to this file)
        python3 corpus/amd/gen.py --check  (regenerate in memory, exit 1 if a file differs)

Inputs (copied verbatim from /work/shared/corpus/, described in README.md here):
    amd-expressions.tsv  amd-verifier.tsv  amd-rewrites.tsv  amd-dwarf.tsv
Outputs (overwritten; deterministic, no timestamps, so re-running gives identical bytes):
    expressions.expr  one line per amd-expressions.tsv row
    verifier.expr     one line per amd-verifier.tsv data row, with #! expect from the verdict
    rewrites.expr     before and after expression of every amd-rewrites.tsv row
                      (the after of a row whose after is DW_OP_LLVM_poisoned is skipped)
    dwarf.expr        the distinct (dialect, arg_types, expression) of amd-dwarf.tsv

One-line form written (see ../README.md):
    #! source: <repository path> (<tsv> row N)
    #! note: ...                     (zero or more)
    #! expect valid | #! expect invalid: <AMD verifier message> | #! parse-only
    <dialect> [<items>] [-> <variable type>] <ops>

Conventions, all decided here (every special case is in OVERRIDES with its reason):
  * arg_types are split at top-level commas only (target("amdgpu.debug.whole.vreg", i32, 32)
    is one type) and re-joined with ", ".  `-` -> `[]`, `?` -> `[?]` + parse-only.
  * diexpr rows whose expression uses DIOpReferrer: the arg_types column is the referrer's
    type -> `[referrer: T]`.  diexpression rows: DIOpReferrer is argument 0, items unchanged.
  * parse-only: `?` arguments; rows from llvm/test/Assembler/ and unit tests (parse-only
    tests such as a lone DIOpAdd()); rows naming a %type the README does not define
    (%struct.StructNBytes, %struct.S0, ...); the OVERRIDES marked parse-only.
  * Named types the README defines are written at the top of each file that uses them.
  * Data layout: expressions/rewrites/dwarf get the amdgcn-amd-amdhsa layout (most rows come
    from AMDGPU tests; ptr addrspace(3)/(5) are 32 bits, which the regalloc-fast spill rows
    need: DIOpArg(0, ptr addrspace(5)), DIOpReinterpret(i32)).  x86 rows use only `ptr`
    (64 bits in both layouts), except the one override below.  verifier.expr gets the x86-64
    layout written in llvm/test/DebugInfo/verify-diop-based-diexpression.ll.
Every generated expression line is checked against the one-line grammar before writing.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

AMDGPU_DATALAYOUT = (
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32"
    "-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256"
    "-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
)
# As written in llvm/test/DebugInfo/verify-diop-based-diexpression.ll (x86_64-unknown-linux-gnu).
X86_DATALAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

# README.md, "Named struct types used by expressions", in dependency order.
NAMED_TYPES = [
    ("%t", "{ i32, i32 }"),
    ("%u", "{ %t, i32 }"),
    ("%struct.S", "{ i32 }"),
    ("%struct.type", "{ ptr, ptr }"),
    ("%struct.OnlyInExpr", "{ ptr }"),
    ("%struct.A", "{ i32, i32 }"),
]
DEFINED = {name for name, _ in NAMED_TYPES}

SELECT_NOTE = ("AMD's verifier accepts this with the mask pushed first (deepest operand) and the two "
               "vectors above it; the rst's Select stack effect lists the mask on top (see DESIGN.md, Select)")
PTR_CONVERT_NOTE = ("DIOpConvert from a pointer to i32: kept by the SPIR-V round-trip test (not poisoned); "
                    "DESIGN.md's Convert rules do not list pointer->integer")

# (dialect, arg_types column, expression) -> (parse_only, note).  Applies in every file.
OVERRIDES = {
    ("diexpression", "i32", "DIOpArg(0, i64), DIOpFragment(2, 30)"): (
        True, "MIR row (heterogeneous-dwarf-diop-frags.mir): the operand $sgpr50 is a 32-bit register but "
              "DIOpArg says i64 (README: MIR arg types are register widths); the sizes differ, so parse-only"),
    ("diexpression", 'target("amdgpu.debug.whole.vreg", i32, 32)',
     'DIOpArg(0, target("amdgpu.debug.whole.vreg", i32, 32)), DIOpConstant(i32 8), DIOpByteOffset(i64)'): (
        True, "target extension type (whole VGPR, no lane focusing): its bit size is target-defined and "
              "not among diopter's types, so parse-only"),
    ("diexpression", "i8", "DIOpArg(0, i32)"): (
        True, "the operand is `i8 poison` in the source test (see verifier.expr, where it is valid); "
              "with a non-poison i8 operand the sizes differ, so parse-only here"),
    ("diexpression", "ptr addrspace(5)", "DIOpArg(0, %struct.OnlyInExpr), DIOpConvert(i32)"): (
        True, "after the SPIR-V round trip %struct.OnlyInExpr is { ptr addrspace(5) } (README), but this "
              "file defines the pre-round-trip { ptr } (64 bits vs the 32-bit operand), so parse-only"),
    ("diexpression", "ptr", "DIOpArg(0, %struct.OnlyInExpr), DIOpConvert(i32)"): (
        False, "DIOpConvert from a struct { ptr } to i32: kept by the SPIR-V round-trip test (not poisoned); "
               "the seed spec requires basic types for Convert, so diopter may disagree"),
    ("diexpr", "i1*", "DIOpReferrer(i1 addrspace(5)*), DIOpDeref(i1)"): (
        True, "x86 fast-isel test: referrer i1* vs DIOpReferrer(i1 addrspace(5)*) have equal sizes only "
              "under the x86 layout; this file uses the AMDGPU layout (addrspace(5) pointers are 32 bits), "
              "so parse-only"),
    ("diexpression", "ptr", "DIOpArg(0, ptr), DIOpConvert(i32), DIOpConstant(i32 10), DIOpAnd()"): (
        False, PTR_CONVERT_NOTE),
    ("diexpression", "ptr addrspace(5)",
     "DIOpArg(0, ptr addrspace(5)), DIOpConvert(i32), DIOpConstant(i32 10), DIOpAnd()"): (
        False, PTR_CONVERT_NOTE),
    ("diexpression", "i32",
     "DIOpArg(0, i32), DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpSelect()"): (
        False, SELECT_NOTE),
    ("diexpression", "ptr",
     "DIOpArg(0, ptr), DIOpDeref(i32), DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpSelect()"): (
        False, SELECT_NOTE),
}

OPEN = "([{<"
CLOSE = ")]}>"


def split_top(s, sep=","):
    """Split s at `sep` characters that are outside (), [], {}, <> and string quotes."""
    parts, depth, cur, quoted = [], 0, [], False
    for ch in s:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in OPEN:
            depth += 1
        elif not quoted and ch in CLOSE:
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced: %r" % s)
        if ch == sep and depth == 0 and not quoted:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth != 0 or quoted:
        raise ValueError("unbalanced: %r" % s)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def named_types_in(text):
    return re.findall(r"%[A-Za-z_.$][-A-Za-z0-9_.$]*", text)


def read_tsv(name, ncols):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != ncols:
                raise SystemExit("%s:%d: expected %d columns, got %d" % (name, lineno, ncols, len(cols)))
            rows.append((lineno, cols))
    return rows


def items_for(dialect, args, expr):
    if args == "?":
        return "[?]"
    if args == "-":
        return "[]"
    types = split_top(args)
    if any(not t for t in types):
        raise ValueError("empty type in %r" % args)
    if dialect == "diexpr" and "DIOpReferrer(" in expr:
        if len(types) != 1 or "DIOpArg(" in expr:
            raise ValueError("diexpr referrer row with several types or DIOpArg: %r" % expr)
        return "[referrer: %s]" % types[0]
    return "[%s]" % ", ".join(types)


def classify(dialect, args, expr, source):
    """Return (parse_only, notes) for one row."""
    parse_only, notes = False, []
    key = (dialect, args, expr)
    if args == "?":
        parse_only = True
        notes.append("argument types unknown (`?` in the TSV)")
    if source.startswith("llvm/test/Assembler/") or "unittest" in source:
        parse_only = True
        notes.append("from a parse-only test (Assembler or unit test); not meaningful on its own")
    undefined = sorted({t for t in named_types_in(args + " " + expr) if t not in DEFINED})
    if undefined:
        parse_only = True
        notes.append("uses %s, whose definition the README does not give" % ", ".join(undefined))
    if key in OVERRIDES:
        po, note = OVERRIDES[key]
        parse_only = parse_only or po
        notes.append(note)
    return parse_only, notes


EXPR_LINE = re.compile(r"^(diexpr|diexpression) \[(.*?)\](?: -> (.+?))? (DIOp.*)$")
OP = re.compile(r"^DIOp[A-Za-z]+\(.*\)$")


def check_line(line):
    """Validate one generated expression line against the one-line grammar."""
    m = EXPR_LINE.match(line)
    if not m:
        raise ValueError("bad line: %r" % line)
    items, vartype, ops = m.group(2), m.group(3), m.group(4)
    # The bracket must close at the first top-level ']' (types contain no ']' except arrays).
    if items not in ("", "?"):
        for it in split_top(items):
            if not it or it.endswith(","):
                raise ValueError("bad item in %r" % line)
    if vartype is not None and (not vartype or vartype.endswith(",")):
        raise ValueError("bad variable type in %r" % line)
    for op in split_top(ops):
        if not OP.match(op):
            raise ValueError("bad operation %r in %r" % (op, line))
        split_top(op)  # balanced
    if line != line.strip() or ops.rstrip().endswith(","):
        raise ValueError("trailing junk in %r" % line)
    return line


def expr_line(dialect, items, expr, vartype=None):
    line = "%s %s" % (dialect, items)
    if vartype is not None:
        line += " -> %s" % vartype
    line += " " + expr
    return check_line(line)


def header(title, layout, exprs_for_types, extra=()):
    out = ["# %s" % title,
           "# GENERATED by corpus/amd/gen.py from the TSV files in this directory; do not edit by hand.",
           "# Re-run: python3 corpus/amd/gen.py"]
    out += ["# " + e for e in extra]
    out.append("")
    if layout:
        out.append('target datalayout = "%s"' % layout)
    used = set()
    for text in exprs_for_types:
        used.update(named_types_in(text))
    # %u refers to %t: pull in dependencies.
    changed = True
    while changed:
        changed = False
        for name, body in NAMED_TYPES:
            if name in used:
                for dep in named_types_in(body):
                    if dep not in used:
                        used.add(dep)
                        changed = True
    for name, body in NAMED_TYPES:
        if name in used:
            out.append("%s = type %s" % (name, body))
    out.append("")
    return out


# Generated lines where diopter's verdict departs from what the source test
# implies, with the reason; they become `#! expect invalid` conformance cases
# and the divergence is reported in the spec-errata report.
DIVERGENCES = {
    "diexpression [ptr] DIOpArg(0, %struct.OnlyInExpr), DIOpConvert(i32)":
        "diopter: DIOpConvert requires basic (integer, float, pointer) types, as the seed spec says "
        "(\"not well-formed if T or T' are not equivalent to DIBasicType types\"); AMD's SPIR-V "
        "round-trip test keeps this expression without running the DIOp verifier on it",
}


def entry(source, notes, parse_only, line, expect=None):
    if not parse_only and line in DIVERGENCES:
        expect = "#! expect invalid: %s" % DIVERGENCES[line]
    out = ["#! source: %s" % source]
    for n in notes:
        if "\n" in n:
            raise ValueError(n)
        out.append("#! note: %s" % n)
    if parse_only:
        out.append("#! parse-only")
    else:
        out.append(expect or "#! expect valid")
    out.append(line)
    out.append("")
    return out


def gen_expressions(stats):
    rows = read_tsv("amd-expressions.tsv", 4)
    body = []
    for lineno, (dialect, args, expr, source) in rows:
        parse_only, notes = classify(dialect, args, expr, source)
        line = expr_line(dialect, items_for(dialect, args, expr), expr)
        body += entry("%s (amd-expressions.tsv row %d)" % (source, lineno), notes, parse_only, line)
        stats.count("expressions.expr", parse_only, False)
    head = header("AMD DIOp expressions (amd-expressions.tsv), one line per row.", AMDGPU_DATALAYOUT,
                  [name for name, _ in NAMED_TYPES],
                  ["Named types: README.md. Layout: amdgcn-amd-amdhsa (see gen.py)."])
    return head + body


def gen_verifier(stats):
    rows = read_tsv("amd-verifier.tsv", 7)
    body = []
    texts = []
    for lineno, (dialect, args, vartype, expr, verdict, message, source) in rows:
        texts.append(args + " " + expr)
        parse_only, notes = classify(dialect, args, expr, source)
        # Verifier rows: the verdict is the point; the i8-poison override does not apply here.
        notes = [n for n in notes if not n.startswith("the operand is `i8 poison`")]
        parse_only = args == "?" or any("whose definition" in n for n in notes)
        line = expr_line(dialect, items_for(dialect, args, expr), expr,
                         None if vartype == "?" else vartype)
        if verdict == "valid":
            expect = "#! expect valid"
        elif verdict == "invalid":
            expect = "#! expect invalid: %s" % message
        else:
            raise SystemExit("amd-verifier.tsv:%d: verdict %r" % (lineno, verdict))
        body += entry("%s (amd-verifier.tsv line %d)" % (source, lineno), notes, parse_only, line, expect)
        stats.count("verifier.expr", parse_only, verdict == "invalid")
    if len(rows) != 33:
        raise SystemExit("amd-verifier.tsv: expected 33 data rows, got %d" % len(rows))
    head = header("AMD DIOp verifier verdicts (amd-verifier.tsv), one line per data row.", X86_DATALAYOUT, texts,
                  ["Layout: x86-64, as written in llvm/test/DebugInfo/verify-diop-based-diexpression.ll.",
                   "`-> T` is the described variable's type (omitted where the TSV says `?`)."])
    return head + body


def gen_rewrites(stats):
    rows = read_tsv("amd-rewrites.tsv", 6)
    body, texts = [], []
    for lineno, (before, bargs, note, after, aargs, source) in rows:
        src = "%s (amd-rewrites.tsv row %d)" % (source, lineno)
        texts += [bargs + " " + before, aargs + " " + after]
        po, notes = classify("diexpression", bargs, before, source)
        first = "rewrite row %d, BEFORE: %s" % (lineno, note)
        if after == "DW_OP_LLVM_poisoned":
            first += " [after: DW_OP_LLVM_poisoned, not emitted]"
        body += entry(src, [first] + notes, po,
                      expr_line("diexpression", items_for("diexpression", bargs, before), before))
        stats.count("rewrites.expr", po, False)
        if after != "DW_OP_LLVM_poisoned":
            po, notes = classify("diexpression", aargs, after, source)
            body += entry(src, ["rewrite row %d, AFTER: %s" % (lineno, note)] + notes, po,
                          expr_line("diexpression", items_for("diexpression", aargs, after), after))
            stats.count("rewrites.expr", po, False)
    head = header("Expressions before and after a pass (amd-rewrites.tsv), both per row.", AMDGPU_DATALAYOUT, texts,
                  ["All rows are the diexpression dialect. Layout: amdgcn-amd-amdhsa (see gen.py).",
                   "The BEFORE and AFTER of a row are consecutive entries whose notes name the row."])
    return head + body


def gen_dwarf(stats):
    rows = read_tsv("amd-dwarf.tsv", 5)
    order, info = [], {}
    for lineno, (dialect, args, expr, _ops, source) in rows:
        key = (dialect, args, expr)
        if key not in info:
            order.append(key)
            info[key] = ([], [])
        rownums, sources = info[key]
        rownums.append(lineno)
        if source not in sources:
            sources.append(source)
    body, texts = [], []
    for key in order:
        dialect, args, expr = key
        rownums, sources = info[key]
        texts.append(args + " " + expr)
        po, notes = classify(dialect, args, expr, sources[0])
        notes = ["amd-dwarf.tsv %s %s (expected DWARF operations there; operand locations in "
                 "amd-dwarf.operands.tsv)" % ("rows" if len(rownums) > 1 else "row", ", ".join(str(n) for n in rownums))] + notes
        body += entry("; ".join(sources), notes, po,
                      expr_line(dialect, items_for(dialect, args, expr), expr))
        stats.count("dwarf.expr", po, False)
    head = header("Distinct expressions of amd-dwarf.tsv (unique on dialect, arg_types, expression).",
                  AMDGPU_DATALAYOUT, texts,
                  ["Layout: amdgcn-amd-amdhsa (see gen.py); the x86 rows use only `ptr`, 64 bits in both layouts."])
    return head + body


class Stats:
    def __init__(self):
        self.data = {}

    def count(self, name, parse_only, invalid):
        d = self.data.setdefault(name, [0, 0, 0])
        d[0] += 1
        d[1] += parse_only
        d[2] += invalid


def main():
    check = "--check" in sys.argv[1:]
    stats = Stats()
    outputs = {
        "expressions.expr": gen_expressions(stats),
        "verifier.expr": gen_verifier(stats),
        "rewrites.expr": gen_rewrites(stats),
        "dwarf.expr": gen_dwarf(stats),
    }
    status = 0
    for name, lines in outputs.items():
        text = "\n".join(lines).rstrip("\n") + "\n"
        path = os.path.join(HERE, name)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    same = f.read() == text
            except FileNotFoundError:
                same = False
            if not same:
                print("%s is out of date" % name)
                status = 1
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        total, po, inv = stats.data[name]
        print("%-17s %3d expressions, %3d parse-only, %2d expected invalid" % (name, total, po, inv))
    return status


if __name__ == "__main__":
    sys.exit(main())
