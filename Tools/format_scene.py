#!/usr/bin/env python3
"""Writes scene documents with one op per line (the layout of Examples/). Used by the example
generators; usable on its own: format_scene.py FILE... reformats files in place."""
import json
import sys


def dumps(doc):
    lines = ["{"]
    keys = list(doc.keys())
    for i, k in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if k == "ops":
            lines.append(' "ops": [')
            ops = doc["ops"]
            for j, op in enumerate(ops):
                lines.append("  " + json.dumps(op, separators=(", ", ": ")) + ("," if j < len(ops) - 1 else ""))
            lines.append(" ]" + comma)
        else:
            lines.append(f' "{k}": ' + json.dumps(doc[k], separators=(", ", ": ")) + comma)
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(path, doc):
    with open(path, "w") as f:
        f.write(dumps(doc))


if __name__ == "__main__":
    for path in sys.argv[1:]:
        write(path, json.load(open(path)))
