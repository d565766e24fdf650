"""Check a reported online game: ``python -m lab.verify_match FILE``.

Prints the verdict of :mod:`py_engine.service.online.report` (``--json``: as
JSON); exits 0 when the report checks out, 1 when it does not (damaged,
edited, or not made by an honest engine), 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from py_engine.service.online.report import describe, verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", type=Path, help="the report, as the page saved it")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    args = parser.parse_args(argv)
    try:
        report = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    found = verdict(report)
    print(json.dumps(found, indent=1) if args.json else "\n".join(describe(found)))
    return 0 if found["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
