/**
 * Make sure the pinned pi (`@mariozechner/pi-coding-agent`) the end-to-end tests run is installed
 * in `.cache/pi/` (gitignored). Does nothing when it is already there; otherwise installs it with
 * npm. `deno task test` and CI run this before the tests, so a clean clone works.
 *
 * Prints the path of pi's CLI (`dist/cli.js`). `PI_CONTROLS_E2E_PI` may point at another
 * `dist/cli.js` (of the same version) to skip the install.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

/** The pi version the end-to-end tests are written against. */
export const PI_VERSION = "0.73.1";
const PACKAGE = "@mariozechner/pi-coding-agent";

const ROOT = new URL("..", import.meta.url).pathname;
/** Where the pinned pi is installed. */
export const PI_DIR: string = join(ROOT, ".cache", "pi");

function installedVersion(dir: string): string | null {
  try {
    const pkg = JSON.parse(
      readFileSync(join(dir, "node_modules", ...PACKAGE.split("/"), "package.json"), "utf8"),
    );
    return typeof pkg.version === "string" ? pkg.version : null;
  } catch {
    return null;
  }
}

/** The CLI of the pinned pi in `.cache/pi`, or null when it is not installed. */
export function installedPiCli(): string | null {
  const override = process.env.PI_CONTROLS_E2E_PI;
  if (override) return existsSync(override) ? override : null;
  const cli = join(PI_DIR, "node_modules", ...PACKAGE.split("/"), "dist", "cli.js");
  return installedVersion(PI_DIR) === PI_VERSION && existsSync(cli) ? cli : null;
}

/** Install the pinned pi into `.cache/pi` when it is missing; returns its CLI path. */
export function ensurePi(): string {
  const have = installedPiCli();
  if (have) return have;
  mkdirSync(PI_DIR, { recursive: true });
  const pkg = join(PI_DIR, "package.json");
  if (!existsSync(pkg)) {
    writeFileSync(
      pkg,
      JSON.stringify({ name: "pi-controls-e2e-pi", private: true, version: "0.0.0" }, null, 2) +
        "\n",
    );
  }
  console.error(`installing ${PACKAGE}@${PI_VERSION} into ${PI_DIR} …`);
  const out = new Deno.Command("npm", {
    args: [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      `${PACKAGE}@${PI_VERSION}`,
    ],
    cwd: PI_DIR,
    stdout: "inherit",
    stderr: "inherit",
  }).outputSync();
  if (!out.success) throw new Error(`npm install ${PACKAGE}@${PI_VERSION} failed (${out.code})`);
  const cli = installedPiCli();
  if (!cli) throw new Error(`${PACKAGE}@${PI_VERSION} is not in ${PI_DIR} after npm install`);
  return cli;
}

if (import.meta.main) {
  try {
    // The end-to-end suite is skipped (as in the Nix check, which has neither npm nor network).
    if (process.env.PI_CONTROLS_SKIP_E2E === "1") {
      console.error("ensure_pi: PI_CONTROLS_SKIP_E2E=1, skipped");
    } else console.log(ensurePi());
  } catch (e) {
    console.error(`ensure_pi: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
