# The stand-in's generic builder (see pkgs.nix): a few of stdenv's phases, nothing more.
set -eo pipefail
source "$stdenv/setup"

cd "$NIX_BUILD_TOP"
if [ -n "${src:-}" ]; then
  cp -r "$src" source
  chmod -R u+w source
  cd source
fi
eval "${configurePhase:-}"
eval "${buildPhase:-}"
if [ -n "${doCheck:-}" ]; then eval "${checkPhase:-}"; fi
eval "${installPhase:-}"
