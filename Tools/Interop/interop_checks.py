"""What the interop scripts share about their verdicts: each failed check is printed as it happens and kept."""

failures = []


def check(condition, message):
    """Records `message` as a failure unless `condition` holds; returns `condition`."""
    if not condition:
        failures.append(message)
        print(f"FAIL {message}")
    return condition
