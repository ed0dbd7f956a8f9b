// Round half to even on doubles: the rounding every encoder here uses (Math.round rounds
// half up, which biases every tie).

/** x rounded to the nearest integer, ties to the even one. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** floor(log2(x)) for finite x > 0, exact at powers of two (Math.log2 alone can be off by one). */
export function floorLog2(x: number): number {
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e -= 1;
  else if (2 ** (e + 1) <= x) e += 1;
  return e;
}
