/**
 * The options of the package runners' commands (`npm exec`/`npx`, `pnpm exec`/`dlx`, `bunx`, `uv
 * run`/`uvx`, `poetry run`), as their manuals list them: an everyday option is known, so the
 * command after it needs no guess (one not known is read both ways, and the reading where it takes
 * the next word is a guess; see `runCommandWords`).
 *
 * @module
 */
import type { OptionGrammar } from "./argv.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);
/** `--name` for each of the names. */
const longs = (names: string): string[] => names.split(/\s+/).filter(Boolean).map((n) => `--${n}`);

/**
 * npm's settings that are switches (its config definitions of type Boolean; `--no-NAME` too): npm
 * reads them as taking no value (a `true`/`false` after one is its value: `NPM_BOOLEAN_VALUES`).
 */
// deno-fmt-ignore
const NPM_SWITCHES = `all allow-same-version audit bin-links bypass-2fa commit-hooks
  dangerously-allow-all-scripts description dev diff-ignore-all-space diff-name-only diff-no-prefix
  diff-text dry-run engine-strict expect-results force foreground-scripts format-package-lock fund
  git-tag-version global global-style if-present ignore-scripts include-staged
  include-workspace-root include-attestations init-private install-links json legacy-bundling
  legacy-peer-deps link long offline omit-lockfile-registry-resolved optional package-lock
  package-lock-only parseable allow-scripts-pending allow-scripts-pin prefer-dedupe prefer-offline
  prefer-online production progress provenance read-only rebuild-bundle save save-bundle save-dev
  save-exact save-optional save-peer save-prod packages-all shrinkwrap sign-git-commit sign-git-tag
  strict-peer-deps strict-allow-scripts strict-ssl timing unicode update-notifier usage version
  versions workspaces workspaces-update yes`;
/** npm's shorthands for switches and npx's own (`--no` is `--no-yes`, `--ws` `--workspaces`). */
const NPM_SHORTHANDS = "no no-install quiet silent verbose help local porcelain readonly iwr ws";
/** npm's settings that take a value (String, Number, path, URL, ... types). */
// deno-fmt-ignore
const NPM_VALUED = `access allow-directory allow-file allow-git allow-remote allow-scripts also
  audit-level auth-type before browser ca cache cache-max cache-min cafile call cert cidr cpu depth
  diff diff-dst-prefix diff-src-prefix diff-unified editor expect-result-count expires
  fetch-retries fetch-retry-factor fetch-retry-maxtimeout fetch-retry-mintimeout fetch-timeout git
  globalconfig heading https-proxy include init-author-email init-author-name init-author-url
  init-license init-module init-type init-version install-strategy key libc local-address location
  lockfile-version loglevel logs-dir logs-max name maxsockets message min-release-age
  min-release-age-exclude node-gyp node-options noproxy omit only orgs os otp package
  pack-destination packages prefix preid provenance-file proxy registry replace-registry-host
  save-prefix sbom-format sbom-type scope scopes script-shell searchexclude searchlimit searchopts
  searchstaleness shell tag tag-version-prefix umask user-agent userconfig viewer which workspace
  reg desc enjoy-by npm node-arg`;

/**
 * `npm exec`/`npx`: npm's settings (its switches, `--no-` ones too, and valued ones). Short: `-y`
 * `--yes`, `-q`/`-s`/`-d` log levels, `-f`, `-g`, `-a`, `-l`, `-S`… switches; `-p` `--package`, `-c`
 * `--call`, `-w` `--workspace`, `-C` `--prefix`, `-L` `--location`, `-m` `--message`, and `-n`
 * (removed from npx, cut out with its value).
 */
export const NPM_EXEC_OPTIONS: OptionGrammar = {
  flags: "yqsdfgalSBDEOPhv?H",
  valued: "pcwnCLm",
  longFlags: new Set([
    ...longs(NPM_SWITCHES),
    ...longs(NPM_SWITCHES).map((o) => `--no-${o.slice(2)}`),
    ...longs(NPM_SHORTHANDS),
    "--ignore-existing",
    "--always-spawn",
    "--shell-auto-fallback",
  ]),
  longValued: new Set(longs(NPM_VALUED)),
};

