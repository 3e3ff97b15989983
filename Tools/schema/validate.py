#!/usr/bin/env python3
"""Validates the repository's scenes against docs/scene.schema.json.

Checks, each one a line of the report:
  - the schema is itself a valid JSON Schema (draft 2020-12);
  - every scene file in the repository validates: any *.json under Examples/,
    Benchmarks/, Tests/ and docs/ whose top level says "format": "penumbra-scene"
    (build folders skipped), and every ```json block of docs/*.md (each one
    must be a whole scene);
  - every deliberately invalid scene is rejected: Tools/schema/invalid/*.json,
    and any scene file under Examples/, Benchmarks/, Tests/ or docs/ in a
    folder named "invalid" (where bad-input fixtures belong);
  - self-tests that prove the check can fail: a valid scene with a typo'd key
    added (to the document, to an op, to a filter) is rejected.

Prints "N passed, N failed" last and exits 1 when anything failed (2 when
jsonschema is missing). Usage: Tools/schema/validate.py [-v]
"""
import copy
import glob
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover
    print("validate.py needs jsonschema: python3 -m pip install jsonschema", file=sys.stderr)
    sys.exit(2)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCHEMA = os.path.join(ROOT, "docs", "scene.schema.json")
INVALID = os.path.join(ROOT, "Tools", "schema", "invalid")
SCENE_FOLDERS = ["Examples", "Benchmarks", "Tests", "docs"]
SKIPPED_FOLDERS = {".build", ".swiftpm", "node_modules", ".git"}


def rel(path):
    return os.path.relpath(path, ROOT)


def scene_files():
    """Every JSON file under the scene folders whose top level is a penumbra-scene."""
    found = []
    for folder in SCENE_FOLDERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_FOLDERS)
            for name in sorted(filenames):
                if not name.endswith(".json"):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    with open(path, encoding="utf-8") as f:
                        doc = json.load(f)
                except (ValueError, UnicodeDecodeError):
                    continue  # not JSON at all: not a scene fixture
                if isinstance(doc, dict) and doc.get("format") == "penumbra-scene":
                    found.append((rel(path), doc))
    return found


FENCE = re.compile(r"^```json[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def doc_blocks():
    """Every ```json block of docs/*.md, as (place, text)."""
    blocks = []
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            blocks.append(("%s:%d" % (rel(path), line), match.group(1)))
    return blocks


def describe(error):
    place = "/".join(str(p) for p in error.absolute_path) or "(document)"
    return "%s: %s" % (place, error.message)


def main():
    verbose = "-v" in sys.argv[1:]
    passed = failed = 0

    def report(ok, what, why=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            if verbose:
                print("PASS %s" % what)
        else:
            failed += 1
            print("FAIL %s%s" % (what, (": " + why) if why else ""))

    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
        report(True, "docs/scene.schema.json is a valid draft 2020-12 schema")
    except jsonschema.SchemaError as e:
        report(False, "docs/scene.schema.json is a valid draft 2020-12 schema", e.message)
        print("%d passed, %d failed" % (passed, failed))
        return 1
    validator = jsonschema.Draft202012Validator(schema)

    def first_error(doc):
        """The most relevant error (jsonschema's best_match), or None when the document is valid."""
        return jsonschema.exceptions.best_match(validator.iter_errors(doc))

    # Valid scenes: the repository's fixtures and the docs' examples.
    scenes = scene_files()
    if not scenes:
        report(False, "scene files found", "none under " + ", ".join(SCENE_FOLDERS))
    invalid_fixtures = []
    for place, doc in scenes:
        if "invalid" in place.split(os.sep)[:-1]:
            invalid_fixtures.append((place, doc))
            continue
        error = first_error(doc)
        report(error is None, place, describe(error) if error else "")
    blocks = doc_blocks()
    for place, text in blocks:
        try:
            doc = json.loads(text)
        except ValueError as e:
            report(False, place, "not JSON: %s" % e)
            continue
        if not (isinstance(doc, dict) and doc.get("format") == "penumbra-scene"):
            report(False, place, "a ```json block in docs/ must be a whole scene (use ```jsonc for a fragment)")
            continue
        error = first_error(doc)
        report(error is None, place, describe(error) if error else "")

    # Deliberately invalid scenes: each must be rejected.
    invalid = sorted(glob.glob(os.path.join(INVALID, "*.json")))
    if len(invalid) < 5:
        report(False, "invalid fixtures", "expected at least 5 in %s" % rel(INVALID))
    for path in invalid:
        with open(path, encoding="utf-8") as f:
            invalid_fixtures.append((rel(path), json.load(f)))
    for place, doc in invalid_fixtures:
        error = first_error(doc)
        report(error is not None, "%s is rejected" % place, "the schema accepts it")
        if error is not None and verbose:
            print("     (%s)" % describe(error))

    # Self-tests: typos added to a valid scene must be rejected.
    base = {
        "format": "penumbra-scene", "version": 1, "size": [20, 20],
        "images": {"dot": {"generator": "constantColor", "color": "#FF0000", "extent": [0, 0, 4, 4]},
                   "soft": {"input": "dot", "filters": [{"filter": "gaussianBlur", "radius": 1}]}},
        "ops": [{"op": "setShadow", "offset": [0, 2], "blur": 4}, {"op": "drawImage", "image": "soft", "at": [2, 2]}],
    }
    error = first_error(base)
    report(error is None, "self-test: the untouched scene is valid", describe(error) if error else "")
    typos = [
        ("document key", lambda d: d.__setitem__("backgroud", "#FFFFFF")),
        ("op key", lambda d: d["ops"][0].__setitem__("blurRadius", 4)),
        ("drawImage key", lambda d: d["ops"][1].__setitem__("alpah", 0.5)),
        ("filter key", lambda d: d["images"]["soft"]["filters"][0].__setitem__("sigma", 2)),
        ("generator key", lambda d: d["images"]["dot"].__setitem__("colour", "#00FF00")),
        ("op name", lambda d: d["ops"][0].__setitem__("op", "setShadowColor")),
    ]
    for what, mutate in typos:
        doc = copy.deepcopy(base)
        mutate(doc)
        report(first_error(doc) is not None, "self-test: a typo'd %s is rejected" % what, "the schema accepts it")

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
