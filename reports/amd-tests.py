#!/usr/bin/env python3
"""Conformance of `diopter check` with AMD's own DIOp test files.

    reports/amd-tests.py DIR [--diopter BIN]

DIR holds the test files listed in corpus/amd/amd-tests.manifest.tsv at
their repository paths (the files are AMD's, fetched from ROCm/llvm-project;
they are not committed). For each file this runs `diopter check --format
json`, and compares its verdict with what the test expects of it:

  * expectation: `parse` when every RUN line reading the file passes
    `-disable-verify` (the test only parses it: any verdict that is not a
    syntax error agrees), `accept` when the RUN lines read it without `not`,
    `reject` (with the test's error, from the manifest) when a RUN line is
    `not ...`, `xfail` when the test is marked `XFAIL` (the whole test is
    expected to fail; its input is still expected to be read);
  * read whole: every line outside comments that holds a DIOp expression has
    a verdict of diopter's (so an expression in a MIR body, which diopter
    used to skip, counts);
  * verdict: `accepted` (exit 0), `rejected` (exit 1: an ill-formed
    expression or lifetime), `syntax error` (exit 2);
  * agree: read whole, and accepted where the test expects acceptance (or
    xfail), rejected where it expects rejection. A disagreement carries the
    manifest's explanation (an erratum of diopter's, or of AMD's test).

Writes reports/amd-tests.md and reports/amd-tests.json; exits 0 when every
file is read and agrees or its disagreement is explained, 1 otherwise.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "corpus", "amd", "amd-tests.manifest.tsv")
TMP = tempfile.mkdtemp(prefix="amd-tests-")


def read_manifest():
    rows = []
    with open(MANIFEST, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            cols += [""] * (7 - len(cols))
            repo, commit, path, copy, expect_error, explanation, replay_note = cols[:7]
            rows.append(
                {
                    "repository": repo,
                    "commit": commit,
                    "path": path,
                    "copy": copy,
                    "expected_error": expect_error,
                    "explanation": explanation,
                    "note": replay_note,
                }
            )
    return rows


COMMENT_LL = re.compile(r"^\s*;")
# In a MIR file `#` starts a YAML comment (a body line never starts with one).
COMMENT_MIR = re.compile(r"^\s*(;|#)")


def comment_re(path):
    return COMMENT_MIR if path.endswith(".mir") else COMMENT_LL


def run_lines(text):
    """The RUN commands, continuation lines joined."""
    cmds, cur = [], None
    for line in text.splitlines():
        m = re.match(r"^\s*(?:;|#|//)\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        cur = part if cur is None else cur + " " + part
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        cmds.append(cur.strip())
        cur = None
    return cmds


def expectation(text):
    if re.search(r"^\s*(?:;|#|//)\s*XFAIL:", text, re.M):
        return "xfail"
    cmds = run_lines(text)
    # `-disable-verify` everywhere: the test only parses (and prints) the file.
    if cmds and all("-disable-verify" in c for c in cmds if "%s" in c):
        return "parse"
    # An assembler round trip (llvm-as | llvm-dis, verify-uselistorder) of
    # expressions nothing uses: the verifier checks an expression where a
    # record, lifetime or global uses it, so these are only parsed.
    tools = {w for c in cmds for part in c.split("|") for w in part.split()[:1]}
    unused = not re.search(r"^\s*define\b", text, re.M)
    if cmds and unused and tools <= {"llvm-as", "llvm-dis", "verify-uselistorder", "FileCheck"}:
        return "parse"
    if any(c.startswith("not ") or " not " in c.split("|")[0] for c in cmds):
        return "reject"
    return "accept"


def diop_lines(text, path):
    """Line numbers (1-based) of DIOp expressions outside comments."""
    out = []
    comment = comment_re(path)
    for i, line in enumerate(text.splitlines(), 1):
        if comment.match(line):
            continue
        code = line if '"' in line else line.split(";", 1)[0]
        if "DIOp" in code:
            out.append(i)
    return out


def check(diopter, path):
    p = subprocess.run(
        [diopter, "check", "--format", "json", path],
        capture_output=True,
        text=True,
        timeout=120,
    )
    try:
        data = json.loads(p.stdout)
    except json.JSONDecodeError:
        data = {"expressions": [], "summary": {}}
    return p.returncode, data, p.stderr


def split_file(rel, path, text):
    """`split-file` parts (`;--- NAME` lines) as files of their own, or the file."""
    marks = [(m.start(), m.group(1)) for m in re.finditer(r"^;--- (\S+)$", text, re.M)]
    if not marks:
        return [(None, path, text)]
    out = []
    tmp = os.path.join("/tmp", "amd-tests-split", rel)
    os.makedirs(tmp, exist_ok=True)
    for k, (at, name) in enumerate(marks):
        end = marks[k + 1][0] if k + 1 < len(marks) else len(text)
        body = text[at:end].split("\n", 1)[1]
        # Keep line numbers: the part's lines keep their place in the file.
        prefix = "\n" * text[: at].count("\n") + "\n"
        p = os.path.join(tmp, name)
        with open(p, "w", encoding="utf-8") as f:
            f.write(prefix + body)
        out.append((name, p, prefix + body))
    return out


def expected_errors(text, path):
    """Line -> the verifier error the test's CHECK line just above an
    expression expects (a CHECK line that names a DIOp rule, such as
    `; CHECK: DIOpArg index out of range`)."""
    lines = text.splitlines()
    out = {}
    comment = comment_re(path)
    for i, line in enumerate(lines):
        if comment.match(line) or "DIOp" not in line:
            continue
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        m = re.match(r"^\s*(?:;|#|//)\s*CHECK(?:-NEXT)?:\s*(.*)$", lines[k]) if k >= 0 else None
        if m and re.match(r"(?:error:\s*)?DIOp\w*\b[^(]*$", m.group(1).strip()):
            out[i + 1] = m.group(1).strip()
    return out


def finish(row, expectation, verdict, code, exprs, diop_lines, read_whole, agree, reason, problems, replay):
    """The report's fields of one file."""
    row.update(
        status="read",
        expectation=expectation,
        verdict=verdict,
        exit_code=code,
        expressions=len(exprs),
        diop_lines=diop_lines,
        read_whole=read_whole,
        agree=agree,
        reason=reason,
        problems=problems,
        replay=replay,
    )
    return row


