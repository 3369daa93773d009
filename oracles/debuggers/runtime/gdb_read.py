# GDB's half of diopter's debugger oracle (oracles/debuggers/src/drive.rs):
# run the batch program, and at each pass of diopter_stop print every
# variable of that stop's plan as one JSON line: its bytes (null for a byte
# GDB calls optimized out or unavailable) or GDB's error message.
# Run as: gdb -nx -batch -x gdb_read.py PROGRAM, with DIOPTER_PLAN (the
# plan, JSON: {"stops": [[[name, bytes], ...], ...]}) and DIOPTER_OUT set.
import json
import os

import gdb

plan = json.load(open(os.environ["DIOPTER_PLAN"]))
out = open(os.environ["DIOPTER_OUT"], "w")


def emit(record):
    out.write(json.dumps(record) + "\n")
    out.flush()


def symbols(frame):
    """The variables of the frame's function, by name."""
    found = {}
    block = frame.block()
    while block is not None:
        for sym in block:
            if sym.is_variable:
                found.setdefault(sym.name, sym)
        if block.function is not None:
            break
        block = block.superblock
    return found


def read(sym, frame, n):
    value = sym.value(frame)
    if value.is_optimized_out:
        return {"bytes": [None] * n}
    got = []
    for i in range(n):
        try:
            got.append(int(value[i]) & 0xFF)
        except gdb.error as e:
            text = str(e)
            if "optimized out" in text or "unavailable" in text:
                got.append(None)
            else:
                raise
    return {"bytes": got}


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set startup-with-shell off")
gdb.execute("break *diopter_stop", to_string=True)
gdb.execute("run", to_string=True)
stop_pc = int(gdb.parse_and_eval("(long)&diopter_stop"))
syms = None
for index, stop in enumerate(plan["stops"]):
    try:
        frame = gdb.selected_frame()
    except gdb.error as e:
        emit({"fatal": "no frame at stop %d: %s" % (index, e)})
        break
    if frame.pc() != stop_pc:
        emit({"fatal": "stopped at 0x%x, not diopter_stop (stop %d)" % (frame.pc(), index)})
        break
    if syms is None:
        syms = symbols(frame)
    for name, n in stop:
        record = {"stop": index, "var": name}
        try:
            if name not in syms:
                raise gdb.error("no variable %s in scope" % name)
            record.update(read(syms[name], frame, n))
        except gdb.error as e:
            record["error"] = str(e)
        emit(record)
    gdb.execute("continue", to_string=True)
emit({"done": True})
