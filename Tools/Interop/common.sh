# Helpers the interop scripts share; source it, do not run it.

# ensure_venv VENV REQUIREMENTS: a virtual environment at VENV holding exactly the pinned REQUIREMENTS, installed with
# pip only when they changed since the last install (a copy of the file marks what is installed). Returns non-zero
# when the installation failed.
ensure_venv() {
    local venv="$1" requirements="$2"
    cmp -s "$requirements" "$venv/.requirements" 2>/dev/null && return 0
    { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" \
      && cp "$requirements" "$venv/.requirements"; } >&2
}

# tapedeck_binary ROOT [GIVEN]: GIVEN when set, else the package's debug tapedeck, built (incrementally) first. It is
# built as the README's test command builds it (--build-tests, which also makes every module testable): after that
# command this is a no-op, where `--product tapedeck` would compile every module again without testability.
tapedeck_binary() {
    local root="$1" given="${2:-}"
    if [ -n "$given" ]; then echo "$given"; return; fi
    (cd "$root" && swift build --build-tests >&2)
    echo "$(cd "$root" && swift build --show-bin-path)/tapedeck"
}
