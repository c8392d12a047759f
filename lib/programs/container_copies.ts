/**
 * The operands of a container client's `cp` that name a path in a container, read as each client
 * reads them: docker's, podman's and nerdctl's (and `docker compose cp`'s) `CONTAINER:PATH`, where
 * a word that starts with `/` or `.` is a local path whatever colons it has (`./a:b`); kubectl's
 * and oc's `[NAMESPACE/]POD:PATH`. Such a word is no path of this machine (`app:/app/logs` is not
 * `/app/logs` here, as a `TYPE:path` word is): what is in a container counts only where a rule
 * asks about or denies the command, or a protected path it names is reached, judged as if it were
 * this machine's (README "What runs on another machine or in a container"). Only a name of the
 * shape the client accepts counts as a container's (`~/x:y`, `a b:c` keep their reading as paths).
 *
 * @example
 * ```ts
 * import { containerPath } from "./container_copies.ts";
 * containerPath("app:/app/logs", "docker"); // "/app/logs"
 * containerPath("./dir:name", "docker"); // null: a local path
 * containerPath("prod/api-7d9f8:/var/log/app.log", "kubectl"); // "/var/log/app.log"
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";

/** How a client reads a `cp` operand: docker's (podman's, nerdctl's, compose's) or kubectl's. */
export type CopyForm = "docker" | "kubectl";

/** A container's (or compose service's) name or id, as docker accepts one. */
const CONTAINER = /^[A-Za-z0-9][\w.-]*$/;
/** A pod, in a namespace or not (names of the cluster: DNS labels). */
const POD = /^[A-Za-z0-9][\w.-]*(?:\/[A-Za-z0-9][\w.-]*)?$/;

/** The path in a container a `cp` operand names; null where it is a local path (or none). */
export function containerPath(value: string, form: CopyForm): string | null {
  const colon = value.indexOf(":");
  if (colon <= 0) return null;
  return (form === "kubectl" ? POD : CONTAINER).test(value.slice(0, colon))
    ? value.slice(colon + 1)
    : null;
}

/**
 * The operands of a `cp` (its subcommand at argv position `at`) that name a path in a container:
 * each one's argv position and the path there. (Its options take no value of that shape.)
 */
export function containerOperands(
  argv: Word[],
  at: number,
  form: CopyForm,
): { at: number; path: string }[] {
  const out: { at: number; path: string }[] = [];
  let ended = false;
  for (let i = at + 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") continue;
    if (!ended && w.value.startsWith("-")) {
      ended = w.value === "--";
      continue;
    }
    const path = containerPath(w.value, form);
    if (path !== null) out.push({ at: i, path });
  }
  return out;
}

/**
 * The files in a container a `cp` names, as this machine's paths judged for what is protected
 * there alone (`NamedFile.inContainer`): absolute as written, `~/…` in the home, relative ones
 * in the cwd (the container's own directory is not known).
 */
export function containerFiles(argv: Word[], at: number, form: CopyForm): NamedFile[] {
  const out: NamedFile[] = [];
  for (const o of containerOperands(argv, at, form)) {
    if (o.path !== "") out.push({ path: o.path, source: argv[o.at].text, inContainer: true });
  }
  return out;
}
