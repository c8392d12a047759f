#!/usr/bin/env bash
# Offline proof of flake.nix: `nix flake check` and `nix run .#pi-controls` (--help, --version, a
# check and its exit status, the embedded example sessions, an eval classified by a local
# stand-in for the Decisions API, which needs the net permission), with
# nixpkgs replaced by the STAND-IN in nix/stand-in-nixpkgs (the host's deno, bash and coreutils
# behind nixpkgs' names), because nixpkgs cannot be fetched here. What it proves: the flake
# evaluates for all four systems, the npm fixed-output derivation reproduces nix/deps.hash, and
# the extension bundle, the CLI and `deno task test` build and pass in the Nix sandbox. What it
# does not: anything about real nixpkgs' deno (its version, its denort output).
#
# Needs Nix with flakes (Debian: `apt-get install -y nix-bin`), run as root, and network to the
# npm registry for the fixed-output derivation. Usage: bash scripts/nix-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

say() { printf '\n=== nix-check: %s\n' "$*"; }
say "USING A STAND-IN FOR NIXPKGS (nix/stand-in-nixpkgs: the host's deno, bash and coreutils), NOT nixpkgs"

if ! command -v nix >/dev/null 2>&1; then
  echo "nix-check: nix is not installed (Debian: apt-get install -y nix-bin)" >&2
  exit 1
fi
DENO=$(command -v deno || true)
if [ -z "$DENO" ]; then
  echo "nix-check: deno is not installed; the stand-in packages the host's deno" >&2
  exit 1
fi
DENO=$(readlink -f "$DENO")
CA=${NIX_SSL_CERT_FILE:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}
if [ ! -f "$CA" ]; then
  echo "nix-check: no CA bundle at $CA (set SSL_CERT_FILE)" >&2
  exit 1
fi
nix --version
"$DENO" --version | head -1

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pi-controls-nix-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The stand-in, with the host's programs copied in: a flake's pure evaluation cannot read paths
# outside its own source, so they become part of the stand-in's source.
STANDIN=$WORK/stand-in-nixpkgs
cp -r nix/stand-in-nixpkgs "$STANDIN"
mkdir -p "$STANDIN/host"
cp "$DENO" "$STANDIN/host/deno"
cp "$CA" "$STANDIN/host/ca-bundle.crt"
# With a denort (DENORT_BIN), the stand-in's deno has a denort output, as newer nixpkgs' has, and
# packages.pi-controls is the `deno compile`d binary; without, it is the `deno run` wrapper.
if [ -n "${DENORT_BIN:-}" ]; then
  cp "$DENORT_BIN" "$STANDIN/host/denort"
  echo "stand-in deno has a denort output ($DENORT_BIN): pi-controls is built with deno compile"
else
  echo "stand-in deno has no denort output (DENORT_BIN unset): pi-controls is the deno run wrapper"
fi

# The flake as it would be committed: tracked and new files, none of the ignored ones
# (node_modules/, dist/, caches). A path: flake, so a file not yet added to git is included too.
FLAKE=$WORK/pi-controls
mkdir -p "$FLAKE"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  xargs -0 cp --parents -t "$FLAKE"

# The sandbox sees the store plus the host directories the stand-in's programs live in and
# link against. Only these: never /etc/ssl (the CA bundle comes in as a store path instead).
SANDBOX_PATHS=""
for d in /usr /bin /lib /lib64; do [ -e "$d" ] && SANDBOX_PATHS="$SANDBOX_PATHS $d"; done
NIX=(nix --extra-experimental-features 'nix-command flakes' --offline
  --option sandbox true --option extra-sandbox-paths "${SANDBOX_PATHS# }"
  --option substituters '' --option flake-registry '')
FLAGS=(--no-write-lock-file --override-input nixpkgs "path:$STANDIN")
# After the first command has shown it, the note that the override is not written to a lock file.
quiet() {
  "$@" 2> >(grep -v -e "not writing modified lock file" -e "Added input 'nixpkgs'" \
    -e "stand-in-nixpkgs?lastModified=" >&2)
}

say "nix flake check (stand-in nixpkgs)"
start=$(date +%s)
# Nix 2.8 sometimes reports a builder "failed due to signal 9 (Killed)" that nothing in the build
# killed (seen here while other processes churn through PIDs). That one symptom, and only it, is
# retried once, saying so; any other failure, or the same one twice, fails the check.
if ! "${NIX[@]}" flake check "${FLAGS[@]}" --print-build-logs "path:$FLAKE" 2>&1 | tee "$WORK/check.log"; then
  if grep -q "failed due to signal 9 (Killed)" "$WORK/check.log"; then
    say "a builder was killed by signal 9 (a Nix 2.8 flake, not a build error): retrying once"
    "${NIX[@]}" flake check "${FLAGS[@]}" --print-build-logs "path:$FLAKE"
  else
    exit 1
  fi
fi
check_s=$(($(date +%s) - start))

say "every package, check, dev shell and app evaluates for all four systems (stand-in nixpkgs)"
for output in packages checks devShells apps; do
  # Each output's names per system, each forced to its derivation (or an app to its program).
  printf '%s: ' "$output"
  quiet "${NIX[@]}" eval "${FLAGS[@]}" --json "path:$FLAKE#$output" --apply '
    builtins.mapAttrs (system: set: map
      (name: builtins.seq (set.${name}.drvPath or set.${name}.program) name)
      (builtins.attrNames set))'
  echo
done

say "nix develop -c deno --version (stand-in nixpkgs)"
quiet "${NIX[@]}" develop "${FLAGS[@]}" "path:$FLAKE" -c deno --version