/**
 * npm reads a `true` or `false` after a switch as its value (nopt: `npm exec --yes true rm x` runs
 * `rm x`).
 */
export const NPM_BOOLEAN_VALUES: ReadonlySet<string> = set("true", "false");

/** pnpm's options every command takes (`--dir`, `--filter`, reporting). */
// deno-fmt-ignore
const PNPM_COMMON_FLAGS = ["--recursive", "--workspace-root", "--silent", "--stream", "--parallel",
  "--aggregate-output", "--use-stderr", "--color", "--no-color", "--sort", "--no-sort", "--reverse",
  "--bail", "--no-bail", "--report-summary", "--reporter-hide-prefix", "--no-reporter-hide-prefix",
  "--include-workspace-root", "--fail-if-no-match", "--help", "--shell-mode", "--if-present"];
// deno-fmt-ignore
const PNPM_COMMON_VALUED = ["--dir", "--filter", "--filter-prod", "--reporter", "--loglevel",
  "--workspace-concurrency", "--resume-from", "--changed-files-ignore-pattern", "--test-pattern",
  "--package", "--allow-build", "--config"];

/**
 * `pnpm exec`, `pnpm dlx` (and `pnpx`): `-c`/`--shell-mode`, `-r`, `-w`, `-s`, `-h` take no
 * value; `-C` (`--dir`), `-F` (`--filter`) one.
 */
export const PNPM_EXEC_OPTIONS: OptionGrammar = {
  flags: "crwsh",
  valued: "CF",
  longFlags: new Set(PNPM_COMMON_FLAGS),
  longValued: new Set(PNPM_COMMON_VALUED),
};

/** `bunx`/`bun x`: `--bun`, `--silent`, `--verbose`, `--no-install`; `-p`/`--package PKG`. */
export const BUNX_OPTIONS: OptionGrammar = {
  flags: "h",
  valued: "p",
  longFlags: set("--bun", "--silent", "--verbose", "--no-install", "--help"),
  longValued: set("--package"),
};

/** uv's global options, taken after the subcommand too (its `TopLevelArgs`, `CacheArgs`). */
// deno-fmt-ignore
const UV_GLOBAL_FLAGS = `allow-python-downloads help isolated managed-python native-tls no-cache
  no-cache-dir no-color no-config no-installer-metadata no-managed-python no-native-tls no-offline
  no-preview no-progress no-python-downloads no-system-certs offline preview quiet show-settings
  system-certs verbose version`;
// deno-fmt-ignore
const UV_GLOBAL_VALUED = `allow-insecure-host cache-dir color config-file directory preview-feature
  preview-features project python-fetch python-preference trusted-host`;
/** The resolver and installer options of `uv run` and `uv tool run` (`ResolverInstallerArgs`, …). */
// deno-fmt-ignore
const UV_RESOLVER_FLAGS = `binary build build-isolation compile compile-bytecode force-reinstall
  no-binary no-build no-build-isolation no-compile no-compile-bytecode no-env-file no-index
  no-refresh no-reinstall no-sources no-upgrade pre refresh reinstall show-resolution upgrade`;
// deno-fmt-ignore
const UV_RESOLVER_VALUED = `config-setting config-settings config-settings-package default-index
  env-file exclude-newer exclude-newer-package extra-index-url find-links fork-strategy index
  index-strategy index-url keyring-provider link-mode no-binary-package no-build-isolation-package
  no-build-package no-sources-package prerelease prerelease-package python python-platform
  refresh-package reinstall-package resolution upgrade-group upgrade-package with with-editable
  with-requirements`;

/** uv's options before its subcommand. */
export const UV_GLOBAL_OPTIONS: OptionGrammar = {
  flags: "nqvhV",
  longFlags: new Set(longs(UV_GLOBAL_FLAGS)),
  longValued: new Set(longs(UV_GLOBAL_VALUED)),
};

