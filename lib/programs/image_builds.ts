/**
 * Image builds: `docker build`, `docker buildx build` (`b`), `docker image build`, `docker builder
 * build`, `podman build`, `nerdctl build`, `buildah bud|build`. A build reads its context (a
 * directory, `-` or a URL), its Dockerfile (`-f`), its named contexts (`--build-context
 * NAME=PATH`), its secrets (`--secret id=…,src=PATH`), its ssh keys (`--ssh default=PATH`) and a
 * local cache (`--cache-from type=local,src=DIR`), and writes only what `--iidfile`,
 * `--metadata-file`, `-o/--output` (a tree), `--cache-to` and buildah's `--logfile` name, and the
 * host directories its `RUN` steps mount (podman's and buildah's `-v`). The words of the reads are
 * `Program.readWords` (a later stage finds what they name as it is: `docker build . && docker
 * compose up`); the paths inside their comma-separated values are named files (`--secret
 * src=.env,id=k` reads `.env`).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { buildReadWords } from "./image_builds.ts";
 * buildReadWords(["docker", "build", "-t", "app", "."].map(literal), 1); // [1, 2, 3, 4]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { NamedFile } from "./spec.ts";

/** Boolean options (`--pull`, and podman's `--pull=always`, `--layers=false`). */
const BUILD_FLAGS = [
  "--load",
  "--push",
  "--no-cache",
  "--pull",
  "--quiet",
  "--rm",
  "--force-rm",
  "--squash",
  "--squash-all",
  "--compress",
  "--disable-content-trust",
  "--stream",
  "--check",
  "--debug",
  "--layers",
  "--tls-verify",
  "--http-proxy",
  "--stdin",
  "--omit-history",
  "--no-hosts",
  "--skip-unused-stages",
  "--disable-compression",
  "--identity-label",
  "--help",
  "--sbom",
  "--provenance",
  "--detach",
];

/** Options with a value that names no place written on this machine. */
const BUILD_VALUED = [
  "--add-host",
  "--allow",
  "--annotation",
  "--attest",
  "--build-arg",
  "--build-arg-file",
  "--build-context",
  "--builder",
  "--cache-from",
  "--call",
  "--cgroup-parent",
  "--cpu-period",
  "--cpu-quota",
  "--cpu-shares",
  "--cpuset-cpus",
  "--cpuset-mems",
  "--file",
  "--isolation",
  "--label",
  "--memory",
  "--memory-swap",
  "--network",
  "--no-cache-filter",
  "--platform",
  "--progress",
  "--secret",
  "--security-opt",
  "--shm-size",
  "--ssh",
  "--tag",
  "--target",
  "--ulimit",
  // podman's and buildah's
  "--authfile",
  "--cert-dir",
  "--creds",
  "--decryption-key",
  "--device",
  "--dns",
  "--dns-option",
  "--dns-search",
  "--env",
  "--format",
  "--from",
  "--ignorefile",
  "--ipc",
  "--jobs",
  "--layer-label",
  "--manifest",
  "--os",
  "--arch",
  "--variant",
  "--pid",
  "--runtime",
  "--runtime-flag",
  "--sign-by",
  "--timestamp",
  "--source-date-epoch",
  "--unsetenv",
  "--unsetlabel",
  "--userns",
  "--userns-uid-map",
  "--userns-gid-map",
  "--uts",
  "--cap-add",
  "--cap-drop",
  "--cgroupns",
  "--retry",
  "--retry-delay",
  "--os-feature",
  "--os-version",
  "--hooks-dir",
];

/** Options whose value is a place the build writes (a file, or the tree `--output` makes). */
const BUILD_WRITES = [
  "--iidfile",
  "--metadata-file",
  "--output",
  "--cache-to",
  "--logfile",
  "--volume",
];

/** The options of a build, as docker's, podman's and buildah's parsers take them. */
const BUILD: OptionGrammar = {
  flags: "q",
  valued: "fmcto" + "v",
  longOptional: new Set(BUILD_FLAGS),
  longValued: new Set([...BUILD_VALUED, ...BUILD_WRITES]),
};

/** The short options' long names. */
const SHORT: Record<string, string> = {
  "-f": "--file",
  "-t": "--tag",
  "-o": "--output",
  "-m": "--memory",
  "-c": "--cpu-shares",
  "-v": "--volume",
  "-q": "--quiet",
};

/** `docker buildx`'s options before its subcommand that take a value. */
export const BUILDX_GLOBAL: OptionGrammar = {
  flags: "D",
  valued: "",
  longFlags: new Set(["--debug", "--help"]),
  longValued: new Set(["--builder"]),
};

