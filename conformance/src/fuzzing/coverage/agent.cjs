// mcp-conformance's coverage agent for Node servers (preloaded by `fuzz --coverage` through
// NODE_OPTIONS=--require; nothing is installed). It turns on V8's precise block coverage
// through the inspector (in this process: no port is opened) and, each time the fuzzer asks
// (SIGUSR2, after a case), takes the block counts of the server's own files (not
// node_modules, unless the entry point lives there: then its package's) and writes them as
// 65,536 edge counters into the file `map` of the folder MCP_CONFORMANCE_COVERAGE names,
// never to stdout. Files there:
//   map              64-byte header (bytes 8..12: the pid that counts; 12..16: the
//                    fuzzer's request number; 16..20: the last request answered), then
//                    the counters
//   agent-PID.json   what this process is (language, version, role, scope, error)
//   lines-PID.json   per file in scope, its lines and those run, written at most once a
//                    second and whenever a request asks for it (bit 31)
'use strict';
// Node programs that start the real server in a child process: they stay uncounted.
const LAUNCHERS = new Set(['npm', 'npx', 'pnpm', 'yarn', '@yarnpkg/cli-dist', 'corepack', 'tsx', 'nodemon']);
(function mcpCoverageAgent() {
  const folder = process.env.MCP_CONFORMANCE_COVERAGE;
  const fs = require('fs');
  const path = require('path');
  if (!folder || !fs.existsSync(folder)) return;
  const pid = process.pid;
  const status = {
    language: 'node',
    version: process.versions.node,
    pid,
    argv: process.argv.slice(1),
    executable: process.execPath,
  };
  const say = (fields) => {
    Object.assign(status, fields);
    const tmp = path.join(folder, `.agent-${pid}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(status));
    fs.renameSync(tmp, path.join(folder, `agent-${pid}.json`));
  };
  try {
    const major = Number(process.versions.node.split('.')[0]);
    if (major < 18) {
      say({ role: 'refused', error: `Node ${process.versions.node} is older than 18, the oldest the agent supports` });
      return;
    }
    const entry = realpath(process.argv[1] || '');
    const entryPackage = packageOf(entry);
    if (entryPackage && LAUNCHERS.has(entryPackage.name)) {
      say({ role: 'launcher' });
      return;
    }
    if (!claim(folder, pid)) {
      say({ role: 'extra' });
      return;
    }
    const include = (process.env.MCP_CONFORMANCE_COVERAGE_INCLUDE || '')
      .split(path.delimiter).filter(Boolean).map(realpath);
    const root = entry.includes(`${path.sep}node_modules${path.sep}`) && entryPackage ? entryPackage.dir : null;
    if (root) include.push(root);
    const agentFile = realpath(__filename);
    const scopeCache = new Map();
    const under = (file, dir) => file === dir || file.startsWith(dir + path.sep);
    const inScope = (url) => {
      let known = scopeCache.get(url);
      if (known !== undefined) return known;
      known = null;
      let file = null;
      if (url.startsWith('file:')) {
        try { file = require('url').fileURLToPath(url); } catch (_) { file = null; }
      } else if (path.isAbsolute(url)) {
        file = url;
      }
      if (file) {
        file = realpath(file);
        const nested = (dir) => file.slice(dir.length).includes(`${path.sep}node_modules${path.sep}`);
        let counted = false;
        if (file === agentFile) counted = false;
        else if (include.some((dir) => under(file, dir) && !nested(dir))) counted = true;
        else if (!root) counted = !file.includes(`${path.sep}node_modules${path.sep}`);
        if (counted) known = { file, base: fnv(file) };
      }
      scopeCache.set(url, known);
      return known;
    };

    const inspector = require('inspector');
    const session = new inspector.Session();
    session.connect();
    const post = (method, params) => {
      let out;
      let failure;
      session.post(method, params || {}, (err, result) => { failure = err; out = result; });
      if (failure) throw failure;
      return out;
    };
    post('Profiler.enable');
    post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

    const mapFd = fs.openSync(path.join(folder, 'map'), 'r+');
    const HEADER = 64;
    const MASK = 0xffff;
    const edges = new Uint8Array(MASK + 1);
    const word = Buffer.alloc(4);
    // Per file in scope: every block seen ("start:end" -> whether it ever ran, and the
    // function it belongs to, by its own range).
    const blocks = new Map();
    let dirty = false;
    let written = 0;
    const take = () => {
      fs.readSync(mapFd, word, 0, 4, 12);
      const request = word.readUInt32LE(0);
      edges.fill(0);
      const { result } = post('Profiler.takePreciseCoverage');
      for (const script of result) {
        const scope = inScope(script.url);
        if (!scope) continue;
        let seen = blocks.get(scope.file);
        if (!seen) { seen = new Map(); blocks.set(scope.file, seen); dirty = true; }
        for (const fn of script.functions) {
          if (fn.ranges.length && fn.ranges[0].count > 0) dirty = count(scope, seen, fn.ranges) || dirty;
        }
      }
      fs.writeSync(mapFd, edges, 0, edges.length, HEADER);
      const now = Date.now();
      if ((request & 0x80000000) || (dirty && now - written >= 1000)) {
        writeLines(folder, pid, blocks);
        dirty = false;
        written = now;
      }
      word.writeUInt32LE(request >>> 0, 0);
      fs.writeSync(mapFd, word, 0, 4, 16);
    };
    // One function that ran since the last take. V8 reports a block only where its count
    // differs from the block around it, so a block's count is that of the innermost
    // block reported around it: each reported block is a feature (one never run is a
    // feature of its own: "this branch not taken"), and a block of this function seen
    // before as never run now ran if the innermost block reported around it did.
    const count = (scope, seen, ranges) => {
      let changed = false;
      const owner = `${ranges[0].startOffset}:${ranges[0].endOffset}`;
      const reported = new Set();
      for (const range of ranges) {
        const key = `${range.startOffset}:${range.endOffset}`;
        const ran = range.count > 0;
        reported.add(key);
        const before = seen.get(key);
        if (!before) { seen.set(key, { ran, owner }); changed = true; }
        else if (ran && !before.ran) { before.ran = true; changed = true; }
        const i = (scope.base ^ Math.imul(range.startOffset, 0x9e3779b1) ^ Math.imul(range.endOffset, 40503) ^ (ran ? 0 : 0x5bd1)) & MASK;
        const v = edges[i] + (ran ? Math.min(range.count, 255) : 1);
        edges[i] = v > 255 ? 255 : v;
      }
      for (const [key, block] of seen) {
        if (block.ran || block.owner !== owner || reported.has(key)) continue;
        const [s, e] = key.split(':').map(Number);
        let inner = null;
        for (const r of ranges) {
          if (r.startOffset <= s && e <= r.endOffset && (!inner || r.endOffset - r.startOffset < inner.endOffset - inner.startOffset)) inner = r;
        }
        if (inner && inner.count > 0) { block.ran = true; changed = true; }
      }
      return changed;
    };
    process.on('SIGUSR2', () => {
      try { take(); } catch (e) { say({ error: `the agent failed: ${e && e.message}` }); }
    });
    // Only now the fuzzer may signal this process: its pid goes in the map's header.
    word.writeUInt32LE(pid, 0);
    fs.writeSync(mapFd, word, 0, 4, 8);
    say({ role: 'owner', mode: 'v8 precise coverage', scope: { include, entry_package: root } });
  } catch (e) {
    try { say({ role: 'refused', error: `the agent failed: ${e && e.message}` }); } catch (_) { /* nothing to say it to */ }
  }

  function realpath(p) {
    try { return fs.realpathSync(p); } catch (_) { return p; }
  }

  function packageOf(file) {
    let dir = path.dirname(file);
    for (;;) {
      const manifest = path.join(dir, 'package.json');
      if (fs.existsSync(manifest)) {
        try { return { dir, name: JSON.parse(fs.readFileSync(manifest, 'utf8')).name }; } catch (_) { return { dir, name: null }; }
      }
      const up = path.dirname(dir);
      if (up === dir) return null;
      dir = up;
    }
  }

  function claim(dir, me) {
    const owner = path.join(dir, 'owner');
    for (let i = 0; i < 2; i++) {
      try {
        fs.writeFileSync(owner, String(me), { flag: 'wx' });
        return true;
      } catch (e) {
        if (e.code !== 'EEXIST') return false;
        let holder = 0;
        try { holder = Number(fs.readFileSync(owner, 'utf8').trim()) || 0; } catch (_) { return false; }
        if (holder && holder !== me && alive(holder)) return false;
        try { fs.unlinkSync(owner); } catch (_) { return false; }
      }
    }
    return false;
  }

  // A process killed but not yet reaped (a zombie) no longer counts.
  function alive(other) {
    try { process.kill(other, 0); } catch (e) { return e.code === 'EPERM'; }
    try {
      const stat = fs.readFileSync(`/proc/${other}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/)[0] !== 'Z';
    } catch (_) { return true; }
  }

  function fnv(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193); }
    return h >>> 0;
  }

  // Lines as c8 counts them: a line is run unless it lies inside a block never run; every
  // non-blank line counts.
  function writeLines(dir, me, blocks) {
    const files = {};
    for (const [file, seen] of blocks) {
      let text;
      try { text = fs.readFileSync(file, 'utf8'); } catch (_) { continue; }
      const starts = [0];
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
      const lines = [];
      const hit = [];
      const never = [];
      for (const [key, block] of seen) {
        if (!block.ran) { const [s, e] = key.split(':').map(Number); never.push([s, e]); }
      }
      for (let n = 0; n < starts.length; n++) {
        const s = starts[n];
        const e = n + 1 < starts.length ? starts[n + 1] - 1 : text.length;
        const body = text.slice(s, e);
        const first = s + (body.length - body.trimStart().length);
        if (body.trim() === '') continue;
        lines.push(n + 1);
        if (!never.some(([a, b]) => a <= first && e <= b)) hit.push(n + 1);
      }
      files[file] = { lines, hit };
    }
    const tmp = path.join(dir, `.lines-${me}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify({ files }));
    fs.renameSync(tmp, path.join(dir, `lines-${me}.json`));
  }
})();

