// sharp (libvips) loaded on first use rather than at start-up: its import (the native module, libc
// detection, its colour tables) was ~30 ms of the server's start (docs/benchmarks.md). Every image
// operation is asynchronous anyway, so its callers await the module with the operation.
import type SharpConstructor from "sharp";

export type Sharp = typeof SharpConstructor;

let loading: Promise<Sharp> | null = null;

/** sharp, loaded once; its decoded-image cache is off (each image is read once, memory stays flat). */
export function loadSharp(): Promise<Sharp> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
