/**
 * Two versions of the engine against each other in one process: `deno task bench:ab [A] [B]`
 * (git revisions; A defaults to HEAD, B to the working tree, written `.`). This machine's speed
 * drifts by a third within an hour, so two runs of `deno task bench` cannot tell a change of a few
 * percent; here each corpus command is decided by A and by B in turn, each right after a bare parse,
 * so both see the same state of the machine. The version loaded second runs a little faster or
 * slower for reasons of its own (where its code lands), so the comparison runs twice, loading them
 * in either order, and the two ratios are combined so that this cancels out. Prints B's median
 * decision time over A's: below 1, B is faster.
 *
 * @example The working tree against the last commit, then two commits
 * ```sh
 * deno task bench:ab
 * deno task bench:ab HEAD~3 HEAD
 * ```
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { median, nl2bash, ROOT as root } from "./corpus.ts";

/** What a version exports for the comparison (the engine, the parser, the bench's fixture). */
interface Version {
  decide: typeof import("../lib/policy/engine.ts").decide;
  loadBashParser: typeof import("../lib/shell/parser.ts").loadBashParser;
  BENCH_CONFIG: typeof import("./fixture.ts").BENCH_CONFIG;
  benchContext: typeof import("./fixture.ts").benchContext;
}

/** The directory holding a revision's `lib/` and `bench/fixture.ts` (the repo for `.`). */
function checkout(rev: string): string {
  if (rev === ".") return root;
  const sha = execFileSync("git", ["-C", root, "rev-parse", "--verify", `${rev}^{commit}`], {
    encoding: "utf8",
  }).trim();
  // Inside the repo, so the npm packages resolve as the working tree's do.
  const dir = join(root, ".cache", "ab", sha);
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync("git", ["-C", root, "archive", sha, "lib", "bench/fixture.ts"], {
    maxBuffer: 1 << 28,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  return dir;
}

async function load(dir: string): Promise<Version> {
  const engine = await import(join(dir, "lib/policy/engine.ts"));
  const parser = await import(join(dir, "lib/shell/parser.ts"));
  const fixture = await import(join(dir, "bench/fixture.ts"));
  return { ...engine, ...parser, ...fixture };
}

/**
 * One comparison: `first` loaded first. Returns, per measured pass, the median decision of the
 * version loaded second over that of the one loaded first.
 */
async function compare(first: string, second: string, passes: number): Promise<number[]> {
  const corpus = nl2bash();
  const versions = [await load(first), await load(second)];
  // One parser for both: the tree-sitter package is one module, whose language loads once.
  const parser = await versions[0].loadBashParser();
  const contexts = versions.map((v) => v.benchContext(root));
  const half = Math.floor(corpus.length / 2);
  const ratios: number[] = [];
  // Two passes let V8 and the filesystem settle; each pass pads the commands its own way, so
  // every decision is a fresh analysis.
  for (let pass = 0; pass < passes + 2; pass++) {
    const pad = " ".repeat(pass + 1);
    const times: number[][] = [[], []];
    for (let i = 0; i < corpus.length; i++) {
      const command = corpus[(i + half) % corpus.length] + pad;
      // (Which goes first alternates, command by command.)
      for (let k = 0; k < 2; k++) {
        const which = (i + pass + k) % 2;
        const v = versions[which];
        parser.parse(corpus[i] + pad + (k ? " " : ""))!.delete();
        const t = performance.now();
        v.decide(v.BENCH_CONFIG, { tool: "bash", input: { command } }, contexts[which], { parser });
        times[which].push(performance.now() - t);
      }
    }
    if (pass >= 2) ratios.push(median(times[1]) / median(times[0]));
  }
  return ratios;
}

if (Deno.args[0] === "--compare") {
  // A child run: print the ratios as JSON.
  const [, first, second, passes] = Deno.args;
  console.log(JSON.stringify(await compare(first, second, Number(passes))));
} else {
  const [a = "HEAD", b = "."] = Deno.args.filter((x) => !x.startsWith("--"));
  const passes = Number(Deno.args.find((x) => x.startsWith("--passes="))?.slice(9) ?? 5);
  const dirs = [checkout(a), checkout(b)];
  const run = (first: string, second: string): number[] => {
    const out = execFileSync(
      Deno.execPath(),
      [
        "run",
        "--allow-all",
        import.meta.url.replace("file://", ""),
        "--compare",
        first,
        second,
        String(passes),
      ],
      { encoding: "utf8", cwd: root, stdio: ["ignore", "pipe", "inherit"] },
    );
    return JSON.parse(out.trim().split("\n").pop()!);
  };
  // B over A with A loaded first, then A over B with B loaded first: their geometric mean ratio is
  // B over A with the loading order's own effect cancelled.
  const ab = median(run(dirs[0], dirs[1]));
  const ba = median(run(dirs[1], dirs[0]));
  const ratio = Math.sqrt(ab / ba);
  console.log(
    `${b === "." ? "working tree" : b} / ${a}: median decision ${ratio.toFixed(3)}x ` +
      `(${
        ratio < 1
          ? `${((1 - ratio) * 100).toFixed(1)}% faster`
          : `${((ratio - 1) * 100).toFixed(1)}% slower`
      }; ` +
      `runs ${ab.toFixed(3)} and ${(1 / ba).toFixed(3)}, loading order ${
        Math.sqrt(ab * ba).toFixed(3)
      })`,
  );
}
