"""Process measurements: which metrics there are, and their values at any moment, from the seed."""

from __future__ import annotations

import hashlib
import math
from datetime import datetime

# name, units, typical value, daily swing
METRICS = [
    ("CONNECTIONS", "SCALAR", 40.0, 25.0),
    ("OPCOUNTER_QUERY", "SCALAR_PER_SECOND", 120.0, 80.0),
    ("OPCOUNTER_INSERT", "SCALAR_PER_SECOND", 35.0, 30.0),
    ("OPCOUNTER_UPDATE", "SCALAR_PER_SECOND", 22.0, 15.0),
    ("SYSTEM_NORMALIZED_CPU_USER", "PERCENT", 18.0, 12.0),
    ("CACHE_USED_BYTES", "BYTES", 5.4e8, 1.2e8),
    ("CACHE_FILL_RATIO", "PERCENT", 0.62, 0.2),
    ("DISK_PARTITION_SPACE_USED_DATA", "BYTES", 1.9e10, 2.0e9),
    ("QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED", "SCALAR", 3.0, 2.5),
]


def measurement_value(seed: int, process_id: str, metric: str, moment: datetime, typical: float, swing: float) -> float:
    """A value that rises and falls with the time of day, plus noise; the same inputs, the same value."""
    key = f"{seed}|{process_id}|{metric}|{int(moment.timestamp())}".encode()
    noise = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") / 2**64 - 0.5
    hour = moment.hour + moment.minute / 60
    daily = 0.5 + 0.5 * math.sin((hour - 8) / 24 * 2 * math.pi)
    return round(max(typical + swing * (daily - 0.5) + swing * 0.3 * noise, 0.0), 4)
