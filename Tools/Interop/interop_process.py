"""What the interop scripts share about the processes they start."""

import subprocess


def stop(process):
    """Sends SIGTERM and waits for the process to end; one that has not ended after 30 s is killed and named (once
    seen under heavy load: it is a finding about `tapedeck serve`, reported, not a failure of the comparison)."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        print(f"warning: {' '.join(process.args[:3])} did not stop within 30 s of SIGTERM; killed")
