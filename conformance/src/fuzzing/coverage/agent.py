# mcp-conformance's coverage agent for Python servers (written as sitecustomize.py into a
# folder of its own that `fuzz --coverage` puts first on PYTHONPATH; nothing is installed).
#
# It counts the server's own lines and branches, never the standard library's or
# site-packages' (unless the entry point itself lives there, or a folder is named in
# MCP_CONFORMANCE_COVERAGE_INCLUDE), and hands them to the fuzzer through files in the
# folder MCP_CONFORMANCE_COVERAGE names, never through stdout:
#   map              64-byte header, then 65,536 edge counters (AFL-style), mapped here and
#                    read by the fuzzer after each case; the header's bytes 8..12 hold the
#                    pid of the process that counts (the first one to claim `owner`)
#   agent-PID.json   what this process is (language, version, mode, role, scope, error)
#   manifest-PID.jsonl + lines-PID
#                    the executable lines of each file in scope (one JSON line per file,
#                    with the slot of its first line) and a byte per line slot, set once hit
# Python 3.12+: sys.monitoring (LINE events disabled after their first hit, BRANCH events
# counted); 3.10 and 3.11: sys.settrace on the files in scope only.
import os
import sys


def _mcp_coverage_agent():
    folder = os.environ.get("MCP_CONFORMANCE_COVERAGE")
    if not folder or not os.path.isdir(folder):
        return
    import json
    import mmap
    import zlib

    pid = os.getpid()
    if sys.version_info < (3, 10):
        _refuse(folder, "Python %d.%d.%d is older than 3.10, the oldest the agent supports" % tuple(sys.version_info[:3]))
        return
    status = {
        "language": "python",
        "version": "%d.%d.%d" % sys.version_info[:3],
        "pid": pid,
        "argv": list(sys.argv) if hasattr(sys, "argv") else [],
        "executable": sys.executable,
    }

    def say(**fields):
        status.update(fields)
        tmp = os.path.join(folder, ".agent-%d.tmp" % pid)
        with open(tmp, "w") as f:
            json.dump(status, f)
        os.replace(tmp, os.path.join(folder, "agent-%d.json" % pid))

    main = _main_path()
    status["argv"] = [main] + list(sys.argv[1:]) if main else status["argv"]
    if _launcher(main):
        say(role="launcher")
        return
    if not _claim(folder, pid):
        say(role="extra")
        return

    # What is the server's own: not the standard library nor site-packages, unless the
    # entry point lives in site-packages (an installed server: then its top package).
    import sysconfig

    library = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            library.add(os.path.realpath(p))
    for p in list(getattr(sys, "path", [])):
        if p and ("site-packages" in p or "dist-packages" in p):
            library.add(os.path.realpath(p))
    library = sorted(library, key=len, reverse=True)
    include = [os.path.realpath(p) for p in os.environ.get("MCP_CONFORMANCE_COVERAGE_INCLUDE", "").split(os.pathsep) if p]
    entry_package = _entry_package(main, library)
    if entry_package:
        include.append(entry_package)
    agent_file = os.path.realpath(__file__)
    sep = os.sep

    def under(path, roots):
        for r in roots:
            if path == r or path.startswith(r + sep):
                return True
        return False

    def in_scope(filename):
        if not filename or filename.startswith("<"):
            return False
        path = os.path.realpath(filename)
        if path == agent_file or not path.endswith(".py"):
            return False
        if under(path, include):
            return True
        if entry_package:
            return False
        return not under(path, library)

    with open(os.path.join(folder, "map"), "r+b") as f:
        edges = mmap.mmap(f.fileno(), 0)
    header = 64
    mask = 0xFFFF
    lines_cap = 1 << 20
    lines_path = os.path.join(folder, "lines-%d" % pid)
    with open(lines_path, "w+b") as f:
        f.truncate(lines_cap)
        hits = mmap.mmap(f.fileno(), lines_cap)
    manifest = os.path.join(folder, "manifest-%d.jsonl" % pid)
    next_slot = [0]
    files = {}  # filename -> (base hash, {line: slot}) or None when out of scope

    def executable_lines(path):
        try:
            with open(path, "rb") as f:
                code = compile(f.read(), path, "exec", dont_inherit=True)
        except Exception:
            return []
        seen = set()
        todo = [code]
        while todo:
            c = todo.pop()
            for _, _, line in c.co_lines():
                if line:
                    seen.add(line)
            todo.extend(k for k in c.co_consts if hasattr(k, "co_lines"))
        return sorted(seen)

    def file_info(filename):
        info = files.get(filename, False)
        if info is not False:
            return info
        info = None
        if in_scope(filename):
            path = os.path.realpath(filename)
            lines = executable_lines(path)
            base = next_slot[0]
            slots = {}
            if base + len(lines) <= lines_cap:
                slots = {line: base + i for i, line in enumerate(lines)}
                next_slot[0] = base + len(lines)
            with open(manifest, "a") as m:
                m.write(json.dumps({"file": path, "lines": lines, "slot": base if slots else None}) + "\n")
            info = (zlib.crc32(path.encode("utf-8", "surrogateescape")) & 0xFFFFFFFF, slots)
        files[filename] = info
        return info

    monitoring = getattr(sys, "monitoring", None)
    if monitoring is not None:
        mode = _monitor(monitoring, file_info, edges, hits, header, mask)
    else:
        mode = _trace(file_info, edges, hits, header, mask)
    say(role="owner", mode=mode, scope={"include": include, "library": library, "entry_package": entry_package})


def _refuse(folder, why):
    # Plain file calls only: this runs on any Python (2.7 included) to say why it cannot.
    import json

    with open(os.path.join(folder, "agent-%d.json" % os.getpid()), "w") as f:
        json.dump({"language": "python", "pid": os.getpid(), "role": "refused",
                   "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
                   "executable": sys.executable, "error": why}, f)


