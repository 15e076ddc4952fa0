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

# run_python_check NAME VENV REQUIREMENTS SCRIPT LIMIT ROOT [TAPEDECK]: the pinned REQUIREMENTS in VENV, then SCRIPT run
# with that environment's python as `SCRIPT TAPEDECK WORK` (WORK a scratch folder removed afterwards) for at most LIMIT
# seconds; returns its status, or 2 when the packages could not be installed (NAME says who could not).
run_python_check() {
    local name="$1" venv="$2" requirements="$3" script="$4" limit="$5" root="$6" given="${7:-}"
    if ! ensure_venv "$venv" "$requirements"; then
        echo "$name: could not install the pinned packages into $venv" >&2
        return 2
    fi
    local tapedeck work status=0
    tapedeck="$(tapedeck_binary "$root" "$given")"
    work="$(mktemp -d)"
    timeout "$limit" "$venv/bin/python" -u "$script" "$tapedeck" "$work" || status=$?
    rm -rf "$work"
    return $status
}
