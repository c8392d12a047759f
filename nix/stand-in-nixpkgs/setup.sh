# The stand-in's $stdenv/setup (see pkgs.nix), sourced by builder.sh and by `nix develop`: the
# inputs' bin/ directories, then the host's, on PATH, and runHook.
PATH=
for input in $nativeBuildInputs $buildInputs; do
  if [ -d "$input/bin" ]; then PATH="$PATH${PATH:+:}$input/bin"; fi
done
export PATH="$PATH${PATH:+:}$hostPath"

runHook() {
  local hook="${!1:-}"
  eval "$hook"
}