/**
 * `uv run` (uv's `RunArgs`): `-U` `--upgrade`, `-m` `--module`, `-s` `--script` take no value;
 * `-C`, `-P`, `-f`, `-i`, `-p` (`--python`), `-w` (`--with`) one.
 */
export const UV_RUN_OPTIONS: OptionGrammar = {
  flags: "Umsnqvh",
  valued: "CPfipw",
  longFlags: new Set([
    ...longs(UV_GLOBAL_FLAGS),
    ...longs(UV_RESOLVER_FLAGS),
    // deno-fmt-ignore
    ...longs(`active all-extras all-groups all-packages dev editable exact frozen gui-script inexact
      locked module no-active no-all-extras no-default-groups no-dev no-editable no-exact
      no-project no-workspace no-sync only-dev script`),
  ]),
  longValued: new Set([
    ...longs(UV_GLOBAL_VALUED),
    ...longs(UV_RESOLVER_VALUED),
    // deno-fmt-ignore
    ...longs(`extra group max-recursion-depth no-editable-package no-extra no-group only-group
      package`),
  ]),
};

/**
 * `uv tool run`/`uvx` (`ToolRunArgs`): also `--from`, `-c` (`--constraints`), `-b`
 * (`--build-constraints`), `--overrides`, `--torch-backend`.
 */
export const UV_TOOL_RUN_OPTIONS: OptionGrammar = {
  flags: "Unqvh",
  valued: "CPbcfipw",
  longFlags: new Set([...longs(UV_GLOBAL_FLAGS), ...longs(UV_RESOLVER_FLAGS), "--lfs"]),
  longValued: new Set([
    ...longs(UV_GLOBAL_VALUED),
    ...longs(UV_RESOLVER_VALUED),
    // deno-fmt-ignore
    ...longs(`build-constraint build-constraints constraint constraints from
      generate-shell-completion override overrides torch-backend`),
  ]),
};

/**
 * poetry's options (cleo's and its own), taken before and after `run`: `-n`
 * (`--no-interaction`), `-q`, `-v`, `-h`, `-V` take no value; `-C` (`--directory`), `-P`
 * (`--project`) one.
 */
export const POETRY_OPTIONS: OptionGrammar = {
  flags: "nqvhV",
  valued: "CP",
  // deno-fmt-ignore
  longFlags: set("--no-interaction", "--quiet", "--verbose", "--ansi", "--no-ansi", "--no-plugins",
    "--no-cache", "--help", "--version"),
  longValued: set("--directory", "--project"),
};

/**
 * `bun run`'s options (its `--help`: the runtime's, the transpiler's and the runner's), each
 * before the script, file or program it runs.
 */
export const BUN_RUN_OPTIONS: OptionGrammar = {
  flags: "hbi",
  valued: "Frepcdl",
  // deno-fmt-ignore
  longValued: set("--elide-lines", "--filter", "--shell", "--preload", "--require", "--import",
    "--install", "--eval", "--print", "--port", "--conditions", "--max-http-header-size",
    "--dns-result-order", "--title", "--unhandled-rejections", "--console-depth", "--user-agent",
    "--env-file", "--cwd", "--config", "--main-fields", "--extension-order", "--tsconfig-override",
    "--define", "--drop", "--loader", "--jsx-factory", "--jsx-fragment", "--jsx-import-source",
    "--jsx-runtime", "--origin", "--fetch-preconnect"),
  // deno-fmt-ignore
  longFlags: set("--silent", "--if-present", "--workspaces", "--bun", "--parallel", "--sequential",
    "--no-exit-on-error", "--watch", "--hot", "--no-clear-screen", "--smol", "--inspect-wait",
    "--inspect-brk", "--no-install", "--prefer-offline", "--prefer-latest", "--expose-gc",
    "--no-deprecation", "--throw-deprecation", "--zero-fill-buffers", "--redis-preconnect",
    "--sql-preconnect", "--no-addons", "--help", "--no-macros", "--jsx-side-effects",
    "--ignore-dce-annotations", "--no-env-file"),
  longOptional: set("--inspect"),
};