def _main_path():
    # sitecustomize runs before the main module: argv[0] is its path, or "-m" (then the
    # module is named in orig_argv) or "-c".
    argv = getattr(sys, "argv", None) or [""]
    path = argv[0]
    if path == "-m":
        orig = getattr(sys, "orig_argv", [])
        name = orig[orig.index("-m") + 1] if "-m" in orig[:-1] else ""
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name.split(".")[0]) if name else None
        path = spec.origin if spec and spec.origin else ""
    return os.path.realpath(path) if path and os.path.exists(path) else path


# Python programs that start the real server in a child process: they stay uncounted.
_LAUNCHERS = ("pipx", "pip", "poetry", "hatch", "pdm", "pipenv", "virtualenv", "tox", "nox")


def _launcher(main):
    name = os.path.basename(main or "")
    if name.endswith(".py"):
        name = name[:-3]
    return name in _LAUNCHERS


def _claim(folder, pid):
    owner = os.path.join(folder, "owner")
    for _ in range(2):
        try:
            fd = os.open(owner, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            try:
                with open(owner) as f:
                    holder = int(f.read().strip() or "0")
            except (OSError, ValueError):
                return False
            if holder and holder != pid and _alive(holder):
                return False
            try:
                os.unlink(owner)
            except OSError:
                return False
            continue
        with os.fdopen(fd, "w") as f:
            f.write(str(pid))
        import mmap
        with open(os.path.join(folder, "map"), "r+b") as f:
            m = mmap.mmap(f.fileno(), 64)
            m[8:12] = pid.to_bytes(4, "little")
            m.close()
        return True
    return False


def _alive(pid):
    # A process killed but not yet reaped (a zombie) no longer counts.
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _entry_package(main, library):
    # An entry point inside site-packages (python -m pkg) is that top package's; a console
    # script (.venv/bin/NAME: `from pkg.mod import main`) names its package in its text.
    sep = os.sep
    for root in library:
        if main.startswith(root + sep):
            top = main[len(root) + 1:].split(sep)[0]
            return os.path.join(root, top)
    if main and not main.endswith(".py"):
        try:
            with open(main, "r", errors="replace") as f:
                text = f.read(4096)
        except OSError:
            return None
        import re
        found = re.search(r"^from ([A-Za-z_][\w]*)[\w.]* import", text, re.M)
        if found:
            for root in library:
                candidate = os.path.join(root, found.group(1))
                if os.path.isdir(candidate) or os.path.isfile(candidate + ".py"):
                    return candidate
    return None


def _monitor(monitoring, file_info, edges, hits, header, mask):
    events = monitoring.events
    tool = None
    for candidate in (monitoring.COVERAGE_ID, 4, 3, 2):
        if monitoring.get_tool(candidate) is None:
            tool = candidate
            break
    if tool is None:
        raise RuntimeError("every sys.monitoring tool id is taken")
    monitoring.use_tool_id(tool, "mcp-conformance")
    branch_events = [getattr(events, n) for n in ("BRANCH_LEFT", "BRANCH_RIGHT") if hasattr(events, n)]
    if not branch_events:
        branch_events = [events.BRANCH]
    local = events.LINE
    for e in branch_events:
        local |= e
    disable = monitoring.DISABLE

    def start(code, offset):
        if file_info(code.co_filename) is not None:
            monitoring.set_local_events(tool, code, local)
        return disable

    def line(code, number):
        info = file_info(code.co_filename)
        if info is not None:
            i = header + ((info[0] ^ (number * 40503)) & mask)
            v = edges[i]
            if v != 255:
                edges[i] = v + 1
            slot = info[1].get(number)
            if slot is not None:
                hits[slot] = 1
        return disable

    def branch(code, source, target):
        info = file_info(code.co_filename)
        if info is not None:
            i = header + ((info[0] ^ (source * 2654435761) ^ (target * 40503)) & mask)
            v = edges[i]
            if v != 255:
                edges[i] = v + 1

    monitoring.register_callback(tool, events.PY_START, start)
    monitoring.register_callback(tool, events.LINE, line)
    for e in branch_events:
        monitoring.register_callback(tool, e, branch)
    monitoring.set_events(tool, events.PY_START)
    return "sys.monitoring"


def _trace(file_info, edges, hits, header, mask):
    import threading

    prev = [0]
    tracers = {}

    def make(info):
        base, slots = info

        def tracer(frame, event, arg):
            if event == "line":
                number = frame.f_lineno
                cur = (base ^ (number * 40503)) & mask
                i = header + (cur ^ prev[0])
                prev[0] = cur >> 1
                v = edges[i]
                if v != 255:
                    edges[i] = v + 1
                slot = slots.get(number)
                if slot is not None:
                    hits[slot] = 1
            return tracer

        return tracer

    def call(frame, event, arg):
        filename = frame.f_code.co_filename
        tracer = tracers.get(filename, False)
        if tracer is False:
            info = file_info(filename)
            tracer = make(info) if info is not None else None
            tracers[filename] = tracer
        return tracer

    sys.settrace(call)
    threading.settrace(call)
    return "sys.settrace"


def _chain():
    # Run the sitecustomize this one shadows, if any, as Python would have.
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.realpath(__file__))
    path = [p for p in sys.path if os.path.realpath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


try:
    _mcp_coverage_agent()
except Exception as error:  # never break the server: say why and run uncounted
    try:
        _refuse(os.environ.get("MCP_CONFORMANCE_COVERAGE", ""), "the agent failed: %r" % (error,))
    except Exception:
        pass
try:
    _chain()
except Exception:
    pass
