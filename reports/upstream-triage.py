#!/usr/bin/env python3
"""The cause table of reports/upstream-triage.md, from a campaign's JSON.

    reports/upstream-triage.py [UPSTREAM_JSON] [--classes TSV] [--recheck DIOPTER]

Reads the campaign's findings (default reports/upstream.json) and the hand
triage's classes (default corpus/upstream/triage-classes.tsv: a cause
without its pass, a tab, the class the hand triage gave it) and prints, in
Markdown, a count per class and one row per distinct cause: the finding
that first showed it, in how many passes and records it was seen, its
class, its reduction (lines before and after; "cut" when the time limit
stopped llvm-reduce, "none" when the reduction failed or no longer
reproduced) and the cause without its pass.

With `--recheck DIOPTER` each reduced file is validated again by that
diopter binary (`diopter upstream interesting` with the finding's pass and
cause), and a column says whether it still gives the cause ("still") or
not ("gone"): a campaign run by an older build can then be read against
the current validator.

A cause whose first finding a recheck (`diopter upstream reduce --recheck`)
marked `no_longer_refuted` is listed as a diopter false positive whatever
its key's class. A cause whose key the classes file does not hold is printed as
"UNTRIAGED": such a cause has not been checked by hand, and the script
exits 1 so that it cannot be mistaken for a triaged table. Classify it by
working a finding of it by hand (reports/upstream-triage.md says how),
then add its key to the classes file.
"""

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict


def key_without_pass(cause, pass_name):
    prefix = pass_name + " | "
    return cause[len(prefix):] if cause.startswith(prefix) else cause


def load_classes(path):
    classes = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, cls = line.split("\t")
            classes[key] = cls
    return classes


def cause_id(cause):
    """The campaign's FNV-1a hash of a cause (`campaign::cause_id`)."""
    h = 0xCBF29CE484222325
    for b in cause.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def recheck(diopter, finding):
    text = (finding.get("reduced") or {}).get("text")
    if not text:
        # Not reduced: the debugified input the campaign kept, when it is
        # still there.
        try:
            with open(finding["input"], encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return "-"
    with tempfile.NamedTemporaryFile("w", suffix=".ll", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run(
            [diopter, "upstream", "interesting", "--pass", finding["pass"],
             "--cause-id", cause_id(finding["cause"]), path],
            capture_output=True, timeout=600)
    finally:
        os.unlink(path)
    return {0: "still", 1: "gone"}.get(r.returncode, f"error {r.returncode}")


def reduction(finding):
    red = finding.get("reduced") or {}
    r = red.get("reduction")
    if not r:
        return "none"
    cut = "" if r.get("complete") else " (cut)"
    return f"{r['lines_before']}→{r['lines_after']}{cut}"


GONE = "X diopter false positive (no longer refuted when the run was rechecked)"


def main(argv):
    args = argv[1:]
    classes_path = "corpus/upstream/triage-classes.tsv"
    if "--classes" in args:
        i = args.index("--classes")
        classes_path = args[i + 1]
        del args[i : i + 2]
    diopter = None
    if "--recheck" in args:
        i = args.index("--recheck")
        diopter = args[i + 1]
        del args[i : i + 2]
    json_path = args[0] if args else "reports/upstream.json"
    with open(json_path, encoding="utf-8") as f:
        run = json.load(f)
    classes = load_classes(classes_path)
    findings = run["findings"]
    passes = defaultdict(set)
    records = Counter()
    for f in findings:
        first = f["same_as"] or f["id"]
        passes[first].add(f["pass"])
        records[first] += f["occurrences"]
    rows = []
    untriaged = 0
    for f in findings:
        if f["same_as"]:
            continue
        key = key_without_pass(f["cause"], f["pass"])
        cls = classes.get(key)
        if f.get("no_longer_refuted"):
            # `diopter upstream reduce --recheck` found that the diopter of
            # the recheck no longer refutes it: not a cause any more.
            cls = GONE
        elif cls is None:
            cls = "UNTRIAGED"
            untriaged += 1
        again = recheck(diopter, f) if diopter else None
        rows.append((cls, f["id"], len(passes[f["id"]]), records[f["id"]], reduction(f), again, key))
    rows.sort()
    per_class = Counter(r[0] for r in rows)
    print("| class | causes |")
    print("|---|--:|")
    for cls in sorted(per_class):
        print(f"| {cls} | {per_class[cls]} |")
    print()
    head = "| finding (first pass) | passes | records (all passes) | class | reduced (lines) |"
    rule = "|---|--:|--:|---|---|"
    if diopter:
        head += " at HEAD |"
        rule += "---|"
    print(head + " cause without its pass |")
    print(rule + "---|")
    for cls, fid, npass, nrec, red, again, key in rows:
        shown = key.replace("|", "\\|")
        col = f" {again} |" if diopter else ""
        print(f"| {fid} | {npass} | {nrec} | {cls} | {red} |{col} `{shown}` |")
    if untriaged:
        print(f"{untriaged} cause(s) not triaged by hand", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
