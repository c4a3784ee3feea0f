"""Run one command; print its wall time (s), CPU time (user + system, s) and peak memory (MiB) as JSON."""

import json
import resource
import subprocess
import sys
import time

t0 = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).returncode
wall = time.perf_counter() - t0
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": rc, "wall": wall, "cpu": use.ru_utime + use.ru_stime, "peak_mib": use.ru_maxrss / 1024}))
