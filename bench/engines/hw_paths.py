"""What the hardware benchmarks (hw.py, hw_everlost.py, hw_live.py, hw_mus.py) share: the bench
folder, the AIGER circuits (`VERIKIT_DATA`, default ../shared/data next to the repository), the
verikit binary (`VERIKIT_BIN`, default the release build) and the harness's `measure`."""

import os
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
ROOT = BENCH.parent
DATA = Path(os.environ.get("VERIKIT_DATA", ROOT.parent / "shared" / "data")).resolve() / "aiger"
VERIKIT = Path(os.environ.get("VERIKIT_BIN", ROOT / "target" / "release" / "verikit"))

sys.path.insert(0, str(BENCH))
from harness import measure  # noqa: E402,F401
