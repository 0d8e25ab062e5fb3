#!/usr/bin/env node
// The npm launcher (the esbuild/biome pattern): the binary comes in the one per-platform
// package npm installed from optionalDependencies (its `os` and `cpu` match this machine),
// so nothing is downloaded at install time. This file finds it and runs it with the same
// arguments, standard streams and exit status; SIGINT, SIGTERM and SIGHUP are passed on,
// and a signal that ends the binary ends this process the same way.
"use strict";

const { spawn } = require("node:child_process");

const platform = `${process.platform}-${process.arch}`;
const pkg = `mcp-conformance-${platform}`;
let binary;
try {
  binary = require.resolve(`${pkg}/bin/mcp-conformance`);
} catch {
  console.error(
    `mcp-conformance: no binary for ${platform}: the package ${pkg} is not installed ` +
      "(npm leaves out optional dependencies with --no-optional or --omit=optional; " +
      "the supported platforms are linux-x64, linux-arm64, darwin-x64 and darwin-arm64)",
  );
  process.exit(2);
}

// Asynchronous, so this process stays to pass signals on: Ctrl-C reaches the binary through
// the terminal's process group already, but a SIGTERM sent to npm or npx alone (a CI
// timeout) must reach it too, and this process must outlive it to hand on its exit status.
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  console.error(`mcp-conformance: cannot run ${binary}: ${error.message}`);
  process.exit(2);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Ended by a signal: end the same way (the handlers above are removed first).
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 2);
});
