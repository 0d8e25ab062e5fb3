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
    // Per file in scope: its text's line starts, every function seen (by its range), the
    // lines run, and the reports already turned into lines (most takes repeat one).
    const files = new Map();
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
        const file = fileState(scope.file);
        // Every function first, so that the lines of one inside another are its own.
        for (const fn of script.functions) {
          const [whole] = fn.ranges;
          if (whole) file.functions.set(`${whole.startOffset}:${whole.endOffset}`, [whole.startOffset, whole.endOffset]);
        }
        for (const fn of script.functions) {
          if (!fn.ranges.length || fn.ranges[0].count === 0) continue;
          count(scope, fn.ranges);
          const signature = JSON.stringify(fn.ranges.map((r) => [r.startOffset, r.endOffset, r.count > 0]));
          if (!file.reports.has(signature)) {
            file.reports.add(signature);
            dirty = markRun(file, fn.ranges) || dirty;
          }
        }
      }
      fs.writeSync(mapFd, edges, 0, edges.length, HEADER);
      const now = Date.now();
      if ((request & 0x80000000) || (dirty && now - written >= 1000)) {
        writeLines(folder, pid, files);
        dirty = false;
        written = now;
      }
      word.writeUInt32LE(request >>> 0, 0);
      fs.writeSync(mapFd, word, 0, 4, 16);
    };
    const fileState = (file) => {
      let state = files.get(file);
      if (!state) {
        let text = '';
        try { text = fs.readFileSync(file, 'utf8'); } catch (_) { /* counted without lines */ }
        const starts = [0];
        for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
        // Each line's first non-blank offset, or -1 for a blank line.
        const firsts = starts.map((at, n) => {
          const end = n + 1 < starts.length ? starts[n + 1] - 1 : text.length;
          for (let i = at; i < end; i++) if (!/\s/.test(text[i])) return i;
          return -1;
        });
        state = { firsts, functions: new Map(), reports: new Set(), hit: new Set() };
        files.set(file, state);
        dirty = true;
      }
      return state;
    };
    // V8 reports a block only where its count differs from the block around it. Each
    // reported block is a feature, and one not run ("this branch not taken") one of its own.
    const count = (scope, ranges) => {
      for (const range of ranges) {
        const ran = range.count > 0;
        const i = (scope.base ^ Math.imul(range.startOffset, 0x9e3779b1) ^ Math.imul(range.endOffset, 40503) ^ (ran ? 0 : 0x5bd1)) & MASK;
        const v = edges[i] + (ran ? Math.min(range.count, 255) : 1);
        edges[i] = v > 255 ? 255 : v;
      }
    };
    // The lines a function that ran has run: those in its range, but in a block of it not
    // run, or in another function inside it (which reports its own).
    const markRun = (file, ranges) => {
      const [whole] = ranges;
      const [s, e] = [whole.startOffset, whole.endOffset];
      const notRun = ranges.filter((r) => r.count === 0).map((r) => [r.startOffset, r.endOffset]);
      const inner = [...file.functions.values()].filter(([a, b]) => s <= a && b <= e && (a !== s || b !== e));
      const inside = (at, spans) => spans.some(([a, b]) => a <= at && at < b);
      let changed = false;
      file.firsts.forEach((at, n) => {
        if (at < s || at >= e || file.hit.has(n + 1)) return;
        if (inside(at, notRun) || inside(at, inner)) return;
        file.hit.add(n + 1);
        changed = true;
      });
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

  // Every non-blank line counts (as c8 counts them), and those a function that ran ran.
  function writeLines(dir, me, files) {
    const out = {};
    for (const [file, state] of files) {
      const lines = [];
      state.firsts.forEach((at, n) => { if (at >= 0) lines.push(n + 1); });
      out[file] = { lines, hit: [...state.hit].sort((a, b) => a - b) };
    }
    const tmp = path.join(dir, `.lines-${me}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify({ files: out }));
    fs.renameSync(tmp, path.join(dir, `lines-${me}.json`));
  }
})();

