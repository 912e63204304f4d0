"""What importing a file of plays costs in memory, near the 16 MB ceiling (issue 46): each
file written here, then `warledger import` in a process of its own that reads its peak
(VmHWM) against what it held before reading the file. Prints one line per file; exits 1 if
any grew by 64 MiB or more.

    uv run python tests/benchmarks/import_memory.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.plays import FILE_LIMIT, bgg_xml, bgstats_json  # noqa: E402
from tests.test_import_memory import HOSTILE, imported, risk_plays  # noqa: E402

CEILING_KIB = 64 * 1024


def main() -> int:
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        files = {name: make for name, make in HOSTILE.items()}
        # Real plays as near the ceiling as they fit: six-player Risk, a line each.
        count = 15_000
        files["15,000 Risk plays.xml"] = lambda: bgg_xml(
            risk_plays(count, lambda i: f"bgg:{i + 1}")).encode()
        files["15,000 Risk plays.json"] = lambda: json.dumps(bgstats_json(risk_plays(
            count, lambda i: f"bgstats:00000000-0000-4000-8000-{i:012d}"))).encode()
        print(f"{'file':<34} {'MB':>5} {'grew MiB':>9} {'s':>6}  exit  said")
        for name, make in files.items():
            path = folder / name
            path.write_bytes(make())
            size = path.stat().st_size
            started = time.perf_counter()
            code, grew, said = imported(path, folder / f"{name}.db")
            took = time.perf_counter() - started
            failed |= grew >= CEILING_KIB or size > FILE_LIMIT
            first = said.strip().splitlines()[0][-70:] if said.strip() else ""
            print(f"{name:<34} {size / 1e6:>5.1f} {grew / 1024:>9.1f} {took:>6.1f}  {code:>4}  "
                  f"{first}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
