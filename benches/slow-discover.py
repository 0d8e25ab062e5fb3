#!/usr/bin/env python3
"""Runs a stdio MCP server and delays each answer to server/discover by DELAY seconds
(a conformant but slow server), passing every other byte through.

    mcp-conformance run --revision 2026-07-28 -- \
        python3 benches/slow-discover.py 3 mcp-conformance reference-server

reports/bench.md, "Liveness from the wire", has the figures."""
import json, subprocess, sys, threading, time
DELAY = float(sys.argv[1]); cmd = sys.argv[2:]
child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
slow = set(); lock = threading.Lock()
def up():
    for line in sys.stdin.buffer:
        try:
            m = json.loads(line)
            if isinstance(m, dict) and m.get("method") == "server/discover" and "id" in m:
                with lock: slow.add(json.dumps(m["id"]))
        except Exception: pass
        child.stdin.write(line); child.stdin.flush()
    child.stdin.close()
threading.Thread(target=up, daemon=True).start()
for line in child.stdout:
    try:
        m = json.loads(line)
        key = json.dumps(m.get("id")) if isinstance(m, dict) else None
    except Exception: key = None
    with lock: hit = key in slow; slow.discard(key)
    if hit: time.sleep(DELAY)
    sys.stdout.buffer.write(line); sys.stdout.buffer.flush()
child.wait()
