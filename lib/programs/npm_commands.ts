/**
 * The commands of npm and pnpm as they read their first word. npm (lib/utils/cmd-list.js `deref`)
 * takes a camelCase name as kebab-case, its commands and aliases by name (`npm i`, `npm x`, `npm
 * rum`, `npm isntall`) and any unique prefix of them (`npm exe`, `npm explo`, `npm pu`), each alias
 * then read as the command it stands for: `npm exe -- rm x` is `npm exec -- rm x`. pnpm (its
 * parse-cli-args) reads `pm` first as "pnpm's own command" and `recursive`, `multi` or `m` as
 * "in every package", then the command after them: `pnpm m exec rm x` is `pnpm exec rm x` run in
 * each package.
 *
 * @example
 * ```ts
 * import { npmCommand } from "./npm_commands.ts";
 * npmCommand("exe"); // "exec"
 * npmCommand("isntall"); // "install"
 * npmCommand("e"); // undefined (edit, exec, explain, explore: not one)
 * ```
 *
 * @module
 */

/** npm's commands (lib/utils/cmd-list.js, npm 11). */
// deno-fmt-ignore
const NPM_COMMANDS = ["access", "approve-scripts", "audit", "bugs", "cache", "ci", "completion",
  "config", "dedupe", "deny-scripts", "deprecate", "diff", "dist-tag", "docs", "doctor", "edit",
  "exec", "explain", "explore", "find-dupes", "fund", "get", "help", "help-search", "init",
  "install", "install-ci-test", "install-test", "link", "ll", "login", "logout", "ls", "org",
  "outdated", "owner", "pack", "ping", "pkg", "prefix", "profile", "prune", "publish", "query",
  "rebuild", "repo", "restart", "root", "run", "sbom", "search", "set", "stage", "start", "stop",
  "team", "test", "token", "trust", "undeprecate", "uninstall", "unpublish", "update", "version",
  "view", "whoami",
  // (Older npm's, still read by the npm many machines have: `run-script` is `run` in npm 11.)
  "hook", "set-script", "shrinkwrap", "star", "stars", "unstar", "birthday", "adduser"];

/** npm's aliases, each read as the command it names (cmd-list.js). */
const NPM_ALIASES: Readonly<Record<string, string>> = {
  author: "owner",
  home: "docs",
  issues: "bugs",
  info: "view",
  show: "view",
  find: "search",
  add: "install",
  unlink: "uninstall",
  remove: "uninstall",
  rm: "uninstall",
  r: "uninstall",
  un: "uninstall",
  rb: "rebuild",
  list: "ls",
  ln: "link",
  create: "init",
  i: "install",
  it: "install-test",
  cit: "install-ci-test",
  u: "update",
  up: "update",
  c: "config",
  s: "search",
  se: "search",
  tst: "test",
  t: "test",
  ddp: "dedupe",
  v: "view",
  "run-script": "run",
  "clean-install": "ci",
  "clean-install-test": "install-ci-test",
  x: "exec",
  why: "explain",
  la: "ll",
  verison: "version",
  ic: "ci",
  innit: "init",
  in: "install",
  ins: "install",
  inst: "install",
  insta: "install",
  instal: "install",
  isnt: "install",
  isnta: "install",
  isntal: "install",
  isntall: "install",
  "install-clean": "ci",
  "isntall-clean": "ci",
  hlep: "help",
  "dist-tags": "dist-tag",
  upgrade: "update",
  udpate: "update",
  rum: "run",
  sit: "install-ci-test",
  urn: "run",
  ogr: "org",
  "add-user": "adduser",
};

let prefixes: Map<string, string> | null = null;

/**
 * The `abbrev` package's table of the commands and aliases: each name by itself, and every
 * prefix of one that no other name starts with.
 */
function abbreviations(): Map<string, string> {
  const names = [...new Set([...NPM_COMMANDS, ...Object.keys(NPM_ALIASES)])];
  const out = new Map<string, string>();
  const count = new Map<string, number>();
  for (const n of names) {
    for (let k = 1; k < n.length; k++) {
      count.set(n.slice(0, k), (count.get(n.slice(0, k)) ?? 0) + 1);
    }
  }
  for (const n of names) {
    for (let k = 1; k < n.length; k++) {
      if (count.get(n.slice(0, k)) === 1) out.set(n.slice(0, k), n);
    }
  }
  for (const n of names) out.set(n, n);
  return out;
}

/** The command npm reads a first word as (`deref`), undefined for none. */
export function npmCommand(word: string): string | undefined {
  // (camelCase as kebab-case: `installTest` is `install-test`.)
  const c = /[A-Z]/.test(word) ? word.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`) : word;
  if (NPM_COMMANDS.includes(c)) return c;
  if (Object.hasOwn(NPM_ALIASES, c)) return NPM_ALIASES[c];
  prefixes ??= abbreviations();
  let a = prefixes.get(c);
  for (let i = 0; a !== undefined && Object.hasOwn(NPM_ALIASES, a) && i < 3; i++) {
    a = NPM_ALIASES[a];
  }
  return a;
}

/**
 * pnpm's words before its command that are no command themselves: `pm` (pnpm's own command, not
 * a script of that name) and `recursive`, `multi`, `m` (the command in every package).
 */
export const PNPM_PREFIXES: ReadonlySet<string> = new Set(["pm", "recursive", "multi", "m"]);
