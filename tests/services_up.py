"""Exit 0 when PostgreSQL and Redis answer at the URLs given, 1 (saying which is down) otherwise."""

import socket
import sys
from urllib.parse import urlparse


def reachable(url: str, default_port: int) -> bool:
    parts = urlparse(url)
    try:
        socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), 2
        ).close()
    except OSError:
        return False
    return True


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
