# The real servers of reports/: one row each, as `NAME|the run's arguments`. Sourced by
# reports/regenerate.sh (the reviewed reports) and benches/side-by-side.sh (their times),
# from the repository's root, with the servers `.ci/install-targets.sh target/third-party`
# installs.
# shellcheck shell=bash disable=SC2034
T=target/third-party
PY=$T/venv/bin/python
EVERYTHING=$T/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js
# Its 10 s tool outlasts the default --timeout (a slow-tool warning each revision, noted in
# reports/server-everything.md): the reviewed runs leave it out.
SLOW="--deny-tool trigger-long-running-operation"

# name | the run's arguments
ROWS=(
  "reference-server|-v --reference"
  "server-everything|$SLOW -- node $EVERYTHING stdio"
  "server-everything-http|$SLOW --url http://127.0.0.1:18801/mcp --env PORT=18801 -- node $EVERYTHING streamableHttp"
  "server-everything-sse|$SLOW --timeout 20 --transport sse --url http://127.0.0.1:3001/sse --env PORT=3001 -- node $EVERYTHING sse"
  "python-sdk|-- $PY fixtures/python/sdk_server.py"
  "python-sdk-paginated|-- $PY fixtures/python/sdk_server_paginated.py"
  "python-sdk-http|--url http://127.0.0.1:18765/mcp -- $PY fixtures/python/sdk_server.py --http 18765"
  "mcp-server-time|-- $T/venv/bin/mcp-server-time --local-timezone UTC"
  "rmcp-server|-- $T/rmcp/release/mcp-rmcp-server"
)
