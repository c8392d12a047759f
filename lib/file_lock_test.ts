import assert from "node:assert/strict";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { withFileLock } from "./file_lock.ts";

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), "pi-controls-lock-")), "config.jsonc");
}

/** A process that is certainly dead (and reaped): its pid is free. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

/** Start `deno eval` of `code`, with `withFileLock` imported. */
function evalWithLock(code: string): Deno.ChildProcess {
  const lib = JSON.stringify(new URL("./file_lock.ts", import.meta.url).href);
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", `import { withFileLock } from ${lib};\n${code}`],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function until(done: () => boolean): Promise<void> {
  const end = Date.now() + 15_000;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function succeeds(child: Deno.ChildProcess): Promise<void> {
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

Deno.test("the lock is held, with this pid, while fn runs, and released after, also on throw", () => {
  const file = tempFile();
  const result = withFileLock(file, () => {
    const owner = JSON.parse(readFileSync(`${file}.lock`, "utf8"));
    assert.equal(owner.pid, process.pid);
    assert.ok(Math.abs(owner.time - Date.now()) < 5000);
    return 42;
  });
  assert.equal(result, 42);
  assert.equal(existsSync(`${file}.lock`), false);
  assert.throws(() => withFileLock(file, () => assert.fail("inside")), /inside/);
  assert.equal(existsSync(`${file}.lock`), false);
  // Not re-entrant: taking it again inside would wait for itself.
  assert.throws(
    () => withFileLock(file, () => withFileLock(file, () => 0)),
    /already locked by this process/,
  );
  assert.deepEqual(readdirSync(join(file, "..")), []);
});

Deno.test("a stale lock is broken: its process is dead, or it is too old", async () => {
  const file = tempFile();
  const lock = `${file}.lock`;
  writeFileSync(lock, JSON.stringify({ pid: await deadPid(), time: Date.now() }));
  assert.equal(withFileLock(file, () => "ran", { timeoutMs: 100 }), "ran");
  assert.equal(existsSync(lock), false);
  // Left by an earlier process with this pid (pids restart in containers).
  writeFileSync(lock, JSON.stringify({ pid: process.pid, time: Date.now() }));
  assert.equal(withFileLock(file, () => "ran", { timeoutMs: 100 }), "ran");
  // A live process's lock older than staleMs (hung, or its pid reused).
  const live = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    writeFileSync(lock, JSON.stringify({ pid: live.pid, time: Date.now() - 60_000 }));
    assert.equal(withFileLock(file, () => "ran", { timeoutMs: 100, staleMs: 30_000 }), "ran");
  } finally {
    live.kill();
    await live.status;
  }
  // An empty lock (its taker died before writing it) is judged by its mtime.
  writeFileSync(lock, "");
  assert.throws(() => withFileLock(file, () => 0, { timeoutMs: 50 }), /held by an unknown/);
  utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  assert.equal(withFileLock(file, () => "ran", { timeoutMs: 50 }), "ran");
  // A breaker that died in its turn to break a stale lock.
  writeFileSync(lock, JSON.stringify({ pid: await deadPid(), time: Date.now() }));
  writeFileSync(`${lock}.break`, JSON.stringify({ pid: await deadPid(), time: Date.now() }));
  assert.equal(withFileLock(file, () => "ran", { timeoutMs: 100 }), "ran");
  assert.deepEqual(readdirSync(join(file, "..")), []);
});

Deno.test("a live holder makes another taker wait, which then gets the lock", async () => {
  const file = tempFile();
  const ready = `${file}.ready`;
  const holder = evalWithLock(`import { writeFileSync } from "node:fs";
withFileLock(${JSON.stringify(file)}, () => {
  writeFileSync(${JSON.stringify(ready)}, "");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
});`);
  await until(() => existsSync(ready));
  const started = Date.now();
  const owner = withFileLock(file, () => JSON.parse(readFileSync(`${file}.lock`, "utf8")).pid);
  assert.ok(Date.now() - started >= 300, `waited only ${Date.now() - started} ms`);
  assert.equal(owner, process.pid);
  await succeeds(holder);
});

Deno.test("waiting too long throws, naming the file and the holder's pid", async () => {
  const file = tempFile();
  const lock = `${file}.lock`;
  const live = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    const text = JSON.stringify({ pid: live.pid, time: Date.parse("2030-01-02T03:04:05Z") });
    writeFileSync(lock, text);
    let ran = false;
    const started = Date.now();
    assert.throws(() => withFileLock(file, () => ran = true, { timeoutMs: 150 }), {
      message: `${file}: gave up waiting for the lock after 150 ms: ${lock} is held by pid ` +
        `${live.pid} since 2030-01-02T03:04:05.000Z`,
    });
    assert.ok(Date.now() - started >= 150);
    assert.equal(ran, false);
    assert.equal(readFileSync(lock, "utf8"), text);
  } finally {
    live.kill();
    await live.status;
  }
});

Deno.test("processes taking the lock at once exclude each other, also breaking stale locks", async () => {
  const file = tempFile();
  const processes = 6;
  const rounds = 20;
  writeFileSync(file, "0");
  // Each holder but the last "dies" holding the lock: its waiters all find the same stale lock.
  const dead = JSON.stringify({ pid: await deadPid(), time: Date.now() });
  writeFileSync(`${file}.lock`, dead);
  const go = `${file}.go`;
  const children = Array.from(
    { length: processes },
    (_, i) =>
      evalWithLock(`import * as fs from "node:fs";
const file = ${JSON.stringify(file)};
fs.writeFileSync(file + ".ready${i}", "");
while (!fs.existsSync(${
        JSON.stringify(go)
      })) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
for (let r = 0; r < ${rounds}; r++) {
  withFileLock(file, () => {
    fs.closeSync(fs.openSync(file + ".inside", "wx")); // throws if another process is inside
    fs.writeFileSync(file, String(Number(fs.readFileSync(file, "utf8")) + 1));
    fs.unlinkSync(file + ".inside");
    if (r === ${rounds - 1}) return;
    fs.writeFileSync(file + ".dead${i}", ${JSON.stringify(dead)});
    fs.renameSync(file + ".dead${i}", file + ".lock");
  });
}`),
  );
  const dir = join(file, "..");
  await until(() => readdirSync(dir).filter((f) => f.includes(".ready")).length === processes);
  writeFileSync(go, "");
  for (const child of children) await succeeds(child);
  assert.equal(readFileSync(file, "utf8"), String(processes * rounds));
  assert.deepEqual(readdirSync(dir).filter((f) => !/\.(ready\d|go)$/.test(f)), ["config.jsonc"]);
});
