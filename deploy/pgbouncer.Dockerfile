# Debian's PgBouncer, as tested by `make stress` (tests/stress/test_cluster.py).
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends pgbouncer postgresql-client \
    && rm -rf /var/lib/apt/lists/*
USER postgres
# The password file is written from POSTGRES_PASSWORD at start: the image carries no secret.
CMD ["sh", "-c", "printf '\"bgdirector\" \"%s\"\\n' \"$POSTGRES_PASSWORD\" > /tmp/userlist.txt && exec pgbouncer /etc/pgbouncer/pgbouncer.ini"]
