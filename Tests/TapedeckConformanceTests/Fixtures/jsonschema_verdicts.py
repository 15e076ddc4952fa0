"""Reads JSON lines {"schema": …, "instance": …} on stdin and prints one verdict per line (1 valid, 0 invalid)
according to Python's jsonschema (draft 2020-12): the reference of JSONSchemaDifferentialTests."""
import json
import sys

from jsonschema import Draft202012Validator

for line in sys.stdin:
    case = json.loads(line)
    print(1 if Draft202012Validator(case["schema"]).is_valid(case["instance"]) else 0)
