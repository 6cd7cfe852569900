"""Random edits of real match files, for fuzzing the readers and the upload path."""

from __future__ import annotations

import random

#: What an edit may write: the files' own characters, and bytes no text file should hold.
ALPHABET = b" \n\r\t0123456789:;()[]/*=>abcdefghijklmnopqrstuvwxyzWBPointsGameDoubles\xff\xc3\x00"


def mutate(data: bytes, rng: random.Random, count: int) -> bytes:
    """``count`` random edits: bytes changed, inserted, deleted; lines dropped, doubled,
    swapped; or the file cut short."""
    buf = bytearray(data)
    for _ in range(count):
        kind = rng.randrange(7)
        pos = rng.randrange(len(buf) + 1)
        if kind == 0 and buf:
            buf[min(pos, len(buf) - 1)] = rng.choice(ALPHABET)
        elif kind == 1:
            buf[pos:pos] = bytes(rng.choice(ALPHABET) for _ in range(rng.randint(1, 4)))
        elif kind == 2:
            del buf[pos : pos + rng.randint(1, 8)]
        elif kind == 3:
            del buf[pos:]
        else:
            lines = bytes(buf).split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if kind == 4:
                del lines[i]
            elif kind == 5:
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            buf = bytearray(b"\n".join(lines))
    return bytes(buf)
