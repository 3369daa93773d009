# LLDB's half of diopter's debugger oracle (oracles/debuggers/src/drive.rs):
# the same plan and output as gdb_read.py, through LLDB's Python API.
# Run as: lldb-19 -b -o 'command script import lldb_read.py', with
# DIOPTER_PROGRAM, DIOPTER_PLAN and DIOPTER_OUT set.
import json
import os

import lldb


def __lldb_init_module(debugger, _internal_dict):
    out = open(os.environ["DIOPTER_OUT"], "w")

    def emit(record):
        out.write(json.dumps(record) + "\n")
        out.flush()

    plan = json.load(open(os.environ["DIOPTER_PLAN"]))
    debugger.SetAsync(False)
    target = debugger.CreateTarget(os.environ["DIOPTER_PROGRAM"])
    if not target.IsValid():
        emit({"fatal": "LLDB cannot load the program"})
        return
    symbols = target.FindSymbols("diopter_stop")
    if symbols.GetSize() != 1:
        emit({"fatal": "no symbol diopter_stop"})
        return
    stop_addr = symbols.GetContextAtIndex(0).GetSymbol().GetStartAddress()
    target.BreakpointCreateBySBAddress(stop_addr)
    error = lldb.SBError()
    info = lldb.SBLaunchInfo(None)
    process = target.Launch(info, error)
    if not error.Success():
        emit({"fatal": "LLDB cannot launch the program: %s" % error.GetCString()})
        return
    # (a load address is known once the process is)
    stop_pc = stop_addr.GetLoadAddress(target)
    for index, stop in enumerate(plan["stops"]):
        if process.GetState() != lldb.eStateStopped:
            emit({"fatal": "the program is not stopped at stop %d (state %d)" % (index, process.GetState())})
            break
        frame = process.GetSelectedThread().GetFrameAtIndex(0)
        if frame.GetPC() != stop_pc:
            emit({"fatal": "stopped at 0x%x, not diopter_stop (stop %d)" % (frame.GetPC(), index)})
            break
        for name, n in stop:
            record = {"stop": index, "var": name}
            value = frame.FindVariable(name)
            if not value.IsValid():
                record["error"] = "no variable %s in scope" % name
            elif value.GetError().Fail():
                record["error"] = value.GetError().GetCString() or "error"
            else:
                data = value.GetData()
                if data.GetByteSize() < n:
                    record["error"] = "%d bytes of data for a %d-byte variable" % (data.GetByteSize(), n)
                else:
                    err = lldb.SBError()
                    got = []
                    for i in range(n):
                        b = data.GetUnsignedInt8(err, i)
                        got.append(b if err.Success() else None)
                    record["bytes"] = got
            emit(record)
        process.Continue()
    emit({"done": True})
    if process.GetState() != lldb.eStateExited:
        process.Kill()