say "nix build .#extension ships what package.json names: the bundles, skills, docs and schema"
# (Debian's nix 2.8 has no --print-out-paths: a result link in the work dir tells the path.)
"${NIX[@]}" build "${FLAGS[@]}" --out-link "$WORK/extension" "path:$FLAKE#extension"
ext=$(readlink -f "$WORK/extension")
for f in dist/pi-controls.js dist/pi-controls-cli.js skills/pi-controls-config/SKILL.md \
  skills/pi-controls-suggest/SKILL.md docs/bash-analysis.md schema/pi-controls.schema.json; do
  if [ ! -f "$ext/$f" ]; then
    echo "nix-check: the extension package lacks $f" >&2
    exit 1
  fi
done
echo "ok: $ext"

say "nix run .#pi-controls -- --help (stand-in nixpkgs)"
quiet "${NIX[@]}" run "${FLAGS[@]}" "path:$FLAKE#pi-controls" -- --help

say "nix run .#pi-controls -- check (the tree-sitter parser is loaded: a { } group is parsed)"
CONFIG=$WORK/config.jsonc
cat >"$CONFIG" <<'EOF'
{
  "policies": { "p": { "defaultAction": "deny", "rules": [{ "action": "allow", "tool": "bash", "pattern": "echo *" }] } },
  "locations": { "/": "p" }
}
EOF
verdict=$(quiet "${NIX[@]}" run "${FLAGS[@]}" "path:$FLAKE#pi-controls" -- check --config "$CONFIG" --cwd / \
  --tool bash --input '{"command":"{ echo a; echo b; }"}')
echo "$verdict" | head -c 300
echo
case $verdict in
  '{"action":"allow"'*) ;;
  *)
    echo "nix-check: expected allow from the parsed command, got the verdict above" >&2
    exit 1
    ;;
esac

say "nix run .#pi-controls -- --version, and a deny says so in its exit status (4)"
quiet "${NIX[@]}" run "${FLAGS[@]}" "path:$FLAKE#pi-controls" -- --version
status=0
quiet "${NIX[@]}" run "${FLAGS[@]}" "path:$FLAKE#pi-controls" -- check --config "$CONFIG" --cwd / \
  --tool bash --input '{"command":"rm -rf /"}' >/dev/null || status=$?
if [ "$status" != 4 ]; then
  echo "nix-check: expected exit status 4 (deny), got $status" >&2
  exit 1
fi

say "nix run .#pi-controls -- replay on a machine without pi sessions: the embedded examples"
mkdir -p "$WORK/agent"
replayed=$(PI_CODING_AGENT_DIR=$WORK/agent quiet "${NIX[@]}" run "${FLAGS[@]}" \
  "path:$FLAKE#pi-controls" -- replay --config "$CONFIG")
# (No `echo | head`: under pipefail, head closing early fails the script with SIGPIPE once the
# replay is longer than a pipe's buffer.)
printf '%s\n' "${replayed%%$'\n'*}" "${replayed##*$'\n'}"
case $replayed in
  *"example sessions that ship with pi-controls"*) ;;
  *)
    echo "nix-check: replay did not replay the embedded example sessions" >&2
    exit 1
    ;;
esac

say "nix run .#pi-controls -- check classifies an eval with a stand-in Decisions API (net allowed)"
# A stand-in on 127.0.0.1 answering "sensitive read and network" to every request: deny.exfil.
"$DENO" eval --quiet '
  const no = { type: "noul", noul: 0 };
  const reply = { id: "d", model: "m", provider: "p", usage: {}, answers: {
    destructive: no, network: { type: "noul", noul: 1 }, exec: no, obfuscated: no,
    inference_call: no,
    write_scope: { type: "choice", choice: "none", probabilities: { none: 1 }, confidence: 1 },
    read_scope: { type: "choice", choice: "sensitive", probabilities: { sensitive: 1 },
      confidence: 1 } } };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) =>
    console.log(`http://127.0.0.1:${port}/api/alpha/decisions`) }, () => Response.json(reply));
  setTimeout(() => server.shutdown(), 600_000);
' >"$WORK/decisions.url" &
DECISIONS_PID=$!
trap 'kill "$DECISIONS_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do [ -s "$WORK/decisions.url" ] && break; sleep 0.1; done
DECISIONS_URL=$(head -1 "$WORK/decisions.url")
EVAL_CONFIG=$WORK/eval-config.jsonc
printf '{ "policies": { "p": { "defaultAction": "allow", "rules": [] } }, "locations": { "/": "p" },
  "decisions": { "url": "%s", "tokenEnv": "PI_CONTROLS_NIX_CHECK_TOKEN" } }\n' "$DECISIONS_URL" \
  >"$EVAL_CONFIG"
status=0
verdict=$(PI_CODING_AGENT_DIR=$WORK/agent PI_CONTROLS_NIX_CHECK_TOKEN=test quiet "${NIX[@]}" run \
  "${FLAGS[@]}" "path:$FLAKE#pi-controls" -- check --config "$EVAL_CONFIG" --cwd / \
  --tool bash --input '{"command":"python3 -c \"steal()\""}') || status=$?
kill "$DECISIONS_PID" 2>/dev/null || true
case $verdict in
  *'"status":"classified"'*'"rule":"deny.exfil"'*) ;;
  *)
    echo "$verdict" | head -c 600
    echo
    echo "nix-check: expected the eval classified (rule deny.exfil), got the verdict above" >&2
    exit 1
    ;;
esac
if [ "$status" != 4 ]; then
  echo "nix-check: expected exit status 4 (deny), got $status" >&2
  exit 1
fi
echo "classified by the stand-in: rule deny.exfil, exit status 4"

say "passed in $(($(date +%s) - start))s (flake check ${check_s}s) — WITH A STAND-IN FOR NIXPKGS, not nixpkgs"
