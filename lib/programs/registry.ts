/**
 * The registry of programs: every program module's `Program`s, looked up by name (a path by its
 * basename; `python3.12` as `python3`). The only lookup the analysis and the policy use: a program
 * not here has no facet (it runs nothing else, its arguments may all be files, it reads trees).
 *
 * @example
 * ```ts
 * import { programNamed } from "./registry.ts";
 * programNamed("git")?.chdir?.options; // ["-C"]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { AGENT_PROGRAMS } from "./agents.ts";
import { ARCHIVER_PROGRAMS } from "./archivers.ts";
import { BAZEL_PROGRAMS } from "./bazel.ts";
import { EXTRACTOR_PROGRAMS } from "./extractors.ts";
import { REMOTE_SHELL_PROGRAMS } from "./remote_shells.ts";
import { COMPRESSOR_PROGRAMS } from "./compressors.ts";
import { DOWNLOADER_PROGRAMS } from "./downloaders.ts";
import { CONTAINER_PROGRAMS } from "./containers.ts";
import { CREDENTIAL_PROGRAMS } from "./credentials.ts";
import { CMAKE_PROGRAMS } from "./cmake.ts";
import { COMPILER_PROGRAMS } from "./compilers.ts";
import { CLONER_PROGRAMS } from "./cloners.ts";
import { GPG_PROGRAMS } from "./gpg.ts";
import { DATABASE_PROGRAMS } from "./databases.ts";
import { PSQL } from "./psql.ts";
import { DUCKDB } from "./duckdb.ts";
import { DECODER_PROGRAMS } from "./decoders.ts";
import { EDITOR_PROGRAMS } from "./editors.ts";
import { FIELD_PROGRAMS } from "./fields.ts";
import { FD_PROGRAM } from "./fd.ts";
import { FIND_PROGRAMS } from "./find.ts";
import { GH_PROGRAMS } from "./gh.ts";
import { GIT } from "./git.ts";
import { SEARCH_PROGRAMS } from "./grep.ts";
import { SEARCHERS } from "./searchers.ts";
import { CHECKSUM_PROGRAMS } from "./checksums.ts";
import { LINE_FILTER_PROGRAMS } from "./line_filters.ts";
import { IMAGEMAGICK_PROGRAMS } from "./imagemagick.ts";
import { HTTPIE_PROGRAMS } from "./httpie.ts";
import { GROFF, INTERPRETER_PROGRAMS, versionedPython } from "./interpreters.ts";
import { PYTEST } from "./pytest.ts";
import { QUERY_PROGRAMS } from "./jq.ts";
import { DOTENV_PROGRAMS } from "./dotenv_loads.ts";
import { DOTENV_TOOL_PROGRAMS } from "./dotenv_tools.ts";
import { NIX_EXPR_PROGRAMS } from "./nix_exprs.ts";
import { LINK_PROGRAMS } from "./links.ts";
import { LINTER_PROGRAMS } from "./linters.ts";
import { FORMATTER_PROGRAMS } from "./formatters.ts";
import { FIXER_PROGRAMS } from "./fixers.ts";
import { GLOB_TOOL_PROGRAMS } from "./glob_tools.ts";
import { LAUNCHER_PROGRAMS } from "./launchers.ts";
import { LS_PROGRAM } from "./ls.ts";
import { NETWORK_PROGRAMS } from "./network.ts";
import { BUILD_PROGRAMS, PACKAGE_RUNNER_PROGRAMS } from "./package_runners.ts";
import { CARGO_PROGRAMS } from "./cargo.ts";
import { SHELL_CARRIER_PROGRAMS } from "./shell_carriers.ts";
import { RC_FILE_PROGRAMS } from "./rc_files.ts";
import { SCRIPT_PROGRAMS } from "./scripts.ts";
import { SESSION_PROGRAMS } from "./sessions.ts";
import { SHELL_PROGRAMS } from "./shells.ts";
import { SHELL_ESCAPE_PROGRAMS } from "./shell_escapes.ts";
import { SHELL_SERVER_PROGRAMS } from "./shell_servers.ts";
import { SIMPLE_PROGRAMS } from "./simple.ts";
import { RENAMER_PROGRAMS } from "./renamers.ts";
import type { Program } from "./spec.ts";
import { SSH_PROGRAMS } from "./ssh.ts";
import { MOUNT_PROGRAMS } from "./mounts.ts";
import { TAR } from "./tar.ts";
import { TEST_PROGRAM } from "./test_expr.ts";
import { YT_DLP } from "./project_settings.ts";
import { TREE_SERVER_PROGRAMS } from "./tree_servers.ts";
import { WRAPPER_PROGRAMS } from "./wrappers.ts";
import { XARGS_PROGRAMS } from "./xargs.ts";
import { registryName } from "./other_names.ts";

/** Every registered program, in module order. */
export function allPrograms(): readonly Program[] {
  return [
    ...WRAPPER_PROGRAMS,
    ...SHELL_PROGRAMS,
    ...INTERPRETER_PROGRAMS,
    PYTEST,
    GROFF,
    GIT,
    ...FIND_PROGRAMS,
    FD_PROGRAM,
    LS_PROGRAM,
    ...XARGS_PROGRAMS,
    ...BAZEL_PROGRAMS,
    ...SCRIPT_PROGRAMS,
    ...SEARCH_PROGRAMS,
    ...SEARCHERS,
    ...CHECKSUM_PROGRAMS,
    ...FIELD_PROGRAMS,
    ...LINE_FILTER_PROGRAMS,
    ...IMAGEMAGICK_PROGRAMS,
    TAR,
    ...SSH_PROGRAMS,
    ...MOUNT_PROGRAMS,
    ...CONTAINER_PROGRAMS,
    ...NETWORK_PROGRAMS,
    ...SHELL_SERVER_PROGRAMS,
    ...AGENT_PROGRAMS,
    ...SHELL_ESCAPE_PROGRAMS,
    ...LAUNCHER_PROGRAMS,
    ...COMPILER_PROGRAMS,
    ...GH_PROGRAMS,
    ...CREDENTIAL_PROGRAMS,
    ...LINK_PROGRAMS,
    ...PACKAGE_RUNNER_PROGRAMS,
    ...SHELL_CARRIER_PROGRAMS,
    ...BUILD_PROGRAMS,
    ...CARGO_PROGRAMS,
    ...LINTER_PROGRAMS,
    ...FORMATTER_PROGRAMS,
    ...FIXER_PROGRAMS,
    ...GLOB_TOOL_PROGRAMS,
    ...EDITOR_PROGRAMS,
    ...DATABASE_PROGRAMS,
    PSQL,
    DUCKDB,
    ...SESSION_PROGRAMS,
    ...ARCHIVER_PROGRAMS,
    ...EXTRACTOR_PROGRAMS,
    ...DECODER_PROGRAMS,
    ...CMAKE_PROGRAMS,
    ...GPG_PROGRAMS,
    ...RC_FILE_PROGRAMS,
    ...REMOTE_SHELL_PROGRAMS,
    ...COMPRESSOR_PROGRAMS,
    ...DOWNLOADER_PROGRAMS,
    ...HTTPIE_PROGRAMS,
    ...CLONER_PROGRAMS,
    ...SIMPLE_PROGRAMS,
    TEST_PROGRAM,
    ...RENAMER_PROGRAMS,
    ...TREE_SERVER_PROGRAMS,
    YT_DLP,
    ...QUERY_PROGRAMS,
    ...DOTENV_PROGRAMS,
    ...DOTENV_TOOL_PROGRAMS,
    ...NIX_EXPR_PROGRAMS,
  ];
}