def same_rule(want, got):
    """Whether diopter's message reports the rule the test's CHECK names: the
    same text, or the same operation (`DIOpDeref requires input to be pointer
    typed` and diopter's `DIOpDeref requires input 0 to be a pointer, found
    `i32``); wording differs, the rule is the operation's."""
    if want in got:
        return True
    w = re.match(r"(?:error:\s*)?(DIOp\w+)", want)
    g = re.match(r"(DIOp\w+)", got)
    return bool(w and g and w.group(1) == g.group(1))


def judge(diopter, row, path, text, whole_text):
    code, data, _ = check(diopter, path)
    exprs = data.get("expressions", [])
    by_line = {}
    for e in exprs:
        by_line.setdefault(e["line"], []).append(e)
    want = diop_lines(text, path)
    unread = [ln for ln in want if ln not in by_line]
    verdict = {0: "accepted", 1: "rejected"}.get(code, "syntax error")
    if code == 2 and not exprs:
        verdict = "no expression"
    errors = expected_errors(text, path)
    expect = expectation(text)
    if re.search(r"^\s*(?:;|#|//)\s*XFAIL:", whole_text, re.M):
        expect = "xfail"
    if errors:
        expect = "reject"
    bad = [e for e in exprs if e["verdict"] not in ("valid", "expected-invalid", "parse-only")]
    problems = []
    for e in bad:
        msg = e["diagnostics"][0]["message"] if e["diagnostics"] else ""
        want_msg = errors.get(e["line"])
        if want_msg is not None and same_rule(want_msg, msg):
            continue
        problems.append({"line": e["line"], "verdict": e["verdict"], "message": msg})
    missed = [
        {"line": ln, "verdict": "valid", "message": "the test expects: " + msg}
        for ln, msg in sorted(errors.items())
        if not any(e in bad for e in by_line.get(ln, []))
    ]
    problems += missed
    read_whole = not unread
    if errors:
        agree = read_whole and not problems
    elif expect == "parse":
        agree = read_whole and verdict in ("accepted", "rejected")
    elif expect in ("accept", "xfail"):
        agree = read_whole and verdict == "accepted"
    else:
        agree = read_whole and verdict == "rejected" and (
            not row["expected_error"]
            or any(row["expected_error"] in e["diagnostics"][0]["message"] for e in bad if e["diagnostics"])
        )
    reason = ""
    if not agree:
        if not read_whole:
            reason = "DIOp lines without a verdict: " + ", ".join(map(str, unread))
        elif problems:
            reason = "line %d: %s" % (problems[0]["line"], problems[0]["message"])
        else:
            reason = "accepted, but the test expects: " + (row["expected_error"] or expect)
    return finish(row, expect + (" (%d expected errors)" % len(errors) if errors else ""),
                  verdict, code, exprs, len(want), read_whole, agree, reason, problems,
                  "diopter check " + path)


