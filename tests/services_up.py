"""Exit 0 when PostgreSQL and Redis answer at the URLs given, 1 (saying which is down) otherwise.

Run as a script (``python tests/services_up.py DATABASE_URL REDIS_URL``, see the Makefile's
``test-services``), so it puts the repository root on ``sys.path`` for ``bench.server``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.server import reachable

if __name__ == "__main__":
    database_url, redis_url = sys.argv[1], sys.argv[2]
    down = [
        name
        for name, url, port in (("PostgreSQL", database_url, 5432), ("Redis", redis_url, 6379))
        if not reachable(url, port)
    ]
    if down:
        print(" and ".join(down) + " cannot be reached", file=sys.stderr)
    sys.exit(1 if down else 0)