let byName: Map<string, Program> | null = null;

/**
 * A program with every facet present, in one order (undefined where it has none). Each module
 * writes its programs with the facets they have, so as written they have as many shapes as there
 * are programs, and every facet read (`program.runs`, `.text`, `.links`, … several per stage) was
 * a megamorphic property load in V8; in one shape each is a plain load.
 */
function uniform(p: Program): Program {
  // (Typed with every key required: a facet added to Program and not here does not compile.)
  const all: { [K in keyof Required<Program>]: Program[K] } = {
    names: p.names,
    options: p.options,
    runs: p.runs,
    optionCommands: p.optionCommands,
    runsElsewhere: p.runsElsewhere,
    runsInHome: p.runsInHome,
    chdir: p.chdir,
    text: p.text,
    namedFiles: p.namedFiles,
    evaluates: p.evaluates,
    codeOption: p.codeOption,
    readOnly: p.readOnly,
    links: p.links,
    followsLinks: p.followsLinks,
    treesNamed: p.treesNamed,
    readsCwd: p.readsCwd,
    readsRepository: p.readsRepository,
    lists: p.lists,
    treeNames: p.treeNames,
    namesLimitTrees: p.namesLimitTrees,
    metadataOnly: p.metadataOnly,
    skipsGitDir: p.skipsGitDir,
    replacesTrees: p.replacesTrees,
    changesBelow: p.changesBelow,
    rewritesTrees: p.rewritesTrees,
    globOperands: p.globOperands,
    noFileOperands: p.noFileOperands,
    wholeOptions: p.wholeOptions,
    writesOnlyNamed: p.writesOnlyNamed,
    readWords: p.readWords,
    tooBroad: p.tooBroad,
  };
  return all;
}