/**
 * The argv index of the first word after a build subcommand, given the index of the client's
 * subcommand (`sub`: docker's, podman's, nerdctl's or buildah's first operand): `build`, `image
 * build`, `builder build`, `buildx [--builder B] build|b`, buildah's `bud`; null for any other.
 */
export function buildFrom(argv: Word[], sub: number): number | null {
  const word = (i: number) => (argv[i]?.kind === "static" ? argv[i].value : null);
  const first = word(sub);
  if (first === "build" || first === "bud" || first === "build-using-dockerfile") return sub + 1;
  if ((first === "image" || first === "builder") && word(sub + 1) === "build") return sub + 2;
  if (first !== "buildx") return null;
  const values = argv.slice(sub + 1).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, BUILDX_GLOBAL)) {
    if (t.kind === "operand") return /^(build|b)$/.test(values[t.at]!) ? sub + 2 + t.at : null;
    if (t.kind !== "flag" && t.kind !== "valued") return null;
  }
  return null;
}

/** The options of a build from `from`, each with its argv indexes, up to one not known. */
function buildOptions(argv: Word[], from: number) {
  const values = argv.slice(from).map((w) => (w.kind === "static" ? w.value : null));
  const out: { name: string; at: number[]; value: string | null; operand?: true }[] = [];
  for (const t of readOptions(values, BUILD)) {
    if (t.kind === "unknown" || t.kind === "dynamic") break;
    if (t.kind === "end") {
      out.push({ name: "--", at: [from + t.at], value: null });
      continue;
    }
    const name = SHORT[t.name] ?? t.name;
    // (pflag reads `-v=VAL` as VAL: a short option's value after `=`.)
    const glued = t.name.length === 2 && t.glued?.startsWith("=") ? t.glued.slice(1) : t.glued;
    const value = glued ?? (t.valueAt !== undefined ? values[t.valueAt] : null);
    const at = t.valueAt !== undefined ? [from + t.at, from + t.valueAt] : [from + t.at];
    out.push({ name, at, value, ...(t.kind === "operand" ? { operand: true as const } : {}) });
  }
  return out;
}

/**
 * The argv positions of a build's words (from `from`, the word after its subcommand; the
 * subcommand's words before it too, from `sub`) that name only what it reads
 * (`Program.readWords`): every word but those of an option that writes, up to an option or word
 * not known (the rest may name what it writes).
 */
export function buildReadWords(argv: Word[], from: number, sub = from - 1): number[] {
  const read = new Set<number>();
  for (let i = sub; i < from; i++) read.add(i);
  const written = new Set<number>();
  let end = from;
  for (const o of buildOptions(argv, from)) {
    for (const i of o.at) (BUILD_WRITES.includes(o.name) ? written : read).add(i);
    end = Math.max(end, ...o.at.map((i) => i + 1));
  }
  return [...read].filter((i) => i < end && !written.has(i)).sort((a, b) => a - b);
}

/**
 * The fields of one CSV record as Go's encoding/csv reads it (buildx reads `-o`, `--cache-to`,
 * `--cache-from` and `--secret` so): `,` separates, a field that begins with `"` is quoted (`""`
 * a quote in it, `,` and `=` kept) and ends at a `,` or the end; a `"` elsewhere is an error, as
 * is a line break (buildx reads the first line alone). Null for a value not read so.
 */
export function csvFields(value: string): string[] | null {
  if (value === "" || /[\r\n]/.test(value)) return null;
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (value[i] === '"') {
      let field = "";
      for (i++;;) {
        const q = value.indexOf('"', i);
        if (q < 0) return null;
        field += value.slice(i, q);
        i = q + 1;
        if (value[i] !== '"') break;
        field += '"';
        i++;
      }
      out.push(field);
      if (i === value.length) return out;
      if (value[i++] !== ",") return null;
    } else {
      const comma = value.indexOf(",", i);
      const field = comma < 0 ? value.slice(i) : value.slice(i, comma);
      if (field.includes('"')) return null;
      out.push(field);
      if (comma < 0) return out;
      i = comma + 1;
    }
  }
}

/**
 * The `key=value` fields of an option value by key, as buildx reads them (CSV, a key lower-cased
 * and trimmed: `"dest=x"`, ` DEST=x`) and as podman and buildah do (split at `,`, keys as
 * written): each key's values by either reading. Null where the CSV cannot be read.
 */
