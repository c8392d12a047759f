/**
 * Programs that print the credentials they keep, reading files no argument names: `aws configure
 * get|export-credentials|list` (~/.aws), `gcloud auth print-access-token` (its stores in
 * ~/.config/gcloud), the
 * docker credential helpers (~/.docker/config.json). Their files are their targets, so a
 * protection of `~/.aws/**` covers them. (git's, gh's and kubectl's live in their modules.)
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { Program } from "./spec.ts";
import { awsParamFiles } from "./aws_paramfiles.ts";
import { storageDestination } from "./destinations.ts";
import { GCLOUD_SSH, remoteShell } from "./remote_shells.ts";
import { gcloudStorageFollows, s3Follows } from "./tree_servers.ts";

/** A file or directory a command reads, by a path under the home directory. */
export type KeptFile = { path: string; source: string };

/** The static words of an argv that are not options. */
export function operands(argv: Word[]): string[] {
  return argv.slice(1).filter((w) => w.kind === "static" && !w.value.startsWith("-")).map((w) =>
    w.value
  );
}

/** `aws configure get|export-credentials|list`: the shared credentials and config files. */
function awsFiles(argv: Word[]): KeptFile[] {
  const [sub, action] = operands(argv);
  if (sub !== "configure" || !/^(get|export-credentials|list)$/.test(action ?? "")) return [];
  const source = `aws configure ${action}`;
  return [{ path: "~/.aws/credentials", source }, { path: "~/.aws/config", source }];
}

/** `gcloud auth print-access-token|print-identity-token|application-default print-access-token`. */
function gcloudFiles(argv: Word[]): KeptFile[] {
  const words = operands(argv);
  if (words[0] !== "auth" || !words.some((w) => /^print-(access|identity)-token$/.test(w))) {
    return [];
  }
  const source = "gcloud auth print-access-token";
  return [
    { path: "~/.config/gcloud/credentials.db", source },
    { path: "~/.config/gcloud/access_tokens.db", source },
    { path: "~/.config/gcloud/application_default_credentials.json", source },
  ];
}

/** The credential programs. */
/**
 * ssh-keygen without `-f` works on the files it keeps in `~/.ssh`: `-R`, `-F`, `-H` on
 * `known_hosts`, a new key (or `-y`, `-l`, `-p`) on `id_*`. With `-f FILE` the file is its operand.
 */
function sshKeygenFiles(argv: Word[]): { path: string; source: string }[] {
  const words = argv.slice(1).map((w) => w.value);
  if (words.some((v) => /^-[a-zA-Z]*f/.test(v))) return [];
  const source = "ssh-keygen (its files in ~/.ssh)";
  return words.some((v) => /^-[a-zA-Z]*[RFH]/.test(v))
    ? [{ path: "~/.ssh/known_hosts", source }]
    : [{ path: "~/.ssh/id_ed25519", source }, { path: "~/.ssh/id_rsa", source }];
}

export const CREDENTIAL_PROGRAMS: Program[] = [
  { names: ["ssh-keygen"], namedFiles: sshKeygenFiles },
  {
    names: ["aws"],
    // (And `aws s3 cp|sync|mv … DIR` copies objects into DIR by their keys: destinations.ts; a
    // parameter's value read from `file://F` or `fileb://F`: aws_paramfiles.ts.)
    namedFiles: (argv, _stage, given) => [
      ...awsFiles(argv),
      ...storageDestination(argv),
      ...awsParamFiles(argv, given),
    ],
    // `s3 sync` and `s3 cp --recursive` send a tree with its links followed (tree_servers.ts).
    followsLinks: s3Follows,
    treesNamed: () => true,
  },
  // (And `gcloud storage cp|rsync … DIR`: destinations.ts.)
  // (And `gcloud compute ssh`: remote_shells.ts.)
  {
    names: ["gcloud"],
    namedFiles: (argv) => [...gcloudFiles(argv), ...storageDestination(argv)],
    followsLinks: gcloudStorageFollows,
    treesNamed: () => true,
    ...remoteShell(GCLOUD_SSH),
  },
  {
    names: [
      "docker-credential-desktop",
      "docker-credential-pass",
      "docker-credential-secretservice",
      "docker-credential-osxkeychain",
      "docker-credential-ecr-login",
    ],
    namedFiles: () => [{ path: "~/.docker/config.json", source: "docker credential helper" }],
  },
];
