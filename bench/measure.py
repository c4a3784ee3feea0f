"""Run one command; print its wall time (s) and peak memory (MiB) as JSON."""

import json
import resource
import subprocess
import sys
import time

t0 = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).returncode
wall = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"rc": rc, "wall": wall, "peak_mib": peak}))
