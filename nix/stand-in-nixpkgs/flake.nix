{
  # NOT nixpkgs. A stand-in with just what pi-controls' flake.nix uses, so that flake can be
  # checked on a machine that cannot fetch nixpkgs: scripts/nix-check.sh copies this directory,
  # adds the host's deno and CA bundle under host/, and passes it as
  # `--override-input nixpkgs path:<copy>`. Its packages are the host's own programs.
  description = "stand-in for nixpkgs (pi-controls' offline Nix check); not nixpkgs";

  outputs = { self }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
    in
    {
      legacyPackages = builtins.listToAttrs (map
        (system: {
          name = system;
          value = import ./pkgs.nix { inherit system; host = "${self}/host"; };
        })
        systems);
    };
}
