// Cold start of the bundled extension under Node, as pi loads it: import the bundle, create the
// extension, load the config (session_start), decide a first bash call (WASM init included).
// Prints one JSON line of milliseconds.
const [bundle, cwd] = process.argv.slice(2);
const t0 = performance.now();
const mod = await import(bundle);
const t1 = performance.now();
const handlers = {};
mod.default({ on: (e, h) => (handlers[e] = h), registerCommand: () => {} });
const ui = { notify: () => {}, select: () => Promise.resolve(undefined), setStatus: () => {} };
const ctx = { cwd, hasUI: false, ui };
await handlers.session_start({}, ctx);
const t2 = performance.now();
await handlers.tool_call({
  toolName: "bash",
  toolCallId: "1",
  input: { command: "git status && ls -la src" },
}, ctx);
const t3 = performance.now();
console.log(
  JSON.stringify({ import: t1 - t0, config: t2 - t1, firstDecision: t3 - t2, total: t3 - t0 }),
);