def paren_end(s, i):
    """Index just past the `)` closing the `(` at `s[i]`."""
    depth = 0
    for k in range(i, len(s)):
        if s[k] == "(":
            depth += 1
        elif s[k] == ")":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(s)


# A FileCheck variable in a type position (`DIOpDeref([[STRUCT_PAIR]])`, or
# its definition `[[STRUCT_PAIR:%.*]]`): the test hides the struct clang names.
FILECHECK_TYPE_VAR = re.compile(r"\[\[([A-Za-z_]\w*)(?::%[^\]]*)?\]\]")
# The struct bodies a hidden type is checked with. An expression counts as read
# only when its verdict is the same under each: then it does not depend on
# what clang put in the struct (every struct clang emits is sized).
HIDDEN_TYPE_BODIES = ["{ i8 }", "{ i64, [3 x i32], ptr addrspace(5) }"]


def judge_check_lines(diopter, row, path, text):
    """A clang test (`.hip`): its IR is clang's output, which the file shows
    only in CHECK lines. Each DIOp expression there is checked in the
    one-line form with the operand type the line prints (`#dbg_declare(T ...`),
    or `?` where the line shows none (a global's `DIGlobalVariableExpression`).
    A FileCheck variable standing for a type is checked as a named struct,
    once per body in HIDDEN_TYPE_BODIES; a `{{regex}}` is not read."""
    items = []
    for i, line in enumerate(text.splitlines(), 1):
        if not re.match(r"^\s*//\s*[\w-]+:", line) or "!DIExpression(DIOp" not in line:
            continue
        at = line.index("!DIExpression(") + len("!DIExpression")
        expr = line[at + 1 : paren_end(line, at) - 1]
        m = re.search(r"#dbg_\w+\((.*?) (?:\[\[|%|@)", line)
        ty = m.group(1) if m else "?"
        items.append((i, ty, expr))
    checkable, unread, hidden = [], [], set()
    for i, t, e in items:
        names = FILECHECK_TYPE_VAR.findall(t + " " + e)
        t2 = FILECHECK_TYPE_VAR.sub(lambda m: "%filecheck." + m.group(1), t)
        e2 = FILECHECK_TYPE_VAR.sub(lambda m: "%filecheck." + m.group(1), e)
        if "[[" in t2 + e2 or "{{" in t2 + e2:
            unread.append(i)
            continue
        hidden.update(names)
        checkable.append((i, t2, e2, bool(names)))
    runs = []
    for body in HIDDEN_TYPE_BODIES if hidden else HIDDEN_TYPE_BODIES[:1]:
        if not checkable:
            break
        lines = ["%%filecheck.%s = type %s" % (n, body) for n in sorted(hidden)]
        lines += ["[%s] %s" % (t, e) for _, t, e, _ in checkable]
        tmp = os.path.join(TMP, "check-lines.expr")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        p = subprocess.run([diopter, "check", "--format", "json", tmp],
                           capture_output=True, text=True, timeout=120)
        runs.append(json.loads(p.stdout)["expressions"])
    exprs = []
    for k, (line, _, _, uses_hidden) in enumerate(checkable):
        verdicts = {r[k]["verdict"] for r in runs}
        if len(verdicts) > 1:
            unread.append(line)
            continue
        e = dict(runs[0][k])
        e["line"] = line
        e["file"] = row["path"]
        if uses_hidden:
            e["hidden_types"] = "checked with each of: " + ", ".join(HIDDEN_TYPE_BODIES)
        exprs.append(e)
    unread.sort()
    problems = [
        {"line": e["line"], "verdict": e["verdict"], "message": e["diagnostics"][0]["message"] if e["diagnostics"] else ""}
        for e in exprs
        if e["verdict"] != "valid"
    ]
    # The file's verdict is that of the expressions read: one whose verdict
    # changes with a hidden body is unread, not a rejection.
    if any(e["verdict"] == "syntax-error" for e in exprs):
        code = 2
    else:
        code = 1 if problems else 0
    verdict = {0: "accepted", 1: "rejected"}.get(code, "syntax error")
    read_whole = not unread
    agree = read_whole and not problems
    reason = ""
    if unread:
        reason = ("CHECK lines whose expression holds a FileCheck regex, or whose verdict "
                  "depends on the body of a type the test hides: " + ", ".join(map(str, unread)))
    elif problems:
        reason = "line %d: %s" % (problems[0]["line"], problems[0]["message"])
    elif hidden:
        reason = ("%d expressions name a type by a FileCheck variable (%s): each checked as a "
                  "named struct with each body of %s, same verdict"
                  % (sum(1 for c in checkable if c[3]), ", ".join(sorted(hidden)),
                     " and ".join("`%s`" % b for b in HIDDEN_TYPE_BODIES)))
    return finish(row, "accept (clang's output)", verdict, code, exprs, len(items), read_whole,
                  agree, reason, problems, "diopter check -e '[T] EXPR' (each CHECK line's expression)")


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    d = args[0]
    diopter = os.path.join(ROOT, "target", "release", "diopter")
    if "--diopter" in args:
        diopter = args[args.index("--diopter") + 1]
    rows = []
    for m in read_manifest():
        path = os.path.join(d, m["path"])
        if not os.path.exists(path):
            row = dict(m)
            row.update(status="missing", agree=False, reason="the file is not in " + d)
            rows.append(row)
            continue
        text = open(path, encoding="utf-8").read()
        if path.endswith(".hip"):
            rows.append(judge_check_lines(diopter, dict(m), path, text))
            continue
        for part, part_path, part_text in split_file(m["path"], path, text):
            row = dict(m)
            if part:
                row["path"] = m["path"] + " :: " + part
            rows.append(judge(diopter, row, part_path, part_text, text))

    for r in rows:
        if "replay" in r:
            r["replay"] = r["replay"].replace(os.path.abspath(d), "$AMD_TESTS").replace(d, "$AMD_TESTS")
    n = len(rows)
    read = sum(1 for r in rows if r.get("read_whole"))
    agree = sum(1 for r in rows if r["agree"])
    explained = sum(1 for r in rows if not r["agree"] and r["explanation"])
    exprs = sum(r.get("expressions", 0) for r in rows)
    summary = {
        "files": n,
        "read_whole": read,
        "agree": agree,
        "disagree_explained": explained,
        "disagree_unexplained": n - agree - explained,
        "expressions": exprs,
        "agree_percent": round(100.0 * agree / n, 1) if n else 0.0,
    }
    with open(os.path.join(ROOT, "reports", "amd-tests.json"), "w", encoding="utf-8") as f:
        json.dump({"summary": summary, "files": rows}, f, indent=1)
        f.write("\n")
    md = [
        "# AMD's DIOp test files, read as AMD reads them",
        "",
        "Generated by `reports/amd-tests.py DIR` over the files listed in "
        "[`corpus/amd/amd-tests.manifest.tsv`](../corpus/amd/amd-tests.manifest.tsv) "
        "(ROCm/llvm-project and AMD's branches in llvm/llvm-project; repository, commit and path of each). One line per file: the DIOp "
        "expressions diopter found and checked (MIR bodies included), its verdict, what the "
        "test's RUN lines expect, and whether they agree. Replay one file: "
        "`diopter check $AMD_TESTS/PATH`.",
        "",
        "**%d files, %d read whole, %d agree (%.1f %%), %d disagreements explained, %d unexplained; "
        "%d expressions checked.**"
        % (n, read, agree, summary["agree_percent"], explained, summary["disagree_unexplained"], exprs),
        "",
        "| file | expressions | verdict | test expects | agree | reason / explanation |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        why = r.get("reason", "")
        if r["explanation"]:
            why = (why + " — " if why else "") + r["explanation"]
        md.append(
            "| `%s` | %s | %s | %s | %s | %s |"
            % (
                r["path"],
                r.get("expressions", "-"),
                r.get("verdict", r["status"]),
                r.get("expectation", "-")
                + (": " + r["expected_error"] if r["expected_error"] else ""),
                "yes" if r["agree"] else "**no**",
                why.replace("|", "\\|"),
            )
        )
    md.append("")
    with open(os.path.join(ROOT, "reports", "amd-tests.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    print(md[4])
    return 0 if summary["disagree_unexplained"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
