// BlurHash encoder (https://blurha.sh, Wolt's reference algorithm): a short string clients paint as a
// placeholder while an image loads. Input: packed RGB pixels (3 bytes each).

const BASE83 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~";

function encode83(value: number, length: number): string {
  let out = "";
  for (let i = 1; i <= length; i++) out += BASE83[Math.floor(value / 83 ** (length - i)) % 83];
  return out;
}

function toLinear(value: number): number {
  const v = value / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function toSrgb(value: number): number {
  const v = Math.max(0, Math.min(1, value));
  return v <= 0.0031308 ? Math.round(v * 12.92 * 255 + 0.5) : Math.round((1.055 * v ** (1 / 2.4) - 0.055) * 255 + 0.5);
}

const signPow = (value: number, exp: number) => Math.sign(value) * Math.abs(value) ** exp;

export function encodeBlurhash(rgb: Uint8Array, width: number, height: number, xComponents = 4, yComponents = 3): string {
  const factors: [number, number, number][] = [];
  for (let j = 0; j < yComponents; j++) {
    for (let i = 0; i < xComponents; i++) {
      const normalisation = i === 0 && j === 0 ? 1 : 2;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = 0; y < height; y++) {
        const cosY = Math.cos((Math.PI * j * y) / height);
        for (let x = 0; x < width; x++) {
          const basis = normalisation * Math.cos((Math.PI * i * x) / width) * cosY;
          const p = 3 * (y * width + x);
          r += basis * toLinear(rgb[p]!);
          g += basis * toLinear(rgb[p + 1]!);
          b += basis * toLinear(rgb[p + 2]!);
        }
      }
      const scale = 1 / (width * height);
      factors.push([r * scale, g * scale, b * scale]);
    }
  }
  const [dc, ...ac] = factors;
  let hash = encode83(xComponents - 1 + (yComponents - 1) * 9, 1);
  let maximum = 1;
  if (ac.length > 0) {
    const actualMax = Math.max(...ac.flatMap((f) => f.map(Math.abs)));
    const quantised = Math.max(0, Math.min(82, Math.floor(actualMax * 166 - 0.5)));
    maximum = (quantised + 1) / 166;
    hash += encode83(quantised, 1);
  } else {
    hash += encode83(0, 1);
  }
  hash += encode83((toSrgb(dc![0]) << 16) + (toSrgb(dc![1]) << 8) + toSrgb(dc![2]), 4);
  for (const [r, g, b] of ac) {
    const q = (v: number) => Math.max(0, Math.min(18, Math.floor(signPow(v / maximum, 0.5) * 9 + 9.5)));
    hash += encode83(q(r) * 19 * 19 + q(g) * 19 + q(b), 2);
  }
  return hash;
}
