# An MCP server (stdio) that forks a grandchild for every request it gets: one leaves the
# session (setsid) and sleeps, holding nothing; one stays in the group. Both must be ended
# with the server, whatever path the harness takes.
import json, os, sys, time

def spawn_grandchild(detach):
    pid = os.fork()
    if pid == 0:
        if detach:
            os.setsid()
        if os.fork() == 0:
            time.sleep(1000)
        os._exit(0)
    os.waitpid(pid, 0)

TOOLS = [{"name": "echo", "description": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]
n = 0
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except Exception:
        continue
    if not isinstance(msg, dict) or "id" not in msg or "method" not in msg:
        continue
    n += 1
    spawn_grandchild(detach=(n % 2 == 0))
    method = msg["method"]
    if method == "initialize":
        result = {"protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-11-25"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "forker", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "ok"}]}
    elif method == "ping":
        result = {}
    else:
        out = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}}
        print(json.dumps(out), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
