"""Verifies a Pact contract against a running provider with Pact's reference verifier.

Usage: pact_verify.py CONTRACT BASE_URL PROVIDER

pact-python 3 and later drive the Rust pact_ffi core shipped in its wheel (nothing is downloaded at run time).
The verifier prints its report; exits 0 when every interaction is verified and 1 when any fails.
"""

import os
import sys

os.environ.setdefault("PACT_DO_NOT_TRACK", "true")

from pact import Verifier  # noqa: E402 (the variable above must be set first)


def main() -> int:
    contract, base_url, provider = sys.argv[1:4]
    verifier = (
        Verifier(provider, host="127.0.0.1")
        .add_transport(url=base_url)
        .add_source(contract)
        .set_coloured_output(enabled=False)
    )
    # The verifier prints its report to standard output itself.
    try:
        verifier.verify()
    except RuntimeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