/** The registry by name, built on first use; a name defined twice is a programming error. */
function index(): Map<string, Program> {
  const map = new Map<string, Program>();
  for (const written of allPrograms()) {
    const p = uniform(written);
    for (const name of p.names) {
      if (map.has(name)) throw new Error(`program ${name} is registered twice`);
      map.set(name, p);
    }
  }
  return map;
}

/**
 * The program called `name` (a basename), if it is registered; another name of one is that one
 * (`grm` is `rm`, other_names.ts).
 */
export function programNamed(name: string): Program | undefined {
  byName ??= index();
  const p = byName.get(name) ?? byName.get(registryName(name));
  // (`pip3.12` is the pip of python3.12.)
  if (p === undefined && /^pip3\.\d+$/.test(name)) return byName.get("pip3");
  if (p !== undefined || !name.startsWith("python3.")) return p;
  const versioned = versionedPython(name);
  return versioned === null ? undefined : byName.get(versioned);
}

/**
 * The program a command word names (a static word, by its basename); none for a word that stands
 * for a program not known (`Word.unnamed`).
 */
export function programOf(word: Word | undefined): Program | undefined {
  if (!word || word.kind !== "static" || word.unnamed) return undefined;
  const v = word.value;
  const slash = v.lastIndexOf("/");
  return programNamed(slash < 0 ? v : v.slice(slash + 1));
}

/** Whether a command word names the program registered as `name` (`/usr/bin/git`, `git`). */
export function namesProgram(word: Word | undefined, name: string): boolean {
  return programOf(word)?.names[0] === name;
}

/**
 * Whether saving "program subcommand *" as an approval would allow anything: the program runs
 * the commands its arguments make (`runs`, here or elsewhere), evaluates inline code, or says so
 * itself, for every subcommand or for this one (`docker run`, not `docker ps`).
 */
export function isTooBroad(name: string, subcommand = ""): boolean {
  const p = programNamed(name);
  if (p === undefined) return false;
  // (A program that says so by subcommand runs what it is given in those alone: `podman
  // unshare`, `docker run`.)
  if (typeof p.tooBroad === "function") return p.tooBroad(subcommand);
  if (p.runs !== undefined || p.evaluates !== undefined || p.tooBroad === true) return true;
  return p.runsElsewhere !== undefined;
}