function fields(value: string): Map<string, string[]> | null {
  const csv = csvFields(value);
  if (csv === null) return null;
  const out = new Map<string, string[]>();
  const add = (k: string, v: string) => {
    const list = out.get(k) ?? [];
    if (!list.includes(v)) list.push(v);
    out.set(k, list);
  };
  for (const f of [...csv, ...value.split(",")]) {
    const eq = f.indexOf("=");
    if (eq > 0) add(f.slice(0, eq).trim().toLowerCase(), f.slice(eq + 1));
  }
  return out;
}

/** A word that may be one of them, or `-o`/`-v` in a cluster. */
const LATER_FILE_OPTION =
  /^(--(secret|ssh|cache-from|cache-to|build-context|output|volume)|-[a-zA-Z]*[ov])/;

/** The options whose value names a file, read or written. */
const FILE_OPTIONS = /^--(secret|ssh|cache-from|cache-to|build-context|output|volume)$/;

/**
 * The files a build reads inside its options' values (`Program.namedFiles`): a secret's
 * `src`/`source` (a bare `--secret PATH` too, and its `id` where it names no `src` nor `env`:
 * buildkit reads the file of that name), ssh keys (`--ssh default=A,B`), a local cache
 * (`--cache-from type=local,src=DIR`), a named context (`--build-context n=PATH`, or
 * `oci-layout://PATH`); and those it writes there: a local cache's `dest` (a tree), `-o`'s (a
 * tree for `type=local` or a bare `-o DIR`, else an archive), a host directory `-v` mounts into
 * its `RUN` steps (a tree, unless `:ro`). A value not known, or not read as buildx reads it, is a
 * file not known; so is one of these options after an option not known.
 */
export function buildFiles(argv: Word[], from: number): NamedFile[] {
  const out: NamedFile[] = [];
  const options = buildOptions(argv, from);
  for (const o of options) {
    const v = o.value;
    const source = `${o.name} ${v ?? ""}`;
    if (!FILE_OPTIONS.test(o.name)) continue;
    const csv = /^--(secret|cache-from|cache-to|output)$/.test(o.name);
    const f = v === null || !csv ? null : fields(v);
    if (v === null || (csv && f === null)) {
      out.push({ path: null, source });
    } else out.push(...optionFiles(o.name, v, f, source));
  }
  // (Past an option not known, a word may still be one of these: `--frob -o ~/.ssh`.)
  const last = Math.max(from - 1, ...options.flatMap((o) => o.at));
  const rest = argv.slice(last + 1);
  if (rest.some((w) => w.kind !== "static" || LATER_FILE_OPTION.test(w.value))) {
    out.push({ path: null, source: "(an option of the build not known)" });
  }
  return out;
}

/** The files one option's value names (`f`: its fields, null where it has none read). */
function optionFiles(
  name: string,
  v: string,
  f: Map<string, string[]> | null,
  source: string,
): NamedFile[] {
  const out: NamedFile[] = [];
  const named = (paths: string[] | undefined, below = false) => {
    for (const path of paths ?? []) {
      if (path && path !== "-") out.push({ path, source, ...(below ? { below } : {}) });
    }
  };
  if (name === "--secret") {
    if (!v.includes("=")) named([v]);
    const src = [...(f?.get("src") ?? []), ...(f?.get("source") ?? [])];
    named(src);
    if (!src.length && !f?.has("env") && !f?.get("type")?.includes("env")) named(f?.get("id"));
  } else if (name === "--ssh") {
    const eq = v.indexOf("=");
    const paths = v.slice(eq + 1);
    if (eq > 0) named([...new Set([...paths.split(","), ...(csvFields(paths) ?? [])])]);
  } else if (name === "--cache-from") {
    if (v.includes("=")) named(f?.get("src"));
  } else if (name === "--cache-to") {
    if (v.includes("=")) named(f?.get("dest"), true);
  } else if (name === "--volume") {
    // (podman's and buildah's `RUN` steps mount a host directory, writable unless `:ro`.)
    const [host, , opts] = v.split(":");
    if (/^[/.~]/.test(host)) named([host], !/(^|,)(ro|readonly)(,|$)/.test(opts ?? ""));
  } else if (name === "--output") {
    // (A bare `-o DIR` is a tree (podman's too where no `,` is); a tar or OCI archive is one
    // file, `tar=false` a tree; `-` none.)
    if (!v.includes(",")) named([v], true);
    const tree = f?.get("type")?.some((t) => t.trim() === "local") ||
      f?.get("tar")?.includes("false");
    named(f?.get("dest"), tree);
  } else if (name === "--build-context") {
    const path = v.slice(v.indexOf("=") + 1);
    if (path.startsWith("oci-layout://")) named([path.slice(13).replace(/[@:][^/]*$/, "")]);
    else if (!/^[a-z][\w+.-]*:\/\//i.test(path)) named([path]);
  }
  return out;
}
