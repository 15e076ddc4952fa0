"""Writes a synthetic OpenAPI 3.0 document for openapi-startup.sh: N operations shaped like a real-world API (each
path has get and put operations with parameters, a request body, and responses referring to component schemas with
nested objects, enums and formats); REPEAT (default 6) sets the length of each schema's description, and so the size
of the file without changing the number of operations. An OUT ending in .yaml is written as block YAML (scalars
quoted as JSON strings, which YAML reads alike), so that the YAML reader is timed too.

Usage: synthetic-openapi.py N OUT.json|OUT.yaml [REPEAT]
"""
import json, sys
n = int(sys.argv[1]); out = sys.argv[2]; rep = int(sys.argv[3]) if len(sys.argv) > 3 else 6
schemas = {}
paths = {}
for i in range(n // 2):
    name = f"Resource{i}"
    schemas[name] = {"type": "object", "required": ["id", "name"], "properties": {
        "id": {"type": "integer", "format": "int64"}, "name": {"type": "string", "maxLength": 64},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"]},
        "created": {"type": "string", "format": "date-time"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "owner": {"$ref": "#/components/schemas/Owner"},
        "attributes": {"type": "object", "additionalProperties": {"type": "string"}},
        "description": {"type": "string", "description": "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * rep}}}
    body = {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}
    error = {"description": "error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    paths[f"/resources{i}/{{id}}"] = {
        "get": {"operationId": f"get{name}", "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
            {"name": "expand", "in": "query", "schema": {"type": "array", "items": {"type": "string", "enum": ["owner", "tags"]}}}],
            "responses": {"200": {"description": "ok", **body}, "404": error, "default": error}},
        "put": {"operationId": f"put{name}", "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "requestBody": body, "responses": {"200": {"description": "ok", **body}, "400": error}}}
schemas["Owner"] = {"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}, "email": {"type": "string", "format": "email"}}}
schemas["Error"] = {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}
doc = {"openapi": "3.0.3", "info": {"title": "synthetic", "version": "1"}, "paths": paths, "components": {"schemas": schemas}}


def block_yaml(value, indent=""):
    """The lines of `value` as block YAML: mappings and sequences one member a line, scalars as JSON."""
    if isinstance(value, dict) and value:
        for key, member in value.items():
            if isinstance(member, (dict, list)) and member:
                yield f"{indent}{json.dumps(key)}:"
                yield from block_yaml(member, indent + "  ")
            else:
                yield f"{indent}{json.dumps(key)}: {json.dumps(member)}"
    elif isinstance(value, list) and value:
        for member in value:
            if isinstance(member, (dict, list)) and member:
                lines = list(block_yaml(member, indent + "  "))
                yield f"{indent}- {lines[0].lstrip()}"
                yield from lines[1:]
            else:
                yield f"{indent}- {json.dumps(member)}"


with open(out, "w") as file:
    if out.endswith(".yaml"):
        file.write("\n".join(block_yaml(doc)) + "\n")
    else:
        json.dump(doc, file, indent=2)
