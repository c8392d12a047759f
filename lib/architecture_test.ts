/**
 * The shape of lib/ as the architecture promises it (README, "Architecture"): no file over 800
 * lines, no function over 120 lines, no import cycle, and arrows only downward between the layers
 * of the bash analysis: `policy/` → `programs/` → `shell/`.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const LIB = fileURLToPath(new URL(".", import.meta.url));
const MAX_FILE_LINES = 800;
const MAX_FUNCTION_LINES = 120;

/** Every .ts file under lib/, relative to it. */
function sources(dir = LIB): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith(".ts")) out.push(relative(LIB, path));
  }
  return out;
}

const FILES = sources();
const TEXT = new Map(FILES.map((f) => [f, readFileSync(join(LIB, f), "utf8")]));

/** The lib/ files a file imports (static and dynamic imports and re-exports of relative paths). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const { fileName } of ts.preProcessFile(TEXT.get(file)!, true, true).importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const target = relative(LIB, resolve(LIB, dirname(file), fileName));
    if (!target.startsWith("..")) out.push(target);
  }
  return out;
}

/** The layers of the analysis, lowest first; files elsewhere in lib/ sit above all three. */
const LAYERS = ["shell/", "programs/", "policy/"];
/** Modules with no imports of their own that every layer may use. */
const LEAVES = new Set(["types.ts"]);

function layerOf(file: string): number {
  const i = LAYERS.findIndex((l) => file.startsWith(l));
  return i === -1 ? LAYERS.length : i;
}

Deno.test(`architecture: no file in lib/ is over ${MAX_FILE_LINES} lines`, () => {
  const long = FILES.map((f) => [f, TEXT.get(f)!.trimEnd().split("\n").length] as const)
    .filter(([, n]) => n > MAX_FILE_LINES).map(([f, n]) => `${f}: ${n}`);
  assert.deepEqual(long, []);
});

Deno.test(`architecture: no function in lib/ source is over ${MAX_FUNCTION_LINES} lines`, () => {
  const long: string[] = [];
  for (const file of FILES.filter((f) => !f.endsWith("_test.ts"))) {
    const sf = ts.createSourceFile(file, TEXT.get(file)!, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (end - start + 1 > MAX_FUNCTION_LINES) {
          const name = node.name?.getText(sf) ?? "(anonymous)";
          long.push(`${file}:${start + 1} ${name}: ${end - start + 1}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  assert.deepEqual(long, []);
});

Deno.test("architecture: the import graph of lib/ has no cycle", () => {
  const graph = new Map(FILES.map((f) => [f, importsOf(f)]));
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, "done");
  };
  for (const f of FILES) visit(f, []);
  assert.deepEqual(cycles, []);
});

Deno.test("architecture: shell/ knows no program, programs/ no policy (arrows only downward)", () => {
  // (Tests may use the helpers of any layer: an analysis is often checked by the verdict it gives.)
  const upward: string[] = [];
  const layered = FILES.filter((f) => layerOf(f) < LAYERS.length && !f.endsWith("_test.ts"));
  for (const file of layered) {
    for (const target of importsOf(file)) {
      if (LEAVES.has(target)) continue;
      if (layerOf(target) > layerOf(file)) upward.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(upward, []);
  for (const layer of LAYERS) {
    assert.ok(FILES.some((f) => f.startsWith(layer)), `lib/${layer} holds modules`);
  }
});
