"""Time encode_png and decode_png on a 10-megapixel RGB image (median of 3 runs each).

Run from the repository root: ``python benchmarks/bench_png.py [compress_level]``.
The image is a colour gradient plus Gaussian noise (sigma 4): photo-like, compressible
but not trivially so.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from semantic_chat.media.png import decode_png, encode_png

HEIGHT, WIDTH = 2740, 3650


def make_image() -> np.ndarray:
    rng = np.random.default_rng(0)
    rows = np.linspace(0.0, 255.0, HEIGHT)[:, None, None]
    columns = np.linspace(0.0, 255.0, WIDTH)[None, :, None]
    base = (0.5 * rows + 0.5 * columns) * np.array([1.0, 0.7, 0.4])
    noisy = base + rng.normal(0.0, 4.0, (HEIGHT, WIDTH, 3))
    return np.clip(noisy, 0, 255).astype(np.uint8)


def median_seconds(function: Callable[[], object], runs: int = 3) -> tuple[float, float]:
    """Median wall-clock and CPU seconds (CPU summed over threads) of *runs* calls."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    level = int(sys.argv[1]) if len(sys.argv) > 1 else None
    image = make_image()
    kwargs = {} if level is None else {"compress_level": level}
    encoded = encode_png(image, **kwargs)
    if not np.array_equal(decode_png(encoded), image):
        raise SystemExit("round trip failed")
    encode, encode_cpu = median_seconds(lambda: encode_png(image, **kwargs))
    decode, decode_cpu = median_seconds(lambda: decode_png(encoded))
    name = "default" if level is None else str(level)
    print(f"image: {WIDTH}x{HEIGHT} RGB uint8 ({image.nbytes / 1e6:.1f} MB raw)")
    print(f"compress_level: {name}, PNG size: {len(encoded) / 1e6:.2f} MB")
    print(f"encode: {encode:.3f} s (cpu {encode_cpu:.3f} s)")
    print(f"decode: {decode:.3f} s (cpu {decode_cpu:.3f} s)")
    print(f"total:  {encode + decode:.3f} s")


if __name__ == "__main__":
    main()
